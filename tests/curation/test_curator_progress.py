import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse

from progress.models import CodingSession, Watch, WatchEvent
from tests.factories import (
    ArchitectureStepFactory,
    CodingSessionFactory,
    PathFactory,
    ResourceFactory,
    StageFactory,
    StepFactory,
    UserFactory,
    WatchEventFactory,
    WatchFactory,
)

URL = reverse("curation:curator_progress")
PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=PARIS)
TODAY = NOW.date()

pytestmark = pytest.mark.django_db


@pytest.fixture
def curator_client(client, curator):
    client.force_login(curator)
    return client


@pytest.fixture
def path():
    """Two stages: lecture one, lecture two; then the architecture step and lecture three."""
    path = PathFactory()
    first, then = StageFactory(path=path, order=1), StageFactory(path=path, order=2)
    one = StepFactory(stage=first, order=1, resource__title="Lecture one").resource
    two = StepFactory(stage=first, order=2, resource__title="Lecture two").resource
    ArchitectureStepFactory(stage=then, order=1)
    three = StepFactory(stage=then, order=2, resource__title="Lecture three").resource
    hopper = ResourceFactory(kind="talk", presents_architecture=True)
    blackwell = ResourceFactory(kind="talk", presents_architecture=True)
    return {"one": one, "two": two, "three": three, "hopper": hopper, "blackwell": blackwell}


@pytest.fixture
def cohorts(path, curator):
    """Three October learners and one November learner, with hand-countable progress.

    Lecture one: started by ada, bob, dan (cy's row has no minutes); finished by ada, dan.
    Lecture two: started by ada, dan; finished by ada; coded on by ada and bob.
    Architecture sessions: started by ada (both talks) and bob; finished by ada; coded by ada.
    Lecture three: nothing.
    Balances: ada 120/60 = 2, bob 50/100 = 0.5, cy 0/10 = 0, dan nothing watched.
    Active: ada 3 days ago, bob 20 days ago, cy 40 days ago, dan never.
    """
    ada = UserFactory(username="ada", date_joined=datetime(2026, 10, 2, 12, 0, tzinfo=PARIS))
    bob = UserFactory(username="bob", date_joined=datetime(2026, 10, 15, 12, 0, tzinfo=PARIS))
    cy = UserFactory(username="cy", date_joined=datetime(2026, 10, 31, 23, 30, tzinfo=PARIS))
    dan = UserFactory(username="dan", date_joined=datetime(2026, 11, 1, 0, 30, tzinfo=PARIS))
    WatchFactory(user=ada, resource=path["one"], finished_at=NOW)
    WatchFactory(user=bob, resource=path["one"], logged_minutes=30)
    WatchFactory(user=cy, resource=path["one"], logged_minutes=0)
    WatchFactory(user=dan, resource=path["one"], logged_minutes=45, finished_at=NOW)
    WatchFactory(user=curator, resource=path["one"], finished_at=NOW)
    WatchFactory(user=ada, resource=path["two"], finished_at=NOW)
    WatchFactory(user=dan, resource=path["two"], logged_minutes=10)
    WatchFactory(user=ada, resource=path["hopper"], finished_at=NOW)
    WatchFactory(user=ada, resource=path["blackwell"], finished_at=NOW)
    WatchFactory(user=bob, resource=path["blackwell"], logged_minutes=20)
    CodingSessionFactory(user=ada, resource=path["two"], minutes=30, day=TODAY - timedelta(days=3))
    CodingSessionFactory(user=ada, resource=path["two"], minutes=30, day=TODAY - timedelta(days=2))
    CodingSessionFactory(
        user=ada, resource=path["hopper"], minutes=60, day=TODAY - timedelta(days=3)
    )
    CodingSessionFactory(user=bob, resource=path["two"], minutes=50, day=TODAY - timedelta(days=20))
    CodingSessionFactory(user=curator, resource=path["three"], minutes=50, day=TODAY)
    WatchEventFactory(user=ada, resource=path["one"], minutes=60, at=NOW - timedelta(days=3))
    WatchEventFactory(user=bob, resource=path["one"], minutes=100, at=NOW - timedelta(days=20))
    WatchEventFactory(user=cy, resource=path["one"], minutes=10, at=NOW - timedelta(days=40))
    WatchEventFactory(user=curator, resource=path["one"], minutes=10, at=NOW)


def rows(response):
    """(started, finished, coded, drop-off) per step, in path order."""
    return [
        (row.started, row.finished, row.coded, row.drop_off) for row in response.context["steps"]
    ]


def get_english(client, **params):
    return client.get(URL, params, headers={"accept-language": "en"})


def test_anonymous_visitors_are_sent_to_sign_in(client):
    """Nobody sees counts without signing in."""
    response = client.get(URL)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_learners_are_refused(learner_client):
    """Counts over every learner are for curators only."""
    assert learner_client.get(URL).status_code == 403


def test_the_admin_index_links_to_the_page(curator_client):
    """Curators find it from the admin's home."""
    html = curator_client.get(reverse("admin:index")).content.decode()
    assert f'href="{URL}"' in html


@time_machine.travel(NOW, tick=False)
def test_each_step_counts_learners_who_started_finished_and_coded(curator_client, cohorts):
    """Counts match the hand count; drop-off counts who started the previous step and not this one
    (dan left lecture two for the architecture step, ada and bob left it for lecture three)."""
    response = get_english(curator_client)
    assert response.status_code == 200
    assert rows(response) == [(3, 2, 0, None), (2, 1, 2, 1), (2, 1, 1, 1), (0, 0, 0, 2)]
    assert response.context["learner_count"] == 4
    html = response.content.decode()
    assert "Lecture one" in html and "GTC: the architecture session of your GPU" in html
    assert '<meter class="progress-step__bar" min="0" max="4" value="3"' in html


@time_machine.travel(NOW, tick=False)
def test_totals_count_active_learners_and_the_median_balance(curator_client, cohorts):
    """Active in 7 days: ada; in 30: ada and bob. Median of 2, 0.5 and 0 is 0.5."""
    response = get_english(curator_client)
    assert response.context["active"] == {
        "learners": 4,
        "last_7_days": 1,
        "last_30_days": 2,
    }
    assert response.context["median_ratio"] == 0.5
    html = response.content.decode()
    assert "<dt>Active in the last 7 days</dt><dd>1</dd>" in html
    assert "0.5 h of code per hour of video (goal 3)" in html


@time_machine.travel(NOW, tick=False)
def test_the_cohort_filter_counts_only_learners_who_signed_up_that_month(curator_client, cohorts):
    """October in Paris holds ada, bob and cy (31 October 23:30); dan joined on 1 November.

    Bob skipped lecture two but started the architecture step: no drop-off there, never -1.
    """
    october = get_english(curator_client, cohort="2026-10")
    assert october.context["learner_count"] == 3
    assert rows(october) == [(2, 1, 0, None), (1, 1, 2, 1), (2, 1, 1, 0), (0, 0, 0, 2)]
    november = get_english(curator_client, cohort="2026-11")
    assert rows(november) == [(1, 1, 0, None), (1, 0, 0, 0), (0, 0, 0, 1), (0, 0, 0, 0)]
    assert november.context["median_ratio"] is None
    assert november.context["active"] == {
        "learners": 1,
        "last_7_days": 0,
        "last_30_days": 0,
    }
    html = november.content.decode()
    assert '<option value="2026-11" selected>November 2026</option>' in html
    assert '<option value="2026-10">October 2026</option>' in html
    assert "nothing watched yet" in html


@time_machine.travel(NOW, tick=False)
def test_an_unknown_cohort_says_so_and_counts_everyone(curator_client, cohorts):
    """A month without sign-ups, or nonsense, is refused and the page shows every learner."""
    for value in ("2026-09", "nonsense"):
        response = get_english(curator_client, cohort=value)
        assert response.status_code == 200
        assert response.context["learner_count"] == 4
        assert "Select a valid choice" in response.content.decode()


def test_no_path_loaded_says_so(curator_client):
    """Before the curriculum is loaded the page still answers."""
    html = get_english(curator_client).content.decode()
    assert "The suggested path is not loaded yet." in html


def test_no_private_note_and_no_learner_name_is_shown(curator_client, cohorts):
    """Counts only."""
    from tests.factories import NoteFactory

    NoteFactory(user=get_user_model().objects.get(username="ada"), text="SECRET-NOTE")
    html = get_english(curator_client).content.decode()
    assert "SECRET-NOTE" not in html
    assert "bob" not in html and "dan" not in html
    assert "style=" not in html


def add_learners(count, path):
    """count learners in bulk, each with a watch, an event and sessions on every lecture."""
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"bulk{uuid.uuid4().hex}", password="!", date_joined=NOW)
        for _ in range(count)
    )
    lectures = [path["one"], path["two"], path["hopper"]]
    Watch.objects.bulk_create(
        Watch(user=user, resource=lecture, logged_minutes=30)
        for user in users
        for lecture in lectures
    )
    WatchEvent.objects.bulk_create(
        WatchEvent(user=user, resource=path["one"], kind="sitting", minutes=30, at=NOW)
        for user in users
    )
    CodingSession.objects.bulk_create(
        CodingSession(
            user=user,
            resource=lecture,
            day=TODAY,
            minutes=45,
            built="kernel",
            idempotency_key=uuid.uuid4(),
        )
        for user in users
        for lecture in lectures
    )


@time_machine.travel(NOW, tick=False)
def test_the_query_count_is_the_same_for_10_and_1000_learners(
    curator_client, path, django_assert_num_queries
):
    """Counting is done in the database, a fixed number of queries."""
    add_learners(10, path)
    with django_assert_num_queries(14) as small:
        get_english(curator_client, cohort="2026-11")
    add_learners(990, path)
    with django_assert_num_queries(len(small.captured_queries)):
        response = get_english(curator_client, cohort="2026-11")
    assert response.context["learner_count"] == 1000
    assert rows(response)[0] == (1000, 0, 1000, None)


@time_machine.travel(NOW, tick=False)
def test_the_group_filter_counts_only_the_groups_members(curator_client, cohorts):
    """Ada and dan study together: the counts are theirs only, and combine with the cohort."""
    from groups import actions as group_actions

    User = get_user_model()
    ada, dan = User.objects.get(username="ada"), User.objects.get(username="dan")
    club = group_actions.create_group(owner=ada, name="Club", display_name="Ada")
    link, _token = group_actions.create_link(group=club, days=7, max_uses=1)
    group_actions.join(user=dan, invitation=link, display_name="Dan", shares="progress")
    response = get_english(curator_client, group=club.slug)
    assert response.context["learner_count"] == 2
    assert rows(response)[0] == (2, 2, 0, None)
    html = response.content.decode()
    assert f'<option value="{club.slug}" selected>Club</option>' in html
    assert (
        get_english(curator_client, group=club.slug, cohort="2026-10").context["learner_count"] == 1
    )
    assert get_english(curator_client, group="no-such-group").context["learner_count"] == 4
