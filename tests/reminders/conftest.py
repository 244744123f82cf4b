import pytest

from tests.progress.conftest import seed_path  # noqa: F401  (the seed-shaped path, shared)


@pytest.fixture
def subscribed(learner):
    """The learner asked for the digest on Mondays."""
    from reminders.models import DigestSubscription

    return DigestSubscription.objects.create(user=learner, weekday=0)
