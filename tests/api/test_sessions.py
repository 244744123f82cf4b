"""Coding sessions through the API: create once, list by days, update, delete; the forms' rules."""

import datetime
import uuid

import pytest
from django.utils import timezone

from progress.models import CodingSession
from tests.factories import ChapterFactory, CodingSessionFactory, PartFactory, ResourceFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def kernel(db):
    return ResourceFactory(slug="gpu-mode-9", title="Reductions")


def test_logging_a_session_saves_it_for_the_learner(api, learner, kernel):
    response = api.post("/sessions", {"minutes": 90, "resource": "gpu-mode-9", "built": "A kernel"})
    assert response.status_code == 201
    assert response.json()["minutes"] == 90
    assert response.json()["day"] == timezone.localdate().isoformat()
    session = CodingSession.objects.get()
    assert (session.user, session.resource, session.built) == (learner, kernel, "A kernel")


def test_a_session_can_practise_a_chapter(api):
    ChapterFactory(part=PartFactory(number=2), number=5)
    response = api.post("/sessions", {"minutes": 30, "chapter": "2.5", "built": "Notes"})
    assert response.status_code == 201
    assert response.json()["chapter"] == "2.5"


def test_sending_the_same_idempotency_key_twice_returns_the_same_session(api, kernel):
    """A retry after a lost answer gets the first session back (200), not a copy."""
    body = {
        "minutes": 90,
        "resource": "gpu-mode-9",
        "built": "A kernel",
        "idempotency_key": str(uuid.uuid4()),
    }
    first = api.post("/sessions", body)
    again = api.post("/sessions", body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert CodingSession.objects.count() == 1


TOMORROW = (datetime.date.today() + datetime.timedelta(days=2)).isoformat()

BAD_INPUT = [
    ({"minutes": 0}, "minutes"),
    ({"minutes": 1441}, "minutes"),
    ({"minutes": -5}, "minutes"),
    ({"minutes": "ninety"}, "minutes"),
    ({"minutes": None}, "minutes"),
    ({"day": TOMORROW}, "day"),
    ({"day": "1999-12-31"}, "day"),
    ({"day": "yesterday"}, "day"),
    ({"resource": None}, "resource"),
    ({"resource": "no-such-video"}, "resource"),
    ({"resource": None, "chapter": "9.9"}, "chapter"),
    ({"code_url": "javascript:alert(1)"}, "code_url"),
    ({"code_url": "ftp://example.com/x"}, "code_url"),
    ({"built": ""}, "built"),
    ({"built": "x" * 301}, "built"),
    ({"idempotency_key": "not-a-uuid"}, "idempotency_key"),
]


@pytest.mark.parametrize(("change", "field"), BAD_INPUT)
def test_bad_input_is_refused_naming_the_field_and_nothing_is_written(api, kernel, change, field):
    body = {"minutes": 90, "resource": "gpu-mode-9", "built": "A kernel", **change}
    response = api.post("/sessions", body)
    assert response.status_code == 422
    assert response.json()["error"] == "invalid"
    assert field in response.json()["fields"]
    assert response.json()["message"].startswith(f"{field}: ")
    assert not CodingSession.objects.exists()


@pytest.mark.parametrize("body", ["{not json", b"\xf7\x16k"])
def test_a_body_that_is_not_json_gets_a_400_in_the_requests_language(api, client, body):
    response = client.post(
        "/api/v1/sessions", body, content_type="application/json", headers=api.headers
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "bad_request",
        "message": "Le corps n’est pas du JSON valide.",
        "fields": {},
    }
    assert not CodingSession.objects.exists()


def test_sessions_are_listed_newest_first_within_the_days_given(api, learner, kernel):
    today = timezone.localdate()
    for days_ago in (0, 3, 10):
        CodingSessionFactory(
            user=learner, resource=kernel, day=today - datetime.timedelta(days=days_ago)
        )
    start = (today - datetime.timedelta(days=5)).isoformat()
    response = api.get("/sessions", **{"from": start, "to": today.isoformat()})
    assert response.status_code == 200
    assert [s["day"] for s in response.json()] == [
        today.isoformat(),
        (today - datetime.timedelta(days=3)).isoformat(),
    ]


def test_a_range_that_ends_before_it_starts_is_refused(api):
    response = api.get("/sessions", **{"from": "2026-02-01", "to": "2026-01-01"})
    assert response.status_code == 422
    assert "from" in response.json()["fields"]


def test_another_learners_sessions_are_never_listed(api, other_learner, kernel):
    CodingSessionFactory(user=other_learner, resource=kernel)
    assert api.get("/sessions").json() == []


def test_updating_a_session_changes_only_the_fields_sent(api, learner, kernel):
    session = CodingSessionFactory(user=learner, resource=kernel, minutes=30, built="Before")
    response = api.patch(f"/sessions/{session.pk}", {"minutes": 45})
    assert response.status_code == 200
    session.refresh_from_db()
    assert (session.minutes, session.built) == (45, "Before")


def test_an_update_follows_the_same_rules(api, learner, kernel):
    session = CodingSessionFactory(user=learner, resource=kernel, minutes=30)
    response = api.patch(f"/sessions/{session.pk}", {"minutes": 5000})
    assert response.status_code == 422
    assert "minutes" in response.json()["fields"]
    session.refresh_from_db()
    assert session.minutes == 30


def test_deleting_a_session_removes_it(api, learner, kernel):
    session = CodingSessionFactory(user=learner, resource=kernel)
    response = api.delete(f"/sessions/{session.pk}")
    assert response.status_code == 204
    assert not CodingSession.objects.exists()


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_another_learners_session_is_a_404_and_stays_as_it_was(api, other_learner, kernel, method):
    session = CodingSessionFactory(user=other_learner, resource=kernel, minutes=30)
    path = f"/sessions/{session.pk}"
    response = api.patch(path, {"minutes": 60}) if method == "patch" else getattr(api, method)(path)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    session.refresh_from_db()
    assert session.minutes == 30


def test_an_unknown_session_is_a_404(api):
    response = api.delete("/sessions/999999")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


@pytest.mark.parametrize("count", [2, 20])
def test_the_list_takes_the_same_queries_whatever_the_number_of_sessions(
    api, learner, kernel, count, django_assert_num_queries
):
    """The token with its learner, the last-used write on the first call, then the sessions."""
    api.get("/me")
    CodingSessionFactory.create_batch(
        count, user=learner, resource=kernel, chapter=ChapterFactory()
    )
    with django_assert_num_queries(2):
        response = api.get("/sessions")
    assert len(response.json()) == count


@pytest.mark.parametrize("day", ["0", "1700000000", "1999-12-31", "20260101", "yesterday"])
@pytest.mark.parametrize("name", ["from", "to"])
def test_a_range_day_must_be_written_yyyy_mm_dd_from_2000(api, name, day):
    """Pydantic alone read to=0 as 1970-01-01, seconds since the epoch."""
    response = api.get("/sessions", **{name: day})
    assert response.status_code == 422
    assert response.json()["message"].startswith(f"{name}: ")


@pytest.mark.parametrize("day", [0, 1700000000, "1700000000"])
def test_a_session_day_is_not_read_from_a_number(api, kernel, day):
    body = {"minutes": 90, "resource": "gpu-mode-9", "built": "A kernel", "day": day}
    response = api.post("/sessions", body)
    assert response.status_code == 422
    assert response.json()["message"] == "day: Saisissez un jour au format AAAA-MM-JJ."
    assert not CodingSession.objects.exists()


def test_a_limit_out_of_range_is_refused_in_the_requests_language(api):
    response = api.get("/sessions", limit=0)
    assert response.status_code == 422
    assert response.json()["fields"]["limit"] == ["Saisissez un nombre d’au moins 1."]
