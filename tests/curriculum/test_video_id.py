"""A resource whose watch address is a YouTube video gets the video's id, whatever form the
address takes; a YouTube video address without a valid id is refused in admin."""

import pytest
from django.urls import reverse

from curriculum.models import Resource
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db

ID = "SGhfUhlowB4"


@pytest.mark.parametrize(
    "address",
    [
        f"https://www.youtube.com/watch?v={ID}",
        f"https://www.youtube.com/watch?v={ID}&t=120s",
        f"https://m.youtube.com/watch?feature=share&v={ID}",
        f"https://youtu.be/{ID}",
        f"https://youtu.be/{ID}?t=42",
        f"https://www.youtube.com/embed/{ID}?start=3",
        f"https://www.youtube-nocookie.com/embed/{ID}",
        f"https://www.youtube.com/shorts/{ID}",
    ],
)
def test_every_youtube_address_form_gives_the_video_id(address):
    """The id is read from the address when the resource is saved."""
    resource = ResourceFactory(watch_url=address)
    resource.refresh_from_db()
    assert resource.video_id == ID
    assert resource.has_video


@pytest.mark.parametrize(
    "address",
    [
        "https://www.youtube.com/@NVIDIADeveloper",
        "https://www.youtube.com/playlist?list=PLxyz",
        "https://www.nvidia.com/en-us/on-demand/session/gtc24-s62401/",
        "",
    ],
)
def test_other_addresses_have_no_video_id(address):
    """A channel, a playlist, another site or no address: no player, no error."""
    resource = ResourceFactory(watch_url=address)
    resource.full_clean()
    assert (resource.video_id, resource.has_video) == ("", False)


def test_changing_the_address_changes_the_id():
    """Saving only the watch address keeps the id in step with it."""
    resource = ResourceFactory(watch_url=f"https://youtu.be/{ID}")
    resource.watch_url = "https://youtu.be/LuhJEEJQgUM"
    resource.save(update_fields=["watch_url"])
    resource.refresh_from_db()
    assert resource.video_id == "LuhJEEJQgUM"


def change_form_data(client, resource, **changes):
    form = (
        client.get(reverse("admin:curriculum_resource_change", args=[resource.pk]))
        .context["adminform"]
        .form
    )
    data = {key: value for key, value in form.initial.items() if value is not None}
    data.update(
        architectures=[],
        **{"pairings-TOTAL_FORMS": "0", "pairings-INITIAL_FORMS": "0"},
        **changes,
    )
    return data


def test_a_curator_pastes_a_youtube_address_in_admin(client, curator):
    """The address is kept as pasted, the id read from it."""
    resource = ResourceFactory(slug="lecture", watch_url="")
    client.force_login(curator)
    url = reverse("admin:curriculum_resource_change", args=[resource.pk])
    response = client.post(
        url, change_form_data(client, resource, watch_url=f"https://youtu.be/{ID}?t=90")
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    resource.refresh_from_db()
    assert (resource.watch_url, resource.video_id) == (f"https://youtu.be/{ID}?t=90", ID)


@pytest.mark.parametrize(
    "address",
    [
        "https://www.youtube.com/watch?v=tooshort",
        "https://www.youtube.com/watch?t=10",
        "https://youtu.be/",
        "https://www.youtube.com/embed/not-an-id-at-all",
    ],
)
def test_a_bad_youtube_address_is_refused_in_admin(client, curator, address):
    """A YouTube video address without an 11-character id: a clear error, nothing saved."""
    resource = ResourceFactory(slug="lecture", watch_url=f"https://youtu.be/{ID}")
    client.force_login(curator)
    url = reverse("admin:curriculum_resource_change", args=[resource.pk])
    response = client.post(
        url,
        change_form_data(client, resource, watch_url=address),
        headers={"accept-language": "en"},
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["watch_url"]
    assert errors == [
        "This YouTube address does not name a video: paste the video's own address "
        "(watch?v=…, youtu.be/… or embed/…) with its 11-character id."
    ]
    resource.refresh_from_db()
    assert (resource.watch_url, resource.video_id) == (f"https://youtu.be/{ID}", ID)


def test_the_seed_has_nine_videos_on_youtube(seed):
    """load_curriculum fills the ids: GPU MODE 1, 3, 4, 8, 9, 12, 14, 15 and freeCodeCamp's course."""
    videos = Resource.objects.exclude(video_id="").order_by("slug")
    assert [resource.slug for resource in videos] == [
        "freecodecamp-cuda-course",
        "gpu-mode-1",
        "gpu-mode-12",
        "gpu-mode-14",
        "gpu-mode-15",
        "gpu-mode-3",
        "gpu-mode-4",
        "gpu-mode-8",
        "gpu-mode-9",
    ]
    assert Resource.objects.get(slug="gpu-mode-8").video_id == ID
