"""Migration 0005 reads the video id of every resource already saved with a YouTube address."""

import pytest

from tests.migrations import latest, migrate

BEFORE = [("curriculum", "0004_curriculum_text_in_french_and_english")]
AFTER = [("curriculum", "0005_resource_video_id")]


@pytest.mark.django_db(transaction=True)
def test_resources_saved_before_the_migration_get_their_video_id():
    """A youtu.be address, a watch?v= address with t=, and a talk elsewhere (no id)."""
    try:
        old_apps = migrate(BEFORE)
        Resource = old_apps.get_model("curriculum", "Resource")
        for slug, address in [
            ("short", "https://youtu.be/LuhJEEJQgUM"),
            ("long", "https://www.youtube.com/watch?v=SGhfUhlowB4&t=61"),
            ("elsewhere", "https://www.nvidia.com/en-us/on-demand/session/gtc24-s62401/"),
        ]:
            Resource.objects.create(slug=slug, kind="lecture", title=slug, watch_url=address)
        new_apps = migrate(AFTER)
        ids = dict(
            new_apps.get_model("curriculum", "Resource").objects.values_list("slug", "video_id")
        )
    finally:
        migrate(latest())
    assert ids == {"short": "LuhJEEJQgUM", "long": "SGhfUhlowB4", "elsewhere": ""}
