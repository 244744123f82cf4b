import pytest

from progress.models import Watch, WatchEvent
from tests.factories import FollowedResourceFactory, ResourceFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


def test_it_marks_a_channel_followed_then_not_followed(learner, learner_client):
    """Followed and not followed, zero minutes each time."""
    channel = FollowedResourceFactory(slug="chips-and-cheese")
    response = learner_client.post("/resources/chips-and-cheese/followed/", headers=HTMX)
    html = response.content.decode()
    assert "Followed" in html
    assert "Mark not followed" in html
    assert Watch.objects.get(user=learner, resource=channel).is_finished
    learner_client.post("/resources/chips-and-cheese/not-followed/")
    assert not Watch.objects.get(user=learner, resource=channel).is_finished
    assert list(WatchEvent.objects.values_list("minutes", flat=True)) == [0, 0]


def test_a_lecture_cannot_be_followed(learner_client):
    """Watched kinds refuse "followed" with a readable message."""
    lecture = ResourceFactory()
    response = learner_client.post(f"/resources/{lecture.slug}/followed/", headers=EN, follow=True)
    assert "This resource is watched, not followed." in response.content.decode()
    assert not Watch.objects.exists()
