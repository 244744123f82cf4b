"""Migration 0007 records the keys of the curriculum rows already there, so that what curators
move or delete after it stays so at the next load."""

import io

import pytest
from django.core.management import call_command

from curriculum.models import Chapter, LoadedEntry, Pairing
from tests.migrations import latest, migrate

BEFORE = [("curriculum", "0006_resource_triggers_again_on_sqlite")]


@pytest.mark.django_db(transaction=True)
def test_rows_there_before_the_migration_are_recorded_and_a_later_move_is_kept():
    """The seed loaded before the table existed; after the migration, #9 moved stays moved."""
    call_command("load_curriculum", stdout=io.StringIO())
    try:
        migrate(BEFORE)
    finally:
        migrate(latest())
    keys = set(LoadedEntry.objects.values_list("key", flat=True))
    Pairing.objects.filter(resource__slug="gpu-mode-9").update(
        chapter=Chapter.objects.get(part__number=5, number=2)
    )

    output = call_command("load_curriculum", stdout=(out := io.StringIO())) or out.getvalue()

    assert {"pairing gpu-mode-9 2.5", "step parcours-video-suggere 2.2", "part 9"} <= keys
    assert "0 created" in output
    assert Pairing.objects.filter(resource__slug="gpu-mode-9").count() == 1
