"""The path's tiles and bars on the dashboard, as HTML written once per curriculum revision and
language (`Curriculum.built`) with slots where the learner's parts go.

A tile's frame (templates/progress/_dashboard.jinja, `tile_frame`) holds what its step and the
resource it resolves to print: the title, the length, the note, the code button. Its controls
are written once for a resource not started and for one done, and once with slots for the
learner's minutes for one in progress; its resume link, coding and nearest session are short
sentences written once with slots for the learner's figures. A request puts the learner's parts
in the slots; the page's CSRF field, address and out-of-band attribute go in when the template
prints the tile (`PathTile.printed`), as the catalogue's cards take theirs (progress/catalogue.py).
"""

from dataclasses import dataclass, field, replace
from typing import Any, cast

from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.utils import timezone
from markupsafe import Markup, escape

from curriculum.models import Resource, SessionAdvice
from lib.durations import video_time
from lib.slots import Pieces, Slotted, filled, slot, split_at_slots
from progress.catalogue import CSRF_SLOT, PAGE_SLOT, WatchMacros
from progress.models import Watch
from progress.pages import watch_controls
from progress.path import ResourceState, StepProgress

# The labels are progress.dashboard's ResourceLabels and PathLabels, built by it once per
# curriculum revision and given here (that module prints these tiles).
ResourceLabels = Any
PathLabels = Any

OOB_SLOT = slot("oob")
OOB = ' hx-swap-oob="true"'

# The slots of a tile's frame, and of the short sentences put in them.
STATUS, RESUME, CONTROLS, CODED, NEAREST, CODE, PROMPT = (
    slot(name) for name in ("status", "resume", "controls", "coded", "nearest", "code", "prompt")
)
URL, TIME, TITLE, NAME, OTHER, MINUTES, GOAL, MAX, VALUE, DONE, WATCHED, PLANNED = (
    slot(name)
    for name in (
        "url",
        "time",
        "title",
        "name",
        "other",
        "minutes",
        "goal",
        "max",
        "value",
        "done",
        "watched",
        "planned",
    )
)

# The slots of the controls of a resource in progress: what in them is the learner's (given to the
# macro as text where it prints numbers).
WATCHED_MINUTES, PERCENT, CREDIT = (slot(name) for name in ("watched_minutes", "percent", "credit"))
LEARNERS_MINUTES: dict[str, Any] = {
    "watched": WATCHED,
    "watched_minutes": WATCHED_MINUTES,
    "percent": PERCENT,
    "credit": CREDIT,
}


@dataclass(frozen=True, slots=True)
class Resume:
    """Where the last viewing on the resource page stopped, as a link back to it."""

    url: str
    time: str
    title: str


@dataclass(frozen=True, slots=True)
class Coded:
    """What was coded of a watched step against three times its length."""

    is_coded: bool
    has_goal: bool
    coded_minutes: int
    coded: str
    goal: str
    progress_max: int | str
    progress_value: int | str


@dataclass(frozen=True, slots=True)
class Nearest:
    """No session presents the learner's GPU: the one shown is the nearest generation's."""

    name: str
    nearest: str


def resume(state: ResourceState | None, labels: ResourceLabels) -> Resume | None:
    seconds = state.resume_seconds if state is not None else 0
    if not seconds:
        return None
    assert state is not None
    return Resume(url=state.resume_url, time=video_time(seconds), title=labels.title)


def coded(step: StepProgress, labels: PathLabels) -> Coded | None:
    if not step.is_done:
        return None
    coding = step.coding
    if coding is None:
        return Coded(False, False, 0, "", "", 1, 0)
    return Coded(
        is_coded=coding.is_coded,
        has_goal=bool(coding.goal),
        coded_minutes=coding.coded,
        coded=labels.length(coding.coded),
        goal=labels.length(coding.goal) if coding.goal else "",
        progress_max=coding.progress_max,
        progress_value=coding.progress_value,
    )


def nearest(advice: SessionAdvice | None) -> Nearest | None:
    if advice is None or advice.reason not in ("newer", "older"):
        return None
    assert advice.architecture is not None and advice.session_architecture is not None
    return Nearest(name=advice.architecture.name, nearest=advice.session_architecture.name)


def prompt(step: StepProgress) -> str:
    """What an architecture step with no session asks: "gpu" (none chosen), "not_cuda", "none"."""
    if step.architecture_unknown:
        return "gpu"
    if step.advice is not None and not step.advice.runs_cuda:
        return "not_cuda"
    return "none"


@dataclass(frozen=True, slots=True)
class StepFace:
    """What a step's tile shows of the step and the resource it resolves to, for everyone; the
    cards that name the next step show it too."""

    place: str
    title: str
    labels: ResourceLabels | None  # None: an architecture step with no session
    length: str
    note: str


def step_face(step, resource_labels: ResourceLabels | None, labels: PathLabels) -> StepFace:
    if resource_labels is not None and step.is_architecture_talk:
        title = resource_labels.name
    else:
        title = labels.steps[step.pk]
    written, without_length = labels.notes[step.pk]
    planned = resource_labels is not None and resource_labels.planned_minutes
    return StepFace(
        place=f"step-{step.pk}",
        title=title,
        labels=resource_labels,
        length=resource_labels.length if resource_labels is not None else "",
        note=without_length if planned else written,
    )


@dataclass(frozen=True, slots=True)
class Frame:
    """A step's tile for one resource it resolves to (or none), split at its slots."""

    face: StepFace
    pieces: Pieces
    controls: dict[str, str]  # "not_started" and "done": with the CSRF field's and page's slots
    code: str  # the code button, shown while the step owes code


@dataclass(frozen=True, slots=True)
class Sentences:
    """The words a tile or a bar prints of the learner, with slots for their figures."""

    resume: Pieces
    nearest: Pieces
    coded: dict[tuple[bool, bool, bool], Pieces]  # by (is coded, has a goal, has coded minutes)
    prompts: dict[str, str]  # the GPU prompt by kind (prompt())
    bars: dict[tuple[int, bool], Pieces]  # by (steps counted, has a known length)


@dataclass(frozen=True, slots=True)
class PathTiles:
    """The dashboard's tiles and bars in one language: built once per curriculum revision."""

    labels: PathLabels
    frames: dict[tuple[int, int | None], Frame]  # by step id and resolved resource id (or None)
    sentences: Sentences
    # By stage id and whether it is the learner's week: its section with slots for the words of
    # its bar and its tiles.
    stages: dict[tuple[int, bool], Slotted]
    macros: Any
    watch_macros: WatchMacros
    # The cards' controls not started and done, by place, resource id and status: written on
    # first use (their HTML depends on nothing else), the CSRF field's and page's slots left.
    card_controls: dict[tuple[str, int, str], str] = field(default_factory=dict)
    # The controls of a resource in progress, by place, resource id and anchor: written on first
    # use with slots for the learner's minutes (in_progress_controls).
    in_progress: dict[tuple[str, int, str], Pieces] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PathTile:
    """A step's tile with the learner's parts in; the page's CSRF field, its address and the
    out-of-band attribute go in as the template prints it."""

    resource_id: int | None
    html: str

    def printed(self, csrf_input: Markup, back: str, oob: bool = False) -> Markup:
        return printed(self.html, csrf_input, back, oob)


def printed(html: str, csrf_input: Markup, back: str, oob: bool = False) -> Markup:
    """Tiles' HTML with the page's CSRF field, its address and the out-of-band attribute in."""
    html = html.replace(OOB_SLOT, OOB if oob else "")
    return Markup(html.replace(PAGE_SLOT, escape(back)).replace(CSRF_SLOT, csrf_input))


@dataclass(frozen=True, slots=True)
class Controls:
    """A resource's controls in a card, with the page's slots for its CSRF field and address."""

    html: str

    def printed(self, csrf_input: Markup, back: str) -> Markup:
        return printed(self.html, csrf_input, back)


def card_controls(
    tiles: PathTiles, state: ResourceState, place: str, labels: ResourceLabels, anchor: str
) -> Controls:
    """The controls of a card (next up, start here) for the learner's state of its resource."""
    status = state.status
    if status == "in_progress":
        return Controls(in_progress_controls(tiles, state, place, labels, anchor))
    key = (place, state.resource.pk, status)
    html = tiles.card_controls.get(key)
    if html is None:
        made = watch_controls(state, place, labels, anchor)
        html = str(tiles.watch_macros.render(made, PAGE_SLOT))
        tiles.card_controls[key] = html
    return Controls(html)


def in_progress_controls(
    tiles: PathTiles, state: ResourceState, place: str, labels: ResourceLabels, anchor: str
) -> str:
    """The controls of a resource in progress, from their shape for this place (written on first
    use, what is the learner's in slots) with the learner's minutes in."""
    key = (place, state.resource.pk, anchor)
    pieces = tiles.in_progress.get(key)
    if pieces is None:
        shape = replace(watch_controls(state, place, labels, anchor), **LEARNERS_MINUTES)
        pieces = split_at_slots(tiles.watch_macros.render(shape, PAGE_SLOT))
        tiles.in_progress[key] = pieces
    values = {
        WATCHED: escape(tiles.labels.length(state.watched_minutes)),
        WATCHED_MINUTES: str(state.watched_minutes),
        PERCENT: str(state.percent),
        CREDIT: escape(tiles.labels.length(state.credit_on_finish)),
    }
    return filled(pieces, values)


def dashboard_macros() -> Any:
    """templates/progress/_dashboard.jinja's macros (the tiles' have no form of their own)."""
    env = cast(Jinja2, engines["jinja2"]).env
    return env.get_template("progress/_dashboard.jinja").module


FRAME_SLOTS = {
    "status": Markup(STATUS),
    "oob": Markup(OOB_SLOT),
    "resume": Markup(RESUME),
    "controls": Markup(CONTROLS),
    "coded": Markup(CODED),
    "nearest": Markup(NEAREST),
    "code": Markup(CODE),
    "prompt": Markup(PROMPT),
}


def frame(macros, watch_macros: WatchMacros, face: StepFace, resource: Resource | None) -> Frame:
    """A step's tile with slots, and its controls not started and done."""
    controls = {}
    if resource is not None:
        finished = Watch(finished_at=timezone.now(), resource=resource)
        skipped = Watch(skipped_at=timezone.now(), resource=resource)
        for status, watch in (("not_started", None), ("done", finished), ("skipped", skipped)):
            made = watch_controls(
                ResourceState(resource, watch), face.place, face.labels, anchor=f"#{face.place}"
            )
            controls[status] = str(watch_macros.render(made, PAGE_SLOT))
    return Frame(
        face=face,
        pieces=split_at_slots(macros.tile_frame(face, FRAME_SLOTS)),
        controls=controls,
        code=str(macros.code_button(face)) if resource is not None else "",
    )


@dataclass(frozen=True, slots=True)
class BarSlots:
    """A bar's words with slots for the learner's figures (`bar_words` in _dashboard.jinja)."""

    done: Markup
    total: int
    watched: Markup
    planned: Markup
    skipped: int = 0


def sentences(macros, bar_totals) -> Sentences:
    coded = {}
    for is_coded in (False, True):
        for has_goal in (False, True):
            for has_minutes in (False, True):
                made = Coded(
                    is_coded, has_goal, int(has_minutes), MINUTES, GOAL, Markup(MAX), Markup(VALUE)
                )
                coded[is_coded, has_goal, has_minutes] = split_at_slots(macros.coded(made))
    return Sentences(
        resume=split_at_slots(macros.resume_link(Resume(URL, TIME, TITLE))),
        nearest=split_at_slots(macros.nearest_session(Nearest(NAME, OTHER))),
        coded=coded,
        prompts={
            kind: str(macros.architecture_prompt(kind)) for kind in ("gpu", "not_cuda", "none")
        },
        bars={
            (total, has_planned): split_at_slots(
                macros.bar_words(
                    BarSlots(
                        Markup(DONE),
                        total,
                        Markup(WATCHED),
                        Markup(PLANNED if has_planned else ""),
                    )
                )
            )
            for total in bar_totals
            for has_planned in (False, True)
        },
    )


def path_tiles(curriculum, labels: PathLabels) -> PathTiles:
    """The frames of every step of the path for every resource it may resolve to (its own, or
    for the architecture step every session and none), and the tiles' and bars' sentences, in
    the active language."""
    macros = dashboard_macros()
    watch_macros = WatchMacros()
    sessions = {resource.pk: resource for resource in curriculum.sessions.values()}
    frames = {}
    totals = set()  # the steps each bar counts: a stage's, the path's
    path_steps = 0
    stages = {}
    for stage, steps in curriculum.layout:
        for is_current in (False, True):
            section = macros.stage_section(
                stage.pk,
                labels.stages[stage.pk],
                is_current,
                Markup(slot("words")),
                Markup(slot("tiles")),
            )
            stages[stage.pk, is_current] = Slotted.cut(section)
        totals.add(len(steps))
        path_steps += len(steps)
        for step in steps:
            candidates = dict(sessions) if step.is_architecture_talk else {}
            if step.resource is not None:
                candidates[step.resource.pk] = step.resource
            for resource in (*candidates.values(), None):
                resource_labels = labels.resources[resource.pk] if resource is not None else None
                face = step_face(step, resource_labels, labels)
                frames[step.pk, resource.pk if resource is not None else None] = frame(
                    macros, watch_macros, face, resource
                )
    totals.add(path_steps)
    return PathTiles(
        labels=labels,
        frames=frames,
        sentences=sentences(macros, totals),
        stages=stages,
        macros=macros,
        watch_macros=watch_macros,
    )


def frame_of(tiles: PathTiles, step: StepProgress) -> Frame:
    """The frame of a step for the resource it resolves to; one the build did not foresee is
    written for this request alone."""
    resource = step.resource
    found = tiles.frames.get((step.step.pk, resource.pk if resource is not None else None))
    if found is not None:
        return found
    resource_labels = tiles.labels.resources.get(resource.pk) if resource is not None else None
    face = step_face(step.step, resource_labels, tiles.labels)
    return frame(tiles.macros, tiles.watch_macros, face, resource if resource_labels else None)


def path_tile(step: StepProgress, tiles: PathTiles) -> PathTile:
    """A step's tile with the learner's state, resume link, controls, coding and prompts in."""
    found = frame_of(tiles, step)
    face, words = found.face, tiles.sentences
    state = step.state
    status = step.status
    values = {STATUS: status}
    if face.labels is None or state is None:
        values[PROMPT] = words.prompts[prompt(step)]
    else:
        if status == "in_progress":
            values[CONTROLS] = in_progress_controls(
                tiles, state, face.place, face.labels, f"#{face.place}"
            )
        else:
            values[CONTROLS] = found.controls[status]
        values[RESUME] = resume_html(words, resume(state, face.labels))
        values[CODED] = coded_html(words, coded(step, tiles.labels))
        values[NEAREST] = nearest_html(words, nearest(step.advice))
        values[CODE] = found.code if step.owes_code else ""
    return PathTile(
        resource_id=state.resource.pk if state is not None else None,
        html=filled(found.pieces, values),
    )


def resume_html(words: Sentences, link: Resume | None) -> str:
    if link is None:
        return ""
    values = {URL: escape(link.url), TIME: escape(link.time), TITLE: escape(link.title)}
    return filled(words.resume, values)


def coded_html(words: Sentences, done: Coded | None) -> str:
    if done is None:
        return ""
    values = {
        MINUTES: escape(done.coded),
        GOAL: escape(done.goal),
        MAX: str(done.progress_max),
        VALUE: str(done.progress_value),
    }
    return filled(words.coded[done.is_coded, done.has_goal, bool(done.coded_minutes)], values)


def nearest_html(words: Sentences, advice: Nearest | None) -> str:
    if advice is None:
        return ""
    return filled(words.nearest, {NAME: escape(advice.name), OTHER: escape(advice.nearest)})


def bar_words(
    tiles: PathTiles, done: int, total: int, watched: str, planned: str, skipped: int = 0
) -> Markup:
    """A bar's words: "3 of 11 steps done · 2 h watched of 4 h", or with steps skipped "3
    watched, 1 skipped of 11 steps · …" (written for the request: few learners skip)."""
    pieces = tiles.sentences.bars.get((total, bool(planned))) if not skipped else None
    if pieces is None:
        return tiles.macros.bar_words(
            BarSlots(Markup(done), total, Markup(escape(watched)), Markup(escape(planned)), skipped)
        )
    values = {DONE: str(done), WATCHED: escape(watched), PLANNED: escape(planned)}
    return Markup(filled(pieces, values))
