import pytest
from django.urls import reverse

from progress.models import Profile
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_signing_up_creates_the_profile_starting_today(client):
    """The account comes with its profile: GPU unknown, week 1 starts on sign-up day."""
    data = {
        "username": "lin",
        "email": "lin@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    response = client.post(reverse("signup"), data)
    assert response.status_code == 302
    profile = Profile.objects.get(user__username="lin")
    assert profile.architecture is None
    assert profile.started_on is not None


def test_for_learner_returns_the_same_profile_every_time(learner):
    """get_or_create: asking twice keeps one profile."""
    first = Profile.objects.for_learner(learner)
    assert Profile.objects.for_learner(learner) == first
    assert Profile.objects.filter(user=learner).count() == 1
