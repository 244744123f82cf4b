"""The learner's summary and export through the API."""

import pytest
from django.utils import timezone

from accounts.export import export_document
from progress import actions
from tests.factories import CodingSessionFactory

pytestmark = pytest.mark.django_db


def test_the_summary_says_what_code_is_owed_and_what_is_next(api, learner, seed_path):
    actions.mark_watched(user=learner, resource=seed_path.lectures[0])  # 60 min
    CodingSessionFactory(user=learner, resource=seed_path.lectures[0], minutes=100)
    body = api.get("/summary").json()
    assert body["this_week"]["watched_minutes"] == 60
    assert body["this_week"]["coded_minutes"] == 100
    assert body["this_week"]["owed_minutes"] == 80
    assert body["overall"]["is_met"] is False
    assert body["next_up"]["resource"]["slug"] == "how-gpu-computing-works"
    assert body["path"]["steps_done"] == 1
    assert body["path"]["steps_total"] == 7


def test_the_summary_of_a_learner_without_a_path(api):
    body = api.get("/summary").json()
    assert body["path"] is None
    assert body["next_up"] is None
    assert body["overall"]["owed_minutes"] == 0


def test_the_export_is_the_settings_export_document(api, learner, learner_client):
    CodingSessionFactory(user=learner, built="A GEMM")
    body = api.get("/export").json()
    on_settings = learner_client.get("/settings/export.json").json()
    for document in (body, on_settings):
        document.pop("exported_at")
    assert body == on_settings
    assert body["coding_sessions"][0]["built"] == "A GEMM"
    assert export_document(learner)["format"] == body["format"]


def test_the_export_holds_only_the_learners_own_data(api, other_learner):
    CodingSessionFactory(user=other_learner, day=timezone.localdate())
    assert api.get("/export").json()["coding_sessions"] == []
