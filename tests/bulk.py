"""Data in volume for the query-count tests, written with bulk_create: a few statements per table
instead of one INSERT per row (and no action's locks and events), so that 10x data costs little.

The rows are what the factories and progress/actions.py would leave: a finished watch has its
FINISHED event of the resource's minutes, a sitting its SITTING event and the watch's logged
minutes.
"""

import uuid
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from curriculum.models import Architecture, Chapter, Pairing, Part, Resource, Series, Stage, Step
from progress.models import CodingSession, Note, Watch, WatchEvent


def users(count, prefix):
    """count learners who cannot sign in (no password to hash), named prefix-0, prefix-1…"""
    model = get_user_model()
    return model.objects.bulk_create(
        model(username=f"{prefix}-{n}", email=f"{prefix}-{n}@example.com", password="!")
        for n in range(count)
    )


def resources(
    count,
    prefix,
    *,
    keywords="",
    minutes=60,
    kind="lecture",
    architecture=None,
    chapter=None,
    **fields,
):
    """count new resources, ten to a new series, each paired with a new part of the guide (or all
    with chapter)."""
    series = Series.objects.bulk_create(
        Series(slug=f"{prefix}-series-{n}", name=f"{prefix} series {n}")
        for n in range((count + 9) // 10)
    )
    made = Resource.objects.bulk_create(
        Resource(
            slug=f"{prefix}-{n}",
            title=f"{prefix} resource {n}",
            kind=kind,
            series=series[n // 10],
            duration_minutes=minutes,
            keywords=keywords,
            summary="A lecture about kernels.",
            **fields,
        )
        for n in range(count)
    )
    if chapter is not None:
        Pairing.objects.bulk_create(
            Pairing(resource=resource, chapter=chapter, timing="with") for resource in made
        )
    else:
        first_part = 1000 + Part.objects.count()
        parts = Part.objects.bulk_create(Part(number=first_part + n) for n in range(count))
        Pairing.objects.bulk_create(
            Pairing(resource=resource, part=part, timing="with")
            for resource, part in zip(made, parts, strict=True)
        )
    if architecture is not None:
        through = Resource.architectures.through
        through.objects.bulk_create(
            through(resource=resource, architecture=architecture) for resource in made
        )
    return made


def steps(path, resources_, title):
    """A new last stage on path whose steps are resources_, in order."""
    order = 1 + max((stage.order for stage in path.stages.all()), default=0)
    stage = Stage.objects.create(path=path, title=title, order=order)
    Step.objects.bulk_create(
        Step(stage=stage, order=n, kind=Step.Kind.RESOURCE, resource=resource)
        for n, resource in enumerate(resources_)
    )
    return stage


def watched(user, resources_):
    """Each resource finished in one click: its watch row and FINISHED event."""
    now = timezone.now()
    Watch.objects.bulk_create(Watch(user=user, resource=r, finished_at=now) for r in resources_)
    WatchEvent.objects.bulk_create(
        WatchEvent(
            user=user, resource=r, kind=WatchEvent.Kind.FINISHED, minutes=r.duration_minutes or 0
        )
        for r in resources_
    )


def sittings(user, resources_, minutes, *, then_finished=False):
    """One sitting of minutes on each resource, then (if asked) the resource marked watched."""
    now = timezone.now()
    Watch.objects.bulk_create(
        Watch(
            user=user,
            resource=r,
            logged_minutes=minutes,
            finished_at=now if then_finished else None,
        )
        for r in resources_
    )
    WatchEvent.objects.bulk_create(
        WatchEvent(
            user=user,
            resource=r,
            kind=WatchEvent.Kind.SITTING,
            minutes=minutes,
            logged_minutes=minutes,
        )
        for r in resources_
    )
    if then_finished:
        WatchEvent.objects.bulk_create(
            WatchEvent(
                user=user,
                resource=r,
                kind=WatchEvent.Kind.FINISHED,
                minutes=max((r.duration_minutes or 0) - minutes, 0),
            )
            for r in resources_
        )


def coding_sessions(user, count, resources_, chapter=None, *, days=365):
    """count sessions over the last days, every other one on a resource, the others on chapter."""
    today = timezone.localdate()
    CodingSession.objects.bulk_create(
        CodingSession(
            user=user,
            day=today - timedelta(days=(n * 7) % days),
            minutes=20 + n % 100,
            built=f"kernel {n}",
            code_url="https://example.com/code" if n % 3 else "",
            resource=resources_[n % len(resources_)] if n % 2 or chapter is None else None,
            chapter=None if n % 2 or chapter is None else chapter,
            idempotency_key=uuid.uuid4(),
        )
        for n in range(count)
    )


def notes(user, resources_):
    Note.objects.bulk_create(Note(user=user, resource=r, text="Tiling, again.") for r in resources_)


def architecture(slug):
    return Architecture.objects.create(slug=slug, name=slug.title(), vendor="NVIDIA")


def chapter(number):
    part, _created = Part.objects.get_or_create(number=9)
    return Chapter.objects.get_or_create(part=part, number=number)[0]
