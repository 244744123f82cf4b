"""The dashboard's view model (templates/progress/dashboard.jinja): the learner's path, the today
card, next up and the balance, every label, URL and number the page prints.

What is the same for every learner (titles, lengths, links, the path's rule, the HTML of the
path's tiles and the words of its bars: progress/path_tiles.py) is built once per curriculum
revision and language (`Curriculum.built`); the learner's part comes from their history, read in
one statement (progress/history.py), put in the tiles' slots. The htmx answers of a tap on the
today card and of a watch change made on the path print blocks of this same model with the same
macros.
"""

import uuid
from dataclasses import dataclass

from django.template.defaultfilters import linebreaks_filter
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext
from markupsafe import Markup

from curriculum import structure
from lib.durations import duration, duration_in
from lib.urls import url_for_each, url_with
from progress.balance import minutes_of
from progress.exercise_to_check import ExerciseToCheck, exercise_to_check
from progress.forms import QUICK_MINUTES
from progress.history import history_of
from progress.models import Profile
from progress.pages import balance_html
from progress.path import (
    LEADING_LENGTH,
    PathProgress,
    StageProgress,
    StepProgress,
    Tally,
    percent,
    progress_from,
)
from progress.path_tiles import (
    Controls,
    Nearest,
    PathTile,
    PathTiles,
    Resume,
    bar_words,
    card_controls,
    frame_of,
    nearest,
    path_tile,
    path_tiles,
    printed,
    prompt,
    resume,
)
from progress.today import Today, day_of

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
    rule: Markup  # the path's rule as paragraphs, "" without one
    start_here_reason: Markup
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
        rule=Markup(linebreaks_filter(path.rule)) if path is not None and path.rule else Markup(),
        start_here_reason=Markup(linebreaks_filter(reason)) if reason else Markup(),
        language=get_language(),
        quick=tuple((minutes, duration(minutes)) for minutes in QUICK_MINUTES),
    )


@dataclass(frozen=True, slots=True)
class Tile:
    """The next step as the next-up card and the today card name it (its tile on the path is a
    progress.path_tiles.PathTile)."""

    pk: int
    place: str
    title: str
    labels: ResourceLabels | None  # None: an architecture step that names no session yet
    length: str
    note: str
    resume: Resume | None
    nearest: Nearest | None
    prompt: str  # without a session: "gpu" (none chosen), "not_cuda" or "none"


@dataclass(frozen=True, slots=True)
class Bar:
    """Steps done of the steps, minutes watched of the minutes planned."""

    done: int
    skipped: int  # steps the learner already knew, counted apart from those done
    total: int
    watched: str
    planned: str  # "" when nothing has a known length
    percent: int
    words: Markup  # "3 of 11 steps done · 2 h watched of 4 h"


@dataclass(frozen=True, slots=True)
class StageBlock:
    pk: int
    bar: Bar
    tiles: tuple[PathTile, ...]
    html: str  # the stage's section with its tiles, their CSRF field's and page's slots left


def stage_block(stage: StageProgress, tiles: PathTiles) -> StageBlock:
    """A stage's section from its shape (progress/path_tiles.py), its bar and tiles in."""
    assert stage.stage is not None
    stage_bar = bar(stage, tiles)
    stage_tiles = tuple(path_tile(step, tiles) for step in stage.steps)
    shape = tiles.stages[stage.stage.pk, stage.is_current]
    html = shape.filled({"words": stage_bar.words, "tiles": "\n".join(t.html for t in stage_tiles)})
    return StageBlock(pk=stage.stage.pk, bar=stage_bar, tiles=stage_tiles, html=html)


def built_tiles(curriculum) -> PathTiles:
    """The path's tiles and bars with slots for the learner (progress/path_tiles.py)."""
    return path_tiles(curriculum, curriculum.built(path_labels))


@dataclass(frozen=True, slots=True)
class StartHere:
    labels: ResourceLabels
    reason: Markup
    controls: Controls


@dataclass(frozen=True, slots=True)
class NextUp:
    """The next-up card: "code" (the rule is short), "watch", "finished" or "" (none)."""

    card: str
    place: str
    owed: str
    last_id: int
    last: ResourceLabels | None  # the resource to code on, when the card says "code"
    step: Tile | None
    controls: Controls | None
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
    next_step: Tile | None  # None on day one or once the path is done
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
    week_balance: Markup  # the balance's lines (progress.pages.balance_html)
    overall_balance: Markup
    has_path: bool
    path_title: str
    path_bar: Bar
    rule: Markup
    stages: tuple[StageBlock, ...]

    def tiles_of(self, resource_id: int) -> list[PathTile]:
        """The tiles of the steps that resolve to this resource (usually one)."""
        return [
            tile for stage in self.stages for tile in stage.tiles if tile.resource_id == resource_id
        ]

    def printed_stages(self, csrf_input: Markup, back: str) -> Markup:
        """The path's stages with their tiles, the page's CSRF field and address put in at once."""
        return printed("\n".join(stage.html for stage in self.stages), csrf_input, back)

    def stages_of(self, resource_id: int) -> list[StageBlock]:
        return [s for s in self.stages if any(t.resource_id == resource_id for t in s.tiles)]


def bar(tally: Tally, tiles: PathTiles) -> Bar:
    done, skipped, total = tally.steps_done, tally.steps_skipped, tally.steps_total
    watched = tiles.labels.length(tally.watched_minutes)
    planned = tally.planned_minutes
    planned_words = tiles.labels.length(planned) if planned else ""
    return Bar(
        done=done,
        skipped=skipped,
        total=total,
        watched=watched,
        planned=planned_words,
        percent=percent(done + skipped, total),
        words=bar_words(tiles, done, total, watched, planned_words, skipped),
    )


def next_tile(step: StepProgress, tiles: PathTiles) -> Tile:
    """The next step, as the next-up and today cards name it."""
    face = frame_of(tiles, step).face
    return Tile(
        pk=step.step.pk,
        place=step.place,
        title=face.title,
        labels=face.labels,
        length=face.length,
        note=face.note,
        resume=resume(step.state, face.labels) if face.labels is not None else None,
        nearest=nearest(step.advice),
        prompt="" if face.labels is not None else prompt(step),
    )


def today_card(today: Today, progress: PathProgress, labels: PathLabels, next_step: Tile | None):
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
    progress: PathProgress, tiles: PathTiles, step: Tile | None, check: ExerciseToCheck | None
) -> NextUp:
    labels = tiles.labels
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
            card_controls(tiles, state, place, labels.resources[state.resource.pk], NEXT_UP)
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
    """The dashboard of a learner: their history read in one statement (progress/history.py),
    their progress on the path and their day computed from it."""
    day = timezone.localdate()
    history = history_of(user, day)
    curriculum = structure.at_revision(history.token)
    # Accounts made by createsuperuser have no profile until a page needs one.
    profile = history.profile or Profile.objects.for_learner(user)
    progress = progress_from(
        curriculum,
        profile,
        history.watches,
        lambda resources: minutes_of(history.minutes, resources),
    )
    labels = curriculum.built(path_labels)
    tiles = curriculum.built(built_tiles)
    week, overall = progress.week_balance, progress.overall_balance
    assert week is not None and overall is not None  # progress_from counts both
    today = day_of(
        day,
        watched_this_week=week.watched,
        watched_ever=overall.watched,
        coded_by_day=history.coded_by_day,
    )
    stages = tuple(
        stage_block(stage, tiles) for stage in progress.stages if stage.stage is not None
    )
    next_step = next_tile(progress.next_up, tiles) if progress.next_up is not None else None
    start_here = None
    if progress.shows_start_here:
        assert progress.start_here is not None
        start = progress.start_here
        start_here = StartHere(
            labels=labels.resources[start.resource.pk],
            reason=labels.start_here_reason,
            controls=card_controls(
                tiles, start, "start-here", labels.resources[start.resource.pk], NEXT_UP
            ),
        )
    path = progress.path
    return DashboardPage(
        week=week_line(progress),
        today=today_card(today, progress, labels, next_step),
        start_here=start_here,
        next_up=next_up(progress, tiles, next_step, exercise_to_check(user)),
        week_balance=balance_html(week, "balance-week", gettext("This week")),
        overall_balance=balance_html(overall, "balance-overall", gettext("Since you started")),
        has_path=path is not None,
        path_title=labels.path_title,
        path_bar=bar(progress, tiles),
        rule=labels.rule,
        stages=stages,
    )
