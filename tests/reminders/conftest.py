import pytest

from tests.progress.conftest import seed_path, seed_path_rows  # noqa: F401  (shared)


@pytest.fixture
def subscribed(learner):
    """The learner, signed up in 2025, asked for the digest on Mondays."""
    from datetime import UTC, datetime

    from reminders.models import DigestSubscription

    learner.date_joined = datetime(2025, 6, 1, tzinfo=UTC)
    learner.save(update_fields=["date_joined"])

    return DigestSubscription.objects.create(user=learner, weekday=0)
