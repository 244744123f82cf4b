import re

import pytest
from django.contrib.messages import get_messages
from django.db import connection

from curriculum.models import Resource
from progress import actions
from progress.models import Watch, WatchEvent
from tests.factories import FollowedResourceFactory, ResourceFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


def url(resource):
    return f"/resources/{resource.slug}/watched/"


def test_it_marks_watched_and_redirects_back_with_a_message(learner, learner_client):
    """Without JavaScript: POST, redirect to the page the form was on, a message there."""
    lecture = ResourceFactory(title="Lecture 3")
    response = learner_client.post(url(lecture), {"next": "/?tab=1#step-3"}, headers=EN)
    assert response.status_code == 302
    assert response.url == "/?tab=1#step-3"
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["“Lecture 3” marked watched."]
    assert Watch.objects.get(user=learner, resource=lecture).is_finished


@pytest.mark.parametrize("next_url", ["0", "home", "progress:coding_log", "resources/"])
def test_a_next_that_is_not_a_path_goes_home_instead_of_failing(learner_client, next_url):
    """A bare word is not taken for a view name (that answered 500): the dashboard instead."""
    lecture = ResourceFactory()
    response = learner_client.post(url(lecture), {"next": next_url})
    assert (response.status_code, response.url) == (302, "/")


def test_it_ignores_a_next_url_on_another_site(learner_client):
    """An open redirect is refused: the learner lands on the dashboard."""
    lecture = ResourceFactory()
    response = learner_client.post(url(lecture), {"next": "https://evil.example/"})
    assert response.status_code == 302
    assert response.url == "/"


def test_marking_twice_keeps_one_row(learner, learner_client):
    """A double submit leaves one row and one event."""
    lecture = ResourceFactory()
    learner_client.post(url(lecture))
    learner_client.post(url(lecture))
    assert Watch.objects.filter(user=learner).count() == 1
    assert WatchEvent.objects.filter(user=learner).count() == 1


def test_an_unknown_slug_is_404(learner_client):
    """No such resource: not found, nothing written."""
    assert learner_client.post("/resources/no-such-talk/watched/").status_code == 404
    assert not Watch.objects.exists()


def test_a_followed_kind_cannot_be_marked_watched(learner_client):
    """A channel is followed: "watched" is refused with a readable message."""
    channel = FollowedResourceFactory()
    response = learner_client.post(url(channel), headers=EN, follow=True)
    assert "followed, not watched" in response.content.decode()
    assert not Watch.objects.exists()


def test_with_htmx_it_answers_the_step_and_the_updated_bars(learner, learner_client, seed_path):
    """From the path: the step fragment plus out-of-band stage bar, path bar and next up."""
    step = seed_path.steps[0]
    response = learner_client.post(
        url(seed_path.start),
        {"next": "/", "place": f"step-{step.pk}", "page": "path"},
        headers=HTMX,
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert f'<li class="step step--done" id="step-{step.pk}" hx-swap-oob="true">' in html
    assert f'id="step-{step.pk}-toggle"' in html
    assert "Mark not watched" in html
    stage_bar = html.split(f'id="stage-{seed_path.stages[0].pk}-bar" hx-swap-oob="true"')[1]
    assert "1 of 3 steps done" in stage_bar.split("</p>")[0]
    path_bar = html.split('id="path-bar" hx-swap-oob="true"')[1].split("</div>")[0]
    assert "1 of 7 steps done ·" in path_bar
    assert "1\u00a0h watched of 16\u00a0h\u00a030</label>" in path_bar
    next_up = html.split('id="next-up" hx-swap-oob="true"')[1].split("</section>")[0]
    assert "Lecture 3" in next_up
    assert 'id="start-here" hx-swap-oob="true"' in html
    assert "“How GPU Computing Works” marked watched." in html
    assert Watch.objects.get(user=learner, resource=seed_path.start).is_finished


def test_with_htmx_outside_the_path_it_answers_the_resource_controls(learner_client):
    """From a catalogue or resource page: only that resource's controls, swapped in place."""
    lecture = ResourceFactory()
    response = learner_client.post(
        url(lecture), {"place": "resource-x", "next": "/resources/"}, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div class="watch watch--done" id="resource-x-watch"')
    assert 'hx-swap-oob="true"' in html
    assert 'name="next" value="/resources/"' in html
    assert "path-bar" not in html


def test_with_htmx_on_the_path_the_balance_follows(learner, learner_client, seed_path):
    """Watched minutes change the balance: it comes back out-of-band with the step."""
    response = learner_client.post(
        url(seed_path.start),
        {"place": f"step-{seed_path.steps[0].pk}", "page": "path"},
        headers=HTMX,
    )
    html = response.content.decode()
    balance = html.split('id="balance"')[1].split("</section>")[0]
    assert 'hx-swap-oob="true"' in balance
    assert "You watched 1\u00a0h and coded 0\u00a0min this week: 3\u00a0h more code" in balance


def test_with_htmx_on_a_resource_page_its_coded_state_and_balance_follow(learner_client):
    """From the resource page: the controls, the watched-and-coded sentence and the balance."""
    lecture = ResourceFactory(slug="scan", duration_minutes=60)
    response = learner_client.post(
        url(lecture), {"place": "watch-scan", "page": "resource"}, headers=HTMX
    )
    html = response.content.decode()
    assert 'id="watch-scan-watch" hx-swap-oob="true"' in html
    assert '<input type="hidden" name="page" value="resource">' in html
    assert '<div id="coded-scan" hx-swap-oob="true">' in html
    assert "Not coded yet: 3\u00a0h of code to do" in html
    assert '<section id="balance" class="balance card"' in html
    assert "You watched 1\u00a0h and coded 0\u00a0min in all" in html


def test_a_forged_place_falls_back_to_a_plain_id(learner_client):
    """The place prefix is echoed into ids: anything but letters, digits and dashes is dropped."""
    lecture = ResourceFactory()
    response = learner_client.post(url(lecture), {"place": '"><script>'}, headers=HTMX)
    html = response.content.decode()
    assert 'id="resource-watch"' in html
    assert "<script>" not in html


def test_without_javascript_a_step_lands_back_on_its_step(learner, learner_client, seed_path):
    """A plain POST from a step of the path comes back to that step, not the top of the page."""
    step = seed_path.steps[1]
    response = learner_client.post(
        url(seed_path.lectures[0]), {"next": "/path/", "place": f"step-{step.pk}", "page": "path"}
    )
    assert (response.status_code, response.url) == (302, f"/path/#step-{step.pk}")
    assert Watch.objects.get(user=learner, resource=seed_path.lectures[0]).is_finished


@pytest.mark.parametrize("place", ["start-here", "next-up-1"])
def test_without_javascript_the_cards_land_back_on_next_up(learner_client, seed_path, place):
    """From the start-here or next-up card: back to the next-up card, whatever anchor came."""
    response = learner_client.post(
        url(seed_path.start), {"next": "/#somewhere", "place": place, "page": "path"}
    )
    assert (response.status_code, response.url) == (302, "/#next-up")


def test_without_javascript_a_refusal_lands_back_on_its_step(learner_client, seed_path):
    """A followed kind refused from a step: the error message, and the learner on that step."""
    channel = FollowedResourceFactory()
    response = learner_client.post(url(channel), {"next": "/", "place": "step-9", "page": "path"})
    assert (response.status_code, response.url) == (302, "/#step-9")
    assert not Watch.objects.exists()


def test_from_next_up_focus_moves_to_the_log_code_link(learner, learner_client, seed_path):
    """Marked from the next-up card: the new card's ids name its own resource, and its first
    action, a link that marks nothing, takes the focus."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    lecture = seed_path.lectures[0]
    response = learner_client.post(
        url(lecture), {"next": "/", "place": f"next-up-{lecture.pk}", "page": "path"}, headers=HTMX
    )
    html = response.content.decode()
    card = html.split('id="next-up" hx-swap-oob="true"')[1].split("</section>")[0]
    assert (
        f'id="next-up-code-{lecture.pk}" href="/resources/gpu-mode-3/#coding-gpu-mode-3" autofocus'
        in card
    )
    assert html.count("autofocus") == 1
    assert f'id="next-up-{seed_path.lectures[1].pk}-toggle"' in card
    assert f'id="next-up-{lecture.pk}-toggle"' not in html
    assert Watch.objects.get(user=learner, resource=lecture).is_finished


def test_from_start_here_focus_moves_to_next_up(learner, learner_client, seed_path):
    """The start-here card goes away: focus goes to the next-up card's log-code link."""
    response = learner_client.post(
        url(seed_path.start), {"next": "/", "place": "start-here", "page": "path"}, headers=HTMX
    )
    html = response.content.decode()
    assert re.search(r'<div id="start-here" hx-swap-oob="true">\s*</div>', html)
    assert f'id="next-up-code-{seed_path.start.pk}"' in html
    assert html.count("autofocus") == 1


def test_from_a_step_of_the_list_focus_stays_on_its_button(learner_client, seed_path):
    """Marked from the list: no autofocus anywhere, htmx keeps focus on the step's button."""
    step = seed_path.steps[1]
    response = learner_client.post(
        url(seed_path.lectures[0]),
        {"next": "/", "place": f"step-{step.pk}", "page": "path"},
        headers=HTMX,
    )
    html = response.content.decode()
    assert f'id="step-{step.pk}-toggle"' in html
    assert "autofocus" not in html


def test_with_htmx_the_swapped_controls_are_not_swapped_twice(learner_client, seed_path):
    """Only the step, the bars and the cards are out-of-band: the controls inside them are not."""
    step = seed_path.steps[0]
    response = learner_client.post(
        url(seed_path.start), {"place": f"step-{step.pk}", "page": "path"}, headers=HTMX
    )
    assert f'id="step-{step.pk}-watch" hx-swap-oob' not in response.content.decode()


@pytest.mark.parametrize("scale", [1, 10])
def test_the_htmx_answer_on_the_path_takes_the_same_queries_at_any_size(
    learner, learner_client, grow_history, seed_path, django_assert_num_queries, scale
):
    """Session, user, the write (one statement on PostgreSQL that also checks the curriculum's
    revision, a transaction on SQLite: tests/config/test_query_counts.py), then the dashboard's
    one statement: the same queries whether the path has 5 or 50 more steps watched and coded."""
    grow_history(learner, scale)
    learner_client.get("/")  # builds this process's copy of the curriculum (structure.py)
    step = seed_path.steps[1]
    with django_assert_num_queries(4 if connection.vendor == "postgresql" else 11):
        response = learner_client.post(
            url(seed_path.lectures[0]), {"place": f"step-{step.pk}", "page": "path"}, headers=HTMX
        )
    assert f'id="step-{step.pk}" hx-swap-oob="true"' in response.content.decode()
    assert Watch.objects.get(user=learner, resource=seed_path.lectures[0]).is_finished


def test_a_curators_edit_since_the_process_read_the_curriculum_counts(learner, learner_client):
    """The process holds the curriculum from an earlier page; a curator then makes the lecture
    longer: the click writes with the new length, not the one the process held."""
    lecture = ResourceFactory(slug="scan", duration_minutes=60)
    learner_client.get("/resources/")
    Resource.objects.filter(pk=lecture.pk).update(duration_minutes=90)
    response = learner_client.post(url(lecture), headers=HTMX)
    assert response.status_code == 200
    assert Watch.objects.get(user=learner, resource=lecture).watched_minutes == 90
    assert WatchEvent.objects.for_learner(learner).total_minutes() == 90


def test_a_lecture_a_curator_made_a_channel_meanwhile_is_refused(learner_client):
    """The process held it as a lecture; it is a channel now: "watched" is refused."""
    lecture = ResourceFactory(slug="scan")
    learner_client.get("/resources/")
    Resource.objects.filter(pk=lecture.pk).update(kind=Resource.Kind.CHANNEL, duration_minutes=None)
    response = learner_client.post(url(lecture), headers=EN, follow=True)
    assert "followed, not watched" in response.content.decode()
    assert not Watch.objects.exists()


def test_a_resource_added_since_the_process_read_the_curriculum_is_found(learner, learner_client):
    """A lecture the held curriculum does not have yet: read again, then marked."""
    learner_client.get("/resources/")
    lecture = ResourceFactory(slug="brand-new")
    assert learner_client.post(url(lecture)).status_code == 302
    assert Watch.objects.get(user=learner, resource=lecture).is_finished


def test_a_resource_deleted_since_the_process_read_the_curriculum_is_404(learner_client):
    """The held curriculum still has it; the click finds it gone and writes nothing."""
    lecture = ResourceFactory(slug="gone")
    learner_client.get("/resources/")
    lecture.delete()
    assert learner_client.post("/resources/gone/watched/").status_code == 404
    assert not Watch.objects.exists()
