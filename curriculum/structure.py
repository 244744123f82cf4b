"""The curriculum as every page reads it: built once per process, rebuilt when it has changed.

Path, stages, steps, series, chapters and resources are the same for every learner and change
only when a curator edits them. Each request reads the revision token (one tiny query), which
database triggers renew on any write to a curriculum table (migration 0002: admin,
load_curriculum, QuerySet.update(), raw SQL, a restore); the structure is rebuilt when the token
differs from the one it was built under. Only curriculum rows live here, never a learner's.

The model instances are shared by every request of the process: read them, never change them.
"""

import threading
from dataclasses import dataclass, field

from django.db.models import Prefetch

from curriculum.models import Architecture, Pairing, Part, Path, Resource, Revision, Series


@dataclass
class Curriculum:
    token: str | None
    path: Path | None
    start_here: Resource | None
    resources: list[Resource]
    parts: list[Part]
    series: list[Series]
    architectures: list[Architecture]
    by_slug: dict[str, Resource] = field(default_factory=dict)
    sessions: dict[int, Resource] = field(default_factory=dict)

    def __post_init__(self):
        self.by_slug = {resource.slug: resource for resource in self.resources}
        for resource in sorted(self.resources, key=lambda r: r.title, reverse=True):
            if resource.presents_architecture:
                for architecture in resource.architectures.all():
                    self.sessions[architecture.pk] = resource

    def architecture_session(self, architecture_id):
        """The talk that presents this GPU generation (first by title), or None."""
        return self.sessions.get(architecture_id)


def _pairings():
    return Pairing.objects.select_related("part", "chapter__part")


def build(token):
    """Every curriculum row the pages show, in a fixed number of queries."""
    resources = list(
        Resource.objects.select_related("series").prefetch_related(
            "architectures", Prefetch("pairings", queryset=_pairings())
        )
    )
    by_pk = {resource.pk: resource for resource in resources}
    path = (
        Path.objects.with_steps()
        .prefetch_related(Prefetch("stages__steps__resource__pairings", queryset=_pairings()))
        .first()
    )
    if path is not None:
        # One instance per resource, whether reached through the path or the catalogue.
        for stage in path.stages.all():
            for step in stage.steps.all():
                if step.resource_id is not None:
                    step.resource = by_pk.get(step.resource_id, step.resource)
    return Curriculum(
        token=token,
        path=path,
        start_here=next((resource for resource in resources if resource.is_start_here), None),
        resources=resources,
        parts=list(Part.objects.for_guide()),
        series=list(Series.objects.all()),
        architectures=list(Architecture.objects.all()),
    )


_current: Curriculum | None = None
_building = threading.Lock()


def current() -> Curriculum:
    """The curriculum as it is now, rebuilt if a curriculum table has been written since."""
    global _current
    token = Revision.objects.values_list("token", flat=True).first()
    built = _current
    if built is not None and token is not None and built.token == token:
        return built
    with _building:
        built = _current
        if built is not None and token is not None and built.token == token:
            return built
        built = build(token)
        if token is not None:
            _current = built
    return built
