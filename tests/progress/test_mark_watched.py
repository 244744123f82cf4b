import re

import pytest
from django.contrib.messages import get_messages

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


def htmx_in(block):
    """The headers htmx sends for a form whose target is the controls' block of that id."""
    return HTMX | {"HX-Target": block}


def refresh(client, page, resource):
    """The page's refresh after a watch change, as static/js/blocks_follow.js asks for it."""
    return client.get(page, {"changed": resource.slug}, headers=HTMX).content.decode()


def test_with_htmx_it_answers_its_own_controls_alone(learner, learner_client, seed_path):
    """From a step of the path: that step's controls, swapped where the form is, their ids those
    of the block htmx named; nothing else of the page, and no out-of-band swap."""
    step = seed_path.steps[0]
    response = learner_client.post(
        url(seed_path.start),
        {"next": f"/#step-{step.pk}"},
        headers=htmx_in(f"step-{step.pk}-watch"),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith(f'<div class="watch watch--done" id="step-{step.pk}-watch">')
    assert f'id="step-{step.pk}-toggle"' in html
    assert "Mark not watched" in html
    assert f'name="next" value="/#step-{step.pk}"' in html
    assert "hx-swap-oob" not in html
    assert "path-bar" not in html and "balance" not in html
    assert Watch.objects.get(user=learner, resource=seed_path.start).is_finished


def test_with_htmx_outside_the_path_it_answers_the_resource_controls(learner_client):
    """From a catalogue or resource page: only that resource's controls, swapped in place."""
    lecture = ResourceFactory()
    response = learner_client.post(
        url(lecture), {"next": "/resources/"}, headers=htmx_in("resource-x-watch")
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div class="watch watch--done" id="resource-x-watch">')
    assert 'name="next" value="/resources/"' in html
    assert 'hx-target="closest .watch" hx-swap="outerHTML"' in html


def test_the_path_refreshes_the_blocks_that_follow_the_change(learner, learner_client, seed_path):
    """After the change, the path's refresh: the step, its stage's bar, the path's bar, next up,
    start here and the balance, out of band; the controls came with the click's own answer."""
    step = seed_path.steps[0]
    learner_client.post(url(seed_path.start), headers=htmx_in(f"step-{step.pk}-watch"))
    html = refresh(learner_client, "/", seed_path.start)
    assert "<html" not in html
    assert f'<li class="step step--done" id="step-{step.pk}" hx-swap-oob="true">' in html
    assert f'id="step-{step.pk}-watch" hx-swap-oob' not in html
    stage_bar = html.split(f'id="stage-{seed_path.stages[0].pk}-bar" hx-swap-oob="true"')[1]
    assert "1 of 3 steps done" in stage_bar.split("</p>")[0]
    path_bar = html.split('id="path-bar" hx-swap-oob="true"')[1].split("</div>")[0]
    assert "1 of 7 steps done ·" in path_bar
    assert "1\u00a0h watched of 16\u00a0h\u00a030</label>" in path_bar
    next_up = html.split('id="next-up" hx-swap-oob="true"')[1].split("</section>")[0]
    assert "Lecture 3" in next_up
    assert 'id="start-here" hx-swap-oob="true"' in html
    balance = html.split('id="balance"')[1].split("</details>")[0]
    assert 'hx-swap-oob="true"' in balance
    assert "You watched 1\u00a0h and coded 0\u00a0min this week: 3\u00a0h more code" in balance
    assert f'id="step-{seed_path.steps[1].pk}"' not in html  # a step the change did not move


def test_the_refresh_of_path_is_the_same(learner_client, seed_path):
    """/path/ is the same page as /: its refresh too, its forms coming back to /path/."""
    learner_client.post(url(seed_path.start), headers=HTMX)
    html = refresh(learner_client, "/path/", seed_path.start)
    assert 'id="next-up" hx-swap-oob="true"' in html
    assert 'name="next" value="/path/#next-up"' in html


def test_without_htmx_the_page_is_the_page_whatever_its_address_says(learner_client, seed_path):
    """?changed= without htmx (a bookmark, a reload): the whole page."""
    html = learner_client.get("/", {"changed": seed_path.start.slug}).content.decode()
    assert "<html" in html


def test_a_resource_page_refreshes_its_controls_coded_state_balance_and_sittings(learner_client):
    """From the resource page: its refresh brings the controls, the watched-and-coded sentence,
    the balance and the sittings (static/js/blocks_follow.js keeps the controls clicked or typed
    in as they are)."""
    lecture = ResourceFactory(slug="scan", duration_minutes=60)
    learner_client.post(url(lecture), headers=htmx_in("watch-scan-watch"))
    html = refresh(learner_client, "/resources/scan/", lecture)
    assert '<div id="coded-scan" hx-swap-oob="true">' in html
    assert "Not coded yet: 3\u00a0h of code to do" in html
    assert (
        '<section id="balance" class="balance card" aria-labelledby="balance-title" hx-swap-oob="true">'
        in html
    )
    assert "You watched 1\u00a0h and coded 0\u00a0min in all" in html
    assert 'id="sittings-scan" hx-swap-oob="true"' in html
    assert '<div class="watch watch--done" id="watch-scan-watch" hx-swap-oob="true">' in html


def test_a_forged_target_falls_back_to_a_plain_id(learner_client):
    """The target's prefix is echoed into ids: anything but letters, digits and dashes, or a
    target that is not a controls' block, gives the resource's own prefix."""
    lecture = ResourceFactory(slug="scan")
    for target in ['"><script>-watch', "next-up", ""]:
        html = learner_client.post(url(lecture), headers=htmx_in(target)).content.decode()
        assert 'id="watch-scan-watch"' in html
        assert "<script>" not in html


def test_the_forms_come_back_to_their_place_without_javascript(learner_client, seed_path):
    """Each form's next names its place on the page: a step its tile, the start-here and next-up
    cards the next-up card (the card clicked in may be gone after the click)."""
    html = learner_client.get("/path/").content.decode()
    tile = html.split(f'id="step-{seed_path.steps[1].pk}"')[1].split("</li>")[0]
    assert f'name="next" value="/path/#step-{seed_path.steps[1].pk}"' in tile
    start_here = html.split('id="start-here"')[1].split("</section>")[0]
    assert 'name="next" value="/path/#next-up"' in start_here
    assert 'name="page"' not in html and 'name="place"' not in html


def test_without_javascript_it_redirects_to_next_with_its_anchor(
    learner, learner_client, seed_path
):
    """A plain POST comes back to the step it was in: the anchor its next carries."""
    step = seed_path.steps[1]
    lecture = seed_path.lectures[0]
    response = learner_client.post(url(lecture), {"next": f"/path/#step-{step.pk}"})
    assert (response.status_code, response.url) == (302, f"/path/#step-{step.pk}")
    assert Watch.objects.get(user=learner, resource=lecture).is_finished


def test_without_javascript_a_refusal_lands_back_on_its_step(learner_client, seed_path):
    """A followed kind refused from a step: the error message, and the learner on that step."""
    channel = FollowedResourceFactory()
    response = learner_client.post(url(channel), {"next": "/#step-9"})
    assert (response.status_code, response.url) == (302, "/#step-9")
    assert not Watch.objects.exists()


def test_from_next_up_the_refresh_marks_the_new_cards_first_action(
    learner, learner_client, seed_path
):
    """Marked from the next-up card: the new card's ids name its own resource, so the button
    clicked is gone, and its first action, a link that marks nothing, is marked for the focus
    (static/js/blocks_follow.js)."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    lecture = seed_path.lectures[0]
    learner_client.post(url(lecture), headers=htmx_in(f"next-up-{lecture.pk}-watch"))
    html = refresh(learner_client, "/", lecture)
    card = html.split('id="next-up" hx-swap-oob="true"')[1].split("</section>")[0]
    assert (
        f'id="next-up-code-{lecture.pk}" href="/resources/gpu-mode-3/#coding-gpu-mode-3"'
        " data-first-action" in card
    )
    assert html.count("data-first-action") == 1
    assert f'id="next-up-{seed_path.lectures[1].pk}-toggle"' in card
    assert f'id="next-up-{lecture.pk}-toggle"' not in html
    assert "autofocus" not in html


def test_from_start_here_the_card_goes_away(learner, learner_client, seed_path):
    """The start-here card goes away in the refresh; the next-up card's log-code link is next."""
    learner_client.post(url(seed_path.start), headers=htmx_in("start-here-watch"))
    html = refresh(learner_client, "/", seed_path.start)
    assert re.search(r'<div id="start-here" hx-swap-oob="true">\s*</div>', html)
    assert f'id="next-up-code-{seed_path.start.pk}"' in html


@pytest.mark.parametrize("scale", [1, 10])
def test_the_click_and_the_refresh_take_the_same_queries_at_any_size(
    learner, learner_client, grow_history, seed_path, django_assert_num_queries, scale
):
    """The click: session, user, the revision token, then the write's transaction (savepoint,
    insert-or-ignore, the conditional update, the row, the event, release). The
    refresh: session, user, the dashboard's reads (progress.dashboard.dashboard_page). The same
    whether the path has 5 or 50 more steps watched and coded."""
    grow_history(learner, scale)
    learner_client.get("/")  # builds this process's copy of the curriculum (structure.py)
    step = seed_path.steps[1]
    lecture = seed_path.lectures[0]
    with django_assert_num_queries(9):
        response = learner_client.post(url(lecture), headers=htmx_in(f"step-{step.pk}-watch"))
    assert f'id="step-{step.pk}-watch"' in response.content.decode()
    with django_assert_num_queries(8):
        html = refresh(learner_client, "/", lecture)
    assert f'id="step-{step.pk}" hx-swap-oob="true"' in html
    assert Watch.objects.get(user=learner, resource=lecture).is_finished


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
