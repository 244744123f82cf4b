"""Signed-in pages served from the shared cache (Redis) stay exactly what a fresh rendering shows."""

import re
import uuid

import pytest
import time_machine
from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config import cache_versions
from progress.models import Practice, Profile
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
CACHED_PAGES = ["/", "/path/", "/stats/", "/resources/?q=Lecture"]
PAGES_WITH_A_PRACTICE_FORM = ["/practice/", "/resources/gpu-mode-3/"]
IDEMPOTENCY_KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')


@pytest.fixture
def signed_in(shared_cache, learner, learner_client):
    Profile.objects.for_learner(learner)  # as sign-up does
    return learner_client


def page(client, url="/", **headers):
    response = client.get(url, headers={**EN, **headers})
    assert response.status_code == 200
    return response.content.decode()


def step_class(html, step):
    return re.search(rf'<li class="(step[^"]*)" id="step-{step.pk}"', html).group(1)


@pytest.mark.parametrize("url", CACHED_PAGES)
def test_a_second_visit_is_the_first_rendering_in_one_query(
    signed_in, seed_path, django_assert_num_queries, url
):
    """Same bytes (the forms' masked CSRF tokens too), and only the user is read from the database."""
    first = page(signed_in, url)
    with django_assert_num_queries(1):
        second = page(signed_in, url)
    assert second == first


@pytest.mark.parametrize("url", PAGES_WITH_A_PRACTICE_FORM)
def test_a_cached_practice_form_gets_a_new_idempotency_key_each_time(
    signed_in, seed_path, django_assert_num_queries, url
):
    """The rest of the page is the first rendering; the key that tells sessions apart is new."""
    first = page(signed_in, url)
    with django_assert_num_queries(1):
        second = page(signed_in, url)
    assert IDEMPOTENCY_KEY.sub("", second) == IDEMPOTENCY_KEY.sub("", first)
    assert IDEMPOTENCY_KEY.findall(first) != IDEMPOTENCY_KEY.findall(second)


def test_two_tabs_of_a_cached_page_save_two_sessions(signed_in, learner, seed_path):
    tabs = [page(signed_in, "/practice/") for _ in range(2)]
    for minutes, html in zip(["30", "45"], tabs, strict=True):
        signed_in.post(
            "/practice/",
            {
                "day": timezone.localdate().isoformat(),
                "minutes": minutes,
                "built": "A scan",
                "resource": seed_path.steps[1].resource.pk,
                "idempotency_key": IDEMPOTENCY_KEY.search(html).group(1),
            },
        )
    assert sorted(Practice.objects.filter(user=learner).values_list("minutes", flat=True)) == [
        30,
        45,
    ]


def test_marking_a_step_watched_shows_on_the_next_visit(signed_in, seed_path):
    step = seed_path.steps[1]
    assert step_class(page(signed_in), step) == "step step--not_started"
    signed_in.post(reverse("progress:mark_watched", args=[step.resource.slug]), {"next": "/"})
    page(signed_in)  # shows the confirmation, so is rendered afresh whatever the cache holds
    assert step_class(page(signed_in), step) == "step step--done"
    assert step_class(page(signed_in, "/path/"), step) == "step step--done"


def test_an_htmx_click_shows_on_the_next_visit(signed_in, seed_path):
    step = seed_path.steps[1]
    page(signed_in)
    signed_in.post(
        reverse("progress:mark_watched", args=[step.resource.slug]),
        {"page": "path", "place": f"step-{step.pk}", "next": "/"},
        headers={"HX-Request": "true"},
    )
    assert step_class(page(signed_in), step) == "step step--done"


def test_logged_practice_moves_the_balance_and_the_stats(signed_in, seed_path):
    sentence = "You have not watched anything this week yet and coded 3 h: nothing to balance."
    coded = "<dt>Hours coded</dt><dd>3.0</dd>"
    assert sentence not in page(signed_in) and coded not in page(signed_in, "/stats/")
    resource = seed_path.steps[0].resource
    signed_in.post(
        reverse("progress:practice_add", args=[resource.slug]),
        {
            "day": timezone.localdate().isoformat(),
            "minutes": "180",
            "built": "A reduction",
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert sentence in page(signed_in)
    assert coded in page(signed_in, "/stats/")


def test_a_message_is_never_swallowed_by_a_cached_page(signed_in, seed_path):
    """Un-marking what was never watched changes nothing, yet its confirmation must show."""
    page(signed_in)
    resource = seed_path.steps[1].resource
    response = signed_in.post(
        reverse("progress:mark_not_watched", args=[resource.slug]),
        {"next": "/"},
        follow=True,
        headers=EN,
    )
    assert f"“{resource.title}” marked not watched." in response.content.decode()


def test_a_curator_edit_reaches_every_learner_page(signed_in, seed_path):
    page(signed_in)
    page(signed_in, "/resources/?q=Lecture")
    resource = seed_path.steps[1].resource
    resource.title = "Lecture 3, renamed by a curator"
    resource.save()
    assert "Lecture 3, renamed by a curator" in page(signed_in)
    assert "Lecture 3, renamed by a curator" in page(signed_in, "/resources/?q=Lecture")


def test_reloading_the_curriculum_reaches_the_dashboard(shared_cache, client, learner, tmp_path):
    """load_curriculum --update with a changed file: the cached path follows."""
    call_command("load_curriculum", verbosity=0)
    client.force_login(learner)
    assert "How GPU Computing Works" in page(client)
    fixture = settings.BASE_DIR / "fixtures" / "curriculum.yaml"
    changed = tmp_path / "curriculum.yaml"
    changed.write_text(
        fixture.read_text().replace("How GPU Computing Works", "How GPUs Really Compute")
    )
    call_command("load_curriculum", str(changed), "--update", verbosity=0)
    html = page(client)
    assert "How GPUs Really Compute" in html and "How GPU Computing Works" not in html


def test_a_renamed_account_shows_its_new_name(signed_in, learner, seed_path):
    assert ">ada<" in page(signed_in)
    learner.username = "ada.lovelace"
    learner.save()
    html = page(signed_in)
    assert ">ada.lovelace<" in html and ">ada<" not in html


def test_each_language_has_its_own_page(signed_in, seed_path):
    assert "Your path" in page(signed_in)
    assert "Votre parcours" in page(signed_in, **{"accept-language": "fr"})


def test_a_new_week_is_a_new_page(signed_in, learner, seed_path):
    with time_machine.travel(timezone.now(), tick=False):
        assert "Week 1 of 4" in page(signed_in)
    with time_machine.travel(timezone.now() + timezone.timedelta(days=7), tick=False):
        assert "Week 2 of 4" in page(signed_in)


def test_a_browser_with_a_new_csrf_cookie_gets_forms_that_work(signed_in, seed_path):
    """The forms' tokens are made from the browser's CSRF secret: a new secret, a new page."""
    page(signed_in)
    other = Client(enforce_csrf_checks=True)
    other.cookies[settings.SESSION_COOKIE_NAME] = signed_in.cookies[settings.SESSION_COOKIE_NAME]
    html = page(other)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    step = seed_path.steps[1]
    response = other.post(
        reverse("progress:mark_watched", args=[step.resource.slug]),
        {"csrfmiddlewaretoken": token, "next": "/"},
    )
    assert response.status_code == 302


def test_an_htmx_search_gets_the_results_block_not_a_cached_page(signed_in, seed_path):
    full = page(signed_in, "/resources/?q=Lecture")
    block = page(signed_in, "/resources/?q=Lecture", **{"HX-Request": "true"})
    assert "<html" in full and "<html" not in block


def test_learners_never_get_each_others_pages(shared_cache, learner, other_learner, seed_path):
    mine, theirs = Client(), Client()
    mine.force_login(learner)
    theirs.force_login(other_learner)
    step = seed_path.steps[1]
    mine.post(reverse("progress:mark_watched", args=[step.resource.slug]), {"next": "/"})
    page(mine)
    html = page(theirs)
    assert ">grace<" in html and step_class(html, step) == "step step--not_started"


def test_a_change_gets_a_new_version_at_once_and_again_at_commit(
    shared_cache, django_capture_on_commit_callbacks
):
    """A page rendered before the commit, from the rows as they were, is never served after it."""
    learner = UserFactory()
    subject = cache_versions.learner(learner.pk)
    read = lambda: shared_cache.get(f"version:{subject}")  # noqa: E731
    before = read()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        learner.save()
        inside = read()
        assert inside != before
    assert read() not in {before, inside}


def test_without_a_shared_cache_every_visit_is_rendered(learner_client, seed_path):
    """No REDIS_URL: nothing kept, and the forms get a fresh masked token each time."""
    assert page(learner_client) != page(learner_client)
