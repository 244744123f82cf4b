import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from progress import actions
from tests.factories import FollowedResourceFactory, ResourceFactory, SeriesFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


def test_the_catalogue_shows_the_learners_state_beside_each_resource(learner, learner_client):
    """Watched, in progress, followed: each card says so and carries its buttons."""
    lecture = ResourceFactory(slug="lecture")
    course = ResourceFactory(slug="course", kind="course", duration_minutes=720)
    channel = FollowedResourceFactory(slug="channel")
    actions.mark_watched(user=learner, resource=lecture)
    actions.log_sitting(user=learner, resource=course, minutes=60)
    html = learner_client.get("/resources/", headers=EN).content.decode()
    lecture_card = html.split('id="watch-lecture-watch"')[1].split("</form>")[0]
    assert "Watched" in lecture_card
    assert 'action="/resources/lecture/not-watched/"' in lecture_card
    assert "In progress: 1\u00a0h of 12\u00a0h" in html.split('id="watch-course-watch"')[1]
    assert 'action="/resources/channel/followed/"' in html
    assert channel.title in html


def test_visitors_see_the_catalogue_without_buttons(client):
    """Signed out: no state, no forms."""
    ResourceFactory()
    html = client.get("/resources/", headers=EN).content.decode()
    assert "Mark watched" not in html


def test_the_catalogue_never_shows_another_learners_state(learner_client, other_learner):
    """Grace's watched lecture reads as not started for Ada."""
    lecture = ResourceFactory(slug="lecture")
    actions.mark_watched(user=other_learner, resource=lecture)
    html = learner_client.get("/resources/", headers=EN).content.decode()
    assert "Watched" not in html.split('id="watch-lecture-watch"')[1].split("</p>")[0]
    assert "Mark not watched" not in html


def test_a_click_in_the_catalogue_swaps_that_resources_controls(learner_client):
    """htmx from a card: the card's controls come back, keyed to the same ids."""
    ResourceFactory(slug="lecture")
    response = learner_client.post(
        "/resources/lecture/watched/",
        {"next": "/resources/?q=cuda"},
        headers=HTMX | {"HX-Target": "watch-lecture-watch"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div class="watch watch--done" id="watch-lecture-watch">')
    assert 'id="watch-lecture-toggle"' in html
    assert 'value="/resources/?q=cuda"' in html


def test_the_catalogue_follows_a_click_in_its_series_count(learner, learner_client):
    """A card marked watched answers its controls; the page's refresh (the event watch-changed,
    ?changed=<slug> with the page's filters) brings its series' count out of band, and nothing
    else."""
    gpu = SeriesFactory(slug="gpu")
    ResourceFactory(slug="scan", series=gpu, title="Scan kernels")
    ResourceFactory(slug="reduce", series=gpu, title="Reduce kernels")
    ResourceFactory(slug="other", title="Other kernels")
    headers = HTMX | {
        "HX-Target": "watch-scan-watch",
        "HX-Current-URL": "http://testserver/resources/?q=kernels",
    }
    learner_client.post(
        "/resources/scan/watched/", {"next": "/resources/?q=kernels"}, headers=headers
    )
    response = learner_client.get("/resources/", {"q": "kernels", "changed": "scan"}, headers=HTMX)
    assert response.content.decode().strip() == (
        '<span hx-swap-oob="innerHTML:#series-gpu .series-group__count">2 resources, 1 done</span>'
    )


def test_filtered_by_state_the_clicked_card_still_counts(learner, learner_client):
    """Filtered to what is in progress, the course just finished keeps its card on the page, and
    so its place in the count."""
    course = ResourceFactory(slug="course", kind="course", duration_minutes=720)
    actions.log_sitting(user=learner, resource=course, minutes=60)
    actions.mark_watched(user=learner, resource=course)
    query = {"state": "in_progress", "changed": "course"}
    html = learner_client.get("/resources/", query, headers=HTMX).content.decode()
    assert "1 resource, 1 done</span>" in html


def test_the_page_follows_clicks_for_a_learner_only(learner, client):
    """A learner's catalogue has the live region the refresh is asked from, and its script; a
    visitor's has neither."""
    ResourceFactory(slug="scan")
    visitor = client.get("/resources/", headers=EN).content.decode()
    assert "change-announcer" not in visitor and "blocks_follow.js" not in visitor
    client.force_login(learner)
    html = client.get("/resources/?q=scan", headers=EN).content.decode()
    assert 'data-follow-blocks="/resources/"' in html
    assert '<script src="/static/js/blocks_follow.js" defer></script>' in html


def catalogue_queries(client):
    client.get("/resources/")  # builds this process's copy of the curriculum if it changed
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/resources/").status_code == 200
    return len(queries)


def test_the_catalogue_query_count_does_not_grow(learner, learner_client):
    """Nothing watched, everything watched, ten times the resources: the same queries."""
    resources = ResourceFactory.create_batch(5)
    nothing = catalogue_queries(learner_client)
    for resource in resources:
        actions.mark_watched(user=learner, resource=resource)
    assert catalogue_queries(learner_client) == nothing
    for resource in ResourceFactory.create_batch(45):
        actions.log_sitting(user=learner, resource=resource, minutes=5)
    assert catalogue_queries(learner_client) == nothing
