"""The dashboard's view model (templates/progress/dashboard.jinja): the learner's path, the today
card, next up and the balance, every label, URL and number the page prints.

What is the same for every learner (titles, lengths, links, the path's rule) is built once per
curriculum revision and language (`Curriculum.built`); the learner's part is read from QuerySets
(their progress on the path: progress.path.path_progress; their minutes coded per day:
progress.today.coded_by_day). The htmx answers of a tap on the today card and of a watch change
made on the path print blocks of this same model with the same macros
(templates/progress/_dashboard.jinja).
"""

import uuid
from dataclasses import dataclass, replace

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language

from curriculum import structure
from curriculum.models import SessionAdvice
from lib.durations import duration, duration_in, video_time
from lib.urls import url_for_each, url_with
from progress.exercise_to_check import ExerciseToCheck, exercise_to_check
from progress.forms import QUICK_MINUTES
from progress.pages import BalanceLine, WatchControls, balance_line, watch_controls
from progress.path import (
    LEADING_LENGTH,
    PathProgress,
    ResourceState,
    StageProgress,
    StepProgress,
    Tally,
    path_progress,
    percent,
)
from progress.today import Today, coded_by_day, day_of

# Where a plain POST from the start-here or next-up card comes back to: the card it was in may be
# gone after the click, the next-up card is always there.
NEXT_UP = "#next-up"


@dataclass(frozen=True, slots=True)
class ResourceLabels:
    """A resource as the path prints it, in one language."""

    title: str
    name: str  # str(resource): with its series and number, as the start-here card names it
    is_followed: bool
    page_url: str
    finish_url: str  # the one-click button's, before it is watched (or followed)
    undo_url: str  # and after
    sitting_url: str
    log_code_url: str
    planned_minutes: int
    length: str  # "" when the length is unknown
    watch_url: str
    plays_here: bool  # a video the resource page's player plays and records
    search_url: str
    search_label: str


@dataclass(frozen=True, slots=True)
class PathLabels:
    """The curriculum-only parts of the dashboard in one language: built once per revision."""

    resources: dict[int, ResourceLabels]
    path_title: str
    stages: dict[int, str]  # titles by stage id
    steps: dict[int, str]  # titles by step id (an architecture step's own, before it resolves)
    # Notes by step id: as written, and without the length they start with (LEADING_LENGTH).
    notes: dict[int, tuple[str, str]]
    rule: str  # the path's rule as written: the template prints it as paragraphs
    start_here_reason: str
    language: str | None  # the language these labels are in, read once for the page's lengths
    quick: tuple[tuple[int, str], ...]  # the today card's one-tap lengths: (minutes, label)

    def length(self, minutes: int) -> str:
        """duration(minutes) in the labels' language."""
        return duration_in(minutes, self.language)


def path_labels(curriculum) -> PathLabels:
    """The labels of every resource, stage and the path of this curriculum, in the active language."""
    page_url = url_for_each("progress:resource_detail")
    resources = {}
    for resource in curriculum.resources:
        search = resource.search_link
        url = page_url(resource.slug)
        followed = resource.is_followed
        finish = "progress:mark_followed" if followed else "progress:mark_watched"
        undo = "progress:mark_not_followed" if followed else "progress:mark_not_watched"
        resources[resource.pk] = ResourceLabels(
            title=resource.title,
            name=str(resource),
            is_followed=followed,
            page_url=url,
            finish_url=url_with(finish, resource.slug),
            undo_url=url_with(undo, resource.slug),
            sitting_url=url_with("progress:log_sitting", resource.slug),
            log_code_url=f"{url}#coding-{resource.slug}",
            planned_minutes=resource.duration_minutes or 0,
            length=duration(resource.duration_minutes) if resource.duration_minutes else "",
            watch_url=resource.watch_url,
            plays_here=resource.has_video,
            search_url=search.url if search else "",
            search_label=search.label if search else "",
        )
    path, start_here = curriculum.path, curriculum.start_here
    steps = [step for _stage, stage_steps in curriculum.layout for step in stage_steps]
    reason = start_here.start_here_reason if start_here is not None else ""
    return PathLabels(
        resources=resources,
        path_title=path.title if path is not None else "",
        stages={stage.pk: stage.title for stage, _steps in curriculum.layout},
        steps={step.pk: step.display_title for step in steps},
        notes={step.pk: (step.note, LEADING_LENGTH.sub("", step.note, count=1)) for step in steps},
        rule=path.rule if path is not None else "",
        start_here_reason=reason,
        language=get_language(),
        quick=tuple((minutes, duration(minutes)) for minutes in QUICK_MINUTES),
    )


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
    progress_max: int
    progress_value: int


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
class StepTile:
    """A step of the path for the learner: its tile (`step_tile` in _dashboard.jinja); the next-up
    and today cards name the next step with it too."""

    pk: int
    place: str  # the prefix of its element ids: "step-12"
    resource_id: int | None
    status: str
    title: str
    labels: ResourceLabels | None  # None: an architecture step that names no session yet
    length: str
    note: str
    resume: Resume | None
    controls: WatchControls | None
    coded: Coded | None
    nearest: Nearest | None
    owes_code: bool
    prompt: str  # without a session: "gpu" (none chosen), "not_cuda" or "none"


def step_tile(step: StepProgress, labels: PathLabels) -> StepTile:
    """A step's tile: what it prints of its step and resource, and the learner's state of it."""
    state = step.state
    resource_labels = labels.resources.get(state.resource.pk) if state is not None else None
    if resource_labels is not None and step.step.is_architecture_talk:
        title = resource_labels.name
    else:
        title = labels.steps[step.step.pk]
    written, without_length = labels.notes[step.step.pk]
    place = step.place
    tile = StepTile(
        pk=step.step.pk,
        place=place,
        resource_id=state.resource.pk if state is not None else None,
        status=step.status,
        title=title,
        labels=None,
        length="",
        note=written,
        resume=None,
        controls=None,
        coded=None,
        nearest=None,
        owes_code=False,
        prompt=prompt(step),
    )
    if state is None or resource_labels is None:
        return tile
    return replace(
        tile,
        labels=resource_labels,
        length=resource_labels.length,
        note=without_length if resource_labels.planned_minutes else written,
        resume=resume(state, resource_labels),
        controls=watch_controls(state, place, resource_labels, anchor=f"#{place}"),
        coded=coded(step, labels),
        nearest=nearest(step.advice),
        owes_code=step.owes_code,
        prompt="",
    )


@dataclass(frozen=True, slots=True)
class Bar:
    """Steps done of the steps, minutes watched of the minutes planned."""

    done: int
    skipped: int  # steps the learner already knew, counted apart from those done
    total: int
    watched: str
    planned: str  # "" when nothing has a known length
    percent: int


@dataclass(frozen=True, slots=True)
class StageBlock:
    pk: int
    title: str
    is_current: bool
    bar: Bar
    tiles: tuple[StepTile, ...]


def stage_block(stage: StageProgress, labels: PathLabels) -> StageBlock:
    assert stage.stage is not None
    return StageBlock(
        pk=stage.stage.pk,
        title=labels.stages[stage.stage.pk],
        is_current=stage.is_current,
        bar=bar(stage, labels),
        tiles=tuple(step_tile(step, labels) for step in stage.steps),
    )


@dataclass(frozen=True, slots=True)
class StartHere:
    labels: ResourceLabels
    reason: str
    controls: WatchControls


@dataclass(frozen=True, slots=True)
class NextUp:
    """The next-up card: "code" (the rule is short), "watch", "finished" or "" (none)."""

    card: str
    place: str
    owed: str
    last_id: int
    last: ResourceLabels | None  # the resource to code on, when the card says "code"
    step: StepTile | None
    controls: WatchControls | None
    # After a lecture and the code time spent on it: its exercise to check, if not passed yet.
    check: ExerciseToCheck | None = None


@dataclass(frozen=True, slots=True)
class TodayCard:
    """The top of the dashboard: today's target and coding, the streak, one-tap logging, next."""

    goal: str  # "watch_first", "met", "target" or "nothing_owed"
    first_title: str
    # Day one's first step, to open from the card: its page and length ("" when unknown).
    first_url: str
    first_length: str
    target_minutes: int
    coded_minutes: int
    target: str
    coded: str
    week_owed: str  # "" unless the week owes more than today's target
    days_left: int
    streak: int
    keeps_streak: bool
    starts_streak: bool  # no streak, and not the very first day: "Code today to start a streak"
    log_url: str  # "" when nothing is watched yet: no one tap
    log_key: uuid.UUID
    quick: tuple[tuple[int, str], ...]
    practised_title: str
    practised_code_url: str
    next_step: StepTile | None  # None on day one or once the path is done
    path_done: bool


@dataclass(frozen=True, slots=True)
class WeekLine:
    kind: str  # "not_started", "past_plan" or "within"
    day: str
    number: int
    total: int


@dataclass(frozen=True, slots=True)
class DashboardPage:
    week: WeekLine | None
    today: TodayCard
    start_here: StartHere | None
    next_up: NextUp
    week_balance: BalanceLine
    overall_balance: BalanceLine
    has_path: bool
    path_title: str
    path_bar: Bar
    rule: str
    stages: tuple[StageBlock, ...]

    def tiles_of(self, resource_id: int) -> list[StepTile]:
        """The tiles of the steps that resolve to this resource (usually one)."""
        return [
            tile for stage in self.stages for tile in stage.tiles if tile.resource_id == resource_id
        ]

    def stages_of(self, resource_id: int) -> list[StageBlock]:
        return [s for s in self.stages if any(t.resource_id == resource_id for t in s.tiles)]


def bar(tally: Tally, labels: PathLabels) -> Bar:
    done, skipped, total = tally.steps_done, tally.steps_skipped, tally.steps_total
    planned = tally.planned_minutes
    return Bar(
        done=done,
        skipped=skipped,
        total=total,
        watched=labels.length(tally.watched_minutes),
        planned=labels.length(planned) if planned else "",
        percent=percent(done + skipped, total),
    )


def today_card(
    today: Today, progress: PathProgress, labels: PathLabels, next_step: StepTile | None
) -> TodayCard:
    practised = progress.last_watched
    first = progress.start_here if progress.shows_start_here else None
    watch_first = not today.has_watched and first is not None
    if watch_first:
        goal = "watch_first"
    elif today.is_met:
        goal = "met"
    elif today.target:
        goal = "target"
    else:
        goal = "nothing_owed"
    practised_labels = labels.resources[practised.resource.pk] if practised else None
    first_labels = labels.resources[first.resource.pk] if first is not None else None
    return TodayCard(
        goal=goal,
        first_title=first_labels.title if first_labels else "",
        first_url=first_labels.page_url if first_labels else "",
        first_length=first_labels.length if first_labels else "",
        target_minutes=today.target,
        coded_minutes=today.coded,
        target=labels.length(today.target),
        coded=labels.length(today.coded),
        week_owed=labels.length(today.week_owed) if today.week_owed > today.target else "",
        days_left=today.days_left,
        streak=today.streak,
        keeps_streak=today.keeps_streak,
        starts_streak=not today.streak and not today.is_first_day,
        log_url=url_with("progress:log_code_today", practised.resource.slug) if practised else "",
        log_key=uuid.uuid4(),
        quick=labels.quick,
        practised_title=practised_labels.title if practised_labels else "",
        practised_code_url=practised_labels.log_code_url if practised_labels else "",
        next_step=None if watch_first else next_step,
        path_done=progress.next_up is None and bool(progress.steps),
    )


def next_up(
    progress: PathProgress, labels: PathLabels, step: StepTile | None, check: ExerciseToCheck | None
) -> NextUp:
    card = progress.next_up_card
    place = progress.next_up_place
    last = progress.last_watched
    state = progress.next_up.state if progress.next_up is not None else None
    return NextUp(
        card=card,
        place=place,
        owed=labels.length(progress.code_owed),
        last_id=last.resource.pk if last is not None else 0,
        last=labels.resources[last.resource.pk] if last is not None else None,
        step=step,
        controls=(
            watch_controls(state, place, labels.resources[state.resource.pk], NEXT_UP)
            if state
            else None
        ),
        check=check,
    )


def week_line(progress: PathProgress) -> WeekLine | None:
    week = progress.week
    if week is None:
        return None
    if week.not_started:
        assert progress.profile is not None
        day = date_format(progress.profile.started_on, "DATE_FORMAT")
        return WeekLine("not_started", day, week.number, week.total)
    kind = "past_plan" if week.is_past_plan else "within"
    return WeekLine(kind, "", week.number, week.total)


def dashboard_page(user) -> DashboardPage:
    """The dashboard of a learner: their progress on the path (profile, watch rows, minutes per
    resource), their minutes coded per day for their day and streak, and the exercise to check."""
    day = timezone.localdate()
    curriculum = structure.current()
    progress = path_progress(user, today=day, curriculum=curriculum)
    labels = curriculum.built(path_labels)
    week, overall = progress.week_balance, progress.overall_balance
    assert week is not None and overall is not None  # path_progress counts both
    today = day_of(
        day,
        watched_this_week=week.watched,
        watched_ever=overall.watched,
        coded_by_day=coded_by_day(user, day),
    )
    stages = tuple(
        stage_block(stage, labels) for stage in progress.stages if stage.stage is not None
    )
    next_step = step_tile(progress.next_up, labels) if progress.next_up is not None else None
    start_here = None
    if progress.shows_start_here:
        assert progress.start_here is not None
        start = progress.start_here
        start_labels = labels.resources[start.resource.pk]
        start_here = StartHere(
            labels=start_labels,
            reason=labels.start_here_reason,
            controls=watch_controls(start, "start-here", start_labels, NEXT_UP),
        )
    return DashboardPage(
        week=week_line(progress),
        today=today_card(today, progress, labels, next_step),
        start_here=start_here,
        next_up=next_up(progress, labels, next_step, exercise_to_check(user, progress, curriculum)),
        week_balance=balance_line(week),
        overall_balance=balance_line(overall),
        has_path=progress.path is not None,
        path_title=labels.path_title,
        path_bar=bar(progress, labels),
        rule=labels.rule,
        stages=stages,
    )
