import pytest

from progress.models import Profile

pytestmark = pytest.mark.django_db


def test_for_learner_returns_the_same_profile_every_time(learner):
    """get_or_create: asking twice keeps one profile."""
    first = Profile.objects.for_learner(learner)
    assert Profile.objects.for_learner(learner) == first
    assert Profile.objects.filter(user=learner).count() == 1
