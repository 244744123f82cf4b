"""The backup of learners' progress in docs/operations.md (dumpdata) restores exactly what it saved (loaddata)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from progress.models import CodingSession, Note, Profile, Watch, WatchEvent
from tests.factories import (
    ArchitectureFactory,
    ChapterFactory,
    CodingSessionFactory,
    NoteFactory,
    ProfileFactory,
    ResourceFactory,
    WatchEventFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db
LEARNER_MODELS = [get_user_model(), Profile, Watch, WatchEvent, CodingSession, Note]


def snapshot():
    """Every column of every learner row, in primary-key order."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in LEARNER_MODELS}


@pytest.fixture
def months_of_study(learner, other_learner):
    """Two learners' profiles, watching, sittings, coding log and notes, accents and markup included."""
    resource, course = ResourceFactory(), ResourceFactory(kind="course", duration_minutes=720)
    for user in (learner, other_learner):
        ProfileFactory(user=user, architecture=ArchitectureFactory(), language="fr")
        WatchFactory(user=user, resource=resource)
        WatchFactory(user=user, resource=course, logged_minutes=95)
        WatchEventFactory(user=user, resource=course, minutes=95)
        CodingSessionFactory(user=user, resource=course, built="Un noyau « tuilé » <b>rapide</b>")
        CodingSessionFactory(
            user=user, resource=None, chapter=ChapterFactory(), code_url="https://e.x/c"
        )
        NoteFactory(user=user, resource=course, text="Arrêté à 42:00\nreprendre ici")


def test_dumpdata_then_loaddata_restores_progress_identically(months_of_study, tmp_path):
    """Dump the documented way, wipe the learners, load the file: every row comes back unchanged.

    YAML, because Django's JSON serializer cuts times to the millisecond: a JSON round trip would
    move every timestamp and could reorder events logged within the same millisecond.
    """
    before = snapshot()
    backup = tmp_path / "progress.yaml"
    call_command(
        "dumpdata",
        "auth.user",
        "progress",
        "--natural-foreign",
        "--format",
        "yaml",
        output=str(backup),
    )

    get_user_model().objects.all().delete()
    assert Watch.objects.count() == CodingSession.objects.count() == Note.objects.count() == 0

    call_command("loaddata", str(backup), verbosity=0)
    assert snapshot() == before
    assert Watch.objects.count() == 4
