"""The API counts days in the learner's time zone, as the pages do."""

from datetime import UTC, datetime

import pytest
import time_machine

from progress.models import CodingSession
from tests.factories import ProfileFactory, ResourceFactory

pytestmark = pytest.mark.django_db

# 00:30 on Wednesday 14 January in Tokyo; still Tuesday 16:30 in Paris, the site's zone.
TOKYO_JUST_AFTER_MIDNIGHT = datetime(2026, 1, 13, 15, 30, tzinfo=UTC)


@pytest.fixture
def kernel(db):
    return ResourceFactory(slug="gpu-mode-9", title="Reductions")


@time_machine.travel(TOKYO_JUST_AFTER_MIDNIGHT, tick=False)
def test_a_tokyo_learner_logs_on_their_own_today(api, learner, kernel):
    """No day given: Tokyo's Wednesday; Wednesday given: not refused as the future."""
    ProfileFactory(user=learner, time_zone="Asia/Tokyo")
    response = api.post("/sessions", {"minutes": 30, "resource": "gpu-mode-9", "built": "A scan"})
    assert response.status_code == 201
    assert response.json()["day"] == "2026-01-14"
    response = api.post(
        "/sessions", {"minutes": 30, "resource": "gpu-mode-9", "built": "More", "day": "2026-01-14"}
    )
    assert response.status_code == 201
    assert CodingSession.objects.filter(user=learner, day="2026-01-14").count() == 2


@time_machine.travel(TOKYO_JUST_AFTER_MIDNIGHT, tick=False)
def test_a_learner_without_a_zone_counts_in_the_sites(api, learner, kernel):
    response = api.post(
        "/sessions",
        {"minutes": 30, "resource": "gpu-mode-9", "built": "A scan", "day": "2026-01-14"},
    )
    assert response.status_code == 422
    assert not CodingSession.objects.exists()
