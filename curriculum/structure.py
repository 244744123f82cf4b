"""The curriculum as every page reads it: built once per process, rebuilt when it has changed.

Path, stages, steps, series, chapters and resources are the same for every learner and change
only when a curator edits them. Each request reads the revision token (one tiny query), which
database triggers renew on any write to a curriculum table (migration 0002: admin,
load_curriculum, QuerySet.update(), raw SQL, a restore); the structure is rebuilt when the token
differs from the one it was built under. Only curriculum rows live here, never a learner's.

The model instances are shared by every request of the process: read them, never change them.
"""

import threading
import uuid
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.db.models import Prefetch
from django.utils import translation

from curriculum.models import (
    CUDA_VENDOR,
    Architecture,
    GpuCard,
    Pairing,
    Part,
    Path,
    Resource,
    Revision,
    Series,
    SessionAdvice,
    Stage,
    Step,
    folded,
)


@dataclass(frozen=True)
class PathStep:
    """Where a resource stands in the suggested path: its stage, and the step's note."""

    stage: Stage
    step: Step


@dataclass
class Curriculum:
    token: str | None
    path: Path | None
    start_here: Resource | None
    resources: list[Resource]
    parts: list[Part]
    series: list[Series]
    architectures: list[Architecture]
    gpu_cards: list[GpuCard] = field(default_factory=list)
    by_slug: dict[str, Resource] = field(default_factory=dict)
    sessions: dict[int, Resource] = field(default_factory=dict)
    _built: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.by_slug = {resource.slug: resource for resource in self.resources}
        self.by_pk = {resource.pk: resource for resource in self.resources}
        for resource in sorted(self.resources, key=lambda r: r.title, reverse=True):
            if resource.presents_architecture:
                for architecture in resource.architectures.all():
                    self.sessions[architecture.pk] = resource
        self.architectures_by_pk = {a.pk: a for a in self.architectures}
        self.cards_by_pk = {card.pk: card for card in self.gpu_cards}
        self.sessions_by_architecture = {
            self.architectures_by_pk[pk]: session
            for pk, session in self.sessions.items()
            if pk in self.architectures_by_pk
        }
        # The path's stages with their steps, in order.
        self.layout = [
            (stage, list(stage.steps.all()))
            for stage in (self.path.stages.all() if self.path else ())
        ]
        self.path_steps = {
            step.resource_id: PathStep(stage=stage, step=step)
            for stage, steps in self.layout
            for step in steps
            if step.resource_id is not None
        }

    def built(self, builder):
        """builder(self), built once for this revision of the curriculum and the active language.

        For the curriculum-only parts of the pages' view models (labels, URLs, static HTML): they
        are dropped with this structure when a curator's edit renews the token, and builder is
        given the curriculum only, so nothing of a learner can be kept here.
        """
        key = (builder, translation.get_language())
        try:
            return self._built[key]
        except KeyError:
            # Two threads may both build it on a miss: the same value, the last one kept.
            value = self._built[key] = builder(self)
            return value

    def architecture_session(self, architecture_id):
        """The talk that presents this GPU generation (first by title), or None."""
        return self.sessions.get(architecture_id)

    def cards_by_maker(self):
        """The GPU cards grouped by maker, makers in the order of their first card."""
        groups = {}
        for card in self.gpu_cards:
            groups.setdefault(card.maker, []).append(card)
        return list(groups.items())

    def session_advice(self, *, card_id=None, architecture_id=None):
        """What a learner with this card (or, without one, this architecture) should watch."""
        card = self.cards_by_pk.get(card_id)
        if card is not None:
            architecture = self.architectures_by_pk.get(card.architecture_id)
        else:
            architecture = self.architectures_by_pk.get(architecture_id)
        if architecture is None:
            if card is None:
                reason = SessionAdvice.Reason.NO_GPU
            elif card.maker == CUDA_VENDOR:
                reason = SessionAdvice.Reason.UNKNOWN_ARCHITECTURE
            else:
                return SessionAdvice(SessionAdvice.Reason.NOT_CUDA, None, None, None, card=card)
            return SessionAdvice(reason, None, None, None, card=card, pointers=self.all_sessions())
        advice = replace(architecture.nearest_session(self.sessions_by_architecture), card=card)
        if advice.session is None:
            advice = replace(advice, pointers=tuple(self.resources_on(architecture)))
        return advice

    def catalogue(
        self, *, kind="", series=None, part=None, chapter=None, architecture=None, text=""
    ):
        """The resources matching every filter given; the text's words are found in any case and
        with or without accents (Resource.search_text)."""
        words = folded(text).split()
        return [
            resource
            for resource in self.resources
            if (not kind or resource.kind == kind)
            and (series is None or resource.series_id == series.pk)
            and (architecture is None or architecture in resource.architectures.all())
            and in_guide(resource, part, chapter)
            and all(word in resource.search_text for word in words)
        ]

    def all_sessions(self):
        """Every architecture session, from the oldest generation presented to the newest."""
        ordered = sorted(self.sessions_by_architecture.items(), key=lambda item: item[0].order)
        sessions = []
        for _architecture, session in ordered:
            if session not in sessions:
                sessions.append(session)
        return tuple(sessions)

    def resources_on(self, architecture):
        """The resources tagged with this architecture, in catalogue order."""
        return [r for r in self.resources if architecture in r.architectures.all()]


def in_guide(resource, part, chapter):
    """Whether resource is paired with chapter, or with part or one of its chapters."""
    if chapter is not None:
        return any(pairing.chapter_id == chapter.pk for pairing in resource.pairings.all())
    if part is not None:
        return any(pairing.guide_part.pk == part.pk for pairing in resource.pairings.all())
    return True


def _pairings():
    return Pairing.objects.select_related("part", "chapter__part")


def build(token):
    """Every curriculum row the pages show, in a fixed number of queries."""
    # Ordering by a translated field sorts on the active language's column: the structure shared
    # by every request is built in French, whatever language the request that builds it uses.
    with translation.override(settings.LANGUAGE_CODE):
        return _build(token)


def _build(token):
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
        gpu_cards=list(GpuCard.objects.all()),
    )


_current: Curriculum | None = None
_building = threading.Lock()
# The revision token the running request last read its curriculum at (at_revision).
_read_at: ContextVar[str | None] = ContextVar("curriculum_read_at", default=None)


def current() -> Curriculum:
    """The curriculum as it is now, rebuilt if a curriculum table has been written since."""
    return at_revision(Revision.objects.values_list("token", flat=True).first())


def held() -> Curriculum | None:
    """The curriculum this process last built, unchecked: only for a caller whose own statement
    checks that its token is still the current one (progress/actions.py), else use current()."""
    return _current


def at_revision(token: str | None) -> Curriculum:
    """The curriculum of the revision token the caller read (with its own data, in the same
    statement), rebuilt if it is not the one this process holds."""
    global _current
    if token is None:
        token = _renewed_token()
    _read_at.set(token)
    built = _current
    if built is not None and built.token == token:
        return built
    with _building:
        built = _current
        if built is not None and built.token == token:
            return built
        built = _current = build(token)
    return built


def revision() -> str | None:
    """The revision token this request read its curriculum at, so that what a template caches
    from it is keyed on that revision (config/jinja.py's `{% cache %}`); None before any read."""
    return _read_at.get()


def _renewed_token() -> str:
    """The token's row is gone (`manage.py flush`, a restore without it): make it again, or every
    request of every process would build the curriculum afresh, having no token to keep it under."""
    return Revision.objects.create(token=str(uuid.uuid4())).token
