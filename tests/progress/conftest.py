import copy
import datetime
from types import SimpleNamespace

import pytest

from tests.conftest import curriculum_tables, insert_seed, stored_values
from tests.factories import (
    ArchitectureFactory,
    ArchitectureStepFactory,
    ChapterFactory,
    PairingFactory,
    PartFactory,
    PathFactory,
    ResourceFactory,
    StageFactory,
    StepFactory,
)


@pytest.fixture
def seed_path(db, seed_path_rows):
    """A path shaped like the seed's: three dated stages, then an open one ending on the GPU step.

    Built once per session (seed_path_rows); each test inserts its rows, keys included, and gets
    its own copy of the objects."""
    objects, rows = seed_path_rows
    insert_seed(rows)
    return copy.deepcopy(objects)


@pytest.fixture(scope="session")
def seed_path_rows(django_db_setup, django_db_blocker):
    """The objects of the seed-shaped path and its rows, table by table (then rolled back): the
    ~60 statements of its factories run once instead of in each of ~300 tests."""
    from django.conf import settings
    from django.db import transaction
    from django.utils import translation

    with (
        django_db_blocker.unblock(),
        translation.override(settings.LANGUAGE_CODE),
        transaction.atomic(),
    ):
        objects = build_seed_path()
        rows = [(model, stored_values(model)) for model in curriculum_tables()]
        transaction.set_rollback(True)
    return objects, rows


def build_seed_path():
    path = PathFactory(title="Suggested path")
    week1 = StageFactory(path=path, title="Week 1", first_week=1, last_week=1, order=1)
    week23 = StageFactory(path=path, title="Week 2-3", first_week=2, last_week=3, order=2)
    week4 = StageFactory(path=path, title="Week 4", first_week=4, last_week=4, order=3)
    then = StageFactory(path=path, title="Then, as needed", order=4)
    start = ResourceFactory(
        slug="how-gpu-computing-works",
        kind="talk",
        title="How GPU Computing Works",
        watch_url="https://example.com/watch/how",
        is_start_here=True,
        start_here_reason="If you watch only one video, watch this one.",
    )
    PairingFactory(resource=start, part=PartFactory(number=1))
    lectures = [ResourceFactory(slug=f"gpu-mode-{n}", title=f"Lecture {n}") for n in (3, 4)]
    course = ResourceFactory(
        slug="freecodecamp", kind="course", title="CUDA course", duration_minutes=720
    )
    PairingFactory(
        resource=course, part=None, chapter=ChapterFactory(part=PartFactory(number=2), number=5)
    )
    later = ResourceFactory(slug="gpu-mode-8", title="Lecture 8", duration_minutes=90)
    advanced = ResourceFactory(slug="gpu-mode-14", title="Lecture 14", duration_minutes=None)
    steps = [
        StepFactory(stage=week1, order=1, resource=start, note="1 h"),
        StepFactory(stage=week1, order=2, resource=lectures[0]),
        StepFactory(stage=week1, order=3, resource=lectures[1]),
        StepFactory(stage=week23, order=1, resource=course, note="12 h, in several sittings"),
        StepFactory(stage=week4, order=1, resource=later),
        StepFactory(stage=then, order=1, resource=advanced),
        ArchitectureStepFactory(stage=then, order=2),
    ]
    hopper = ArchitectureFactory(slug="hopper", name="Hopper")
    session = ResourceFactory(
        slug="gtc-hopper",
        kind="talk",
        title="GTC architecture session: Hopper",
        presents_architecture=True,
        architectures=[hopper],
    )
    return SimpleNamespace(
        path=path,
        stages=[week1, week23, week4, then],
        steps=steps,
        start=start,
        lectures=lectures,
        course=course,
        later=later,
        advanced=advanced,
        hopper=hopper,
        session=session,
        watchable=[start, *lectures, course, later, advanced],
    )


@pytest.fixture
def started_a_week_ago(learner):
    """The learner started the path eight days ago: they are in week 2."""
    from progress.models import Profile

    profile = Profile.objects.for_learner(learner)
    profile.started_on = datetime.date.today() - datetime.timedelta(days=8)
    profile.save()
    return profile


@pytest.fixture
def grow_history(seed_path, other_learner):
    """grow_history(learner, scale): a path with 5 * scale more steps, all in the catalogue, each
    watched with sittings and coded, chapter coding sessions, and another learner's history alike
    (written with bulk_create: tests/bulk.py)."""
    import uuid

    from django.utils import timezone

    from progress.models import CodingSession
    from tests import bulk

    def grow(learner, scale):
        chapter = ChapterFactory(part=PartFactory(number=9), number=scale)
        more = bulk.resources(
            5 * scale,
            f"more-x{scale}",
            minutes=180,
            watch_url="https://example.com/v",
            chapter=chapter,
        )
        bulk.steps(seed_path.path, more, f"More, x{scale}")
        today = timezone.localdate()
        for user in (learner, other_learner):
            bulk.sittings(user, more, 30, then_finished=True)
            CodingSession.objects.bulk_create(
                CodingSession(
                    user=user,
                    day=today,
                    resource=resource if on_resource else None,
                    chapter=None if on_resource else chapter,
                    minutes=45 if on_resource else 20,
                    built="A kernel",
                    idempotency_key=uuid.uuid4(),
                )
                for resource in more
                for on_resource in (True, False)
            )

    return grow


@pytest.fixture
def course(db):
    """A twelve-hour course to log sittings of (test files may define their own)."""
    from tests.factories import ResourceFactory

    return ResourceFactory(slug="cuda", kind="course", title="CUDA course", duration_minutes=720)
