"""Where a learner stands on the suggested path, derived from their Watch rows, never stored.

Everything here is computed from one fixed set of queries, whatever the size of the path, the
catalogue or the learner's history.
"""

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from django.utils import timezone

from curriculum import structure
from curriculum.models import Path, Resource, SessionAdvice, Stage, Step
from lib.urls import url_with
from progress.balance import Balance, CodedOn, LearnerMinutes, ResourceCoding, learner_minutes
from progress.models import Profile, Watch

# From two hours on, a resource offers a sitting form beside its "watched" button.
LONG_MINUTES = 120
# The player starts this many seconds before the resume point, so the learner finds the thread.
RESUME_LEAD_SECONDS = 5

# A length at the start of a step's note ("1 h", "12 h, in several sittings", "45 min: ").
LEADING_LENGTH = re.compile(r"^\s*\d+\s*(?:h(?:\s*\d+)?|min)\b\s*[,;:·\u2013-]?\s*")


def percent(part, whole):
    """part ÷ whole as a whole percentage from 0 to 100 (0 when there is nothing to do)."""
    if not whole:
        return 0
    return min(100, round(100 * part / whole))


@dataclass
class ResourceState:
    """One learner's state on one resource: what the buttons and the bars show."""

    resource: Resource
    watch: Watch | None = None

    @property
    def is_done(self):
        return self.watch is not None and self.watch.is_finished

    @property
    def is_skipped(self):
        """The learner already knows it: the path goes past it, apart from what was watched."""
        return self.watch is not None and self.watch.is_skipped

    @property
    def planned_minutes(self):
        return self.resource.duration_minutes or 0

    @property
    def takes_sittings(self):
        """Long or open-ended watching is logged in sittings; shorter videos in one click."""
        duration = self.resource.duration_minutes
        return not self.resource.is_followed and (duration is None or duration >= LONG_MINUTES)

    @property
    def takes_sittings_on_the_map(self):
        """Known to be long (the 12 h course): the path's tile offers its sitting form too; videos of
        unknown length keep theirs on the resource page, so the map stays compact."""
        return self.takes_sittings and self.planned_minutes >= LONG_MINUTES

    @property
    def watched_minutes(self):
        """Watched minutes, counted no further than the resource's length for the bars."""
        if self.watch is None:
            return 0
        minutes = self.watch.watched_minutes
        return min(minutes, self.planned_minutes) if self.planned_minutes else minutes

    @property
    def credit_on_finish(self):
        """Minutes that marking it watched now would add to what the sittings logged."""
        if self.is_done:
            return 0
        logged = self.watch.logged_minutes if self.watch else 0
        return max(self.planned_minutes - logged, 0)

    @property
    def is_started(self):
        return self.is_done or (self.watch is not None and self.watch.logged_minutes > 0)

    @property
    def status(self):
        """ "done", "skipped", "in_progress" or "not_started"."""
        if self.is_done:
            return "done"
        if self.is_skipped:
            return "skipped"
        return "in_progress" if self.is_started else "not_started"

    @property
    def percent(self):
        return 100 if self.is_done else percent(self.watched_minutes, self.planned_minutes)

    @property
    def page_url(self):
        """The resource's page, where coding sessions and notes are logged."""
        return url_with("progress:resource_detail", self.resource.slug)

    @property
    def resume_seconds(self):
        """Where the last viewing of the video on its page stopped, while it is not watched."""
        if self.watch is None or self.is_done or not self.resource.has_video:
            return 0
        return self.watch.resume_seconds

    @property
    def resume_url(self):
        """The resource page with its player set a few seconds before the resume point."""
        start = max(self.resume_seconds - RESUME_LEAD_SECONDS, 0)
        return f"{self.page_url}?t={start}#player"

    @property
    def log_code_url(self):
        """The resource page's coding-session form."""
        return f"{self.page_url}#coding-{self.resource.slug}"

    @property
    def toggle_url(self):
        """Where the one-click button posts: finish, or undo finishing."""
        if self.resource.is_followed:
            name = "progress:mark_not_followed" if self.is_done else "progress:mark_followed"
        else:
            name = "progress:mark_not_watched" if self.is_done else "progress:mark_watched"
        return url_with(name, self.resource.slug)

    @property
    def sitting_url(self):
        return url_with("progress:log_sitting", self.resource.slug)

    @property
    def skip_url(self):
        """Where "I already know this" posts, or its undo once skipped."""
        name = "progress:unskip" if self.is_skipped else "progress:skip"
        return url_with(name, self.resource.slug)


@dataclass
class StepProgress:
    """A step of the path with the resource it resolves to for this learner, and its state."""

    step: Step
    state: ResourceState | None
    architecture_unknown: bool = False
    coding: ResourceCoding | None = None
    # On the architecture step: which session the learner's GPU leads to, and why.
    advice: SessionAdvice | None = None

    @property
    def resource(self):
        return self.state.resource if self.state else None

    @property
    def place(self):
        """The prefix of this step's element ids on the page."""
        return f"step-{self.step.pk}"

    @property
    def is_done(self):
        return self.state is not None and self.state.is_done

    @property
    def is_skipped(self):
        return self.state is not None and self.state.is_skipped

    @property
    def is_behind(self):
        """Done or skipped: the path has gone past it."""
        return self.is_done or self.is_skipped

    @property
    def status(self):
        return self.state.status if self.state else "not_started"

    @property
    def planned_minutes(self):
        return self.state.planned_minutes if self.state else 0

    @property
    def watched_minutes(self):
        return self.state.watched_minutes if self.state else 0

    @property
    def owes_code(self):
        """Watched, and not yet coded three times over: logging code is this step's next action."""
        return self.is_done and self.coding is not None and not self.coding.is_coded

    @cached_property
    def title(self):
        if self.step.is_architecture_talk and self.resource is not None:
            return str(self.resource)
        return self.step.display_title

    @cached_property
    def pairings(self):
        return list(self.resource.pairings.all()) if self.resource else []


@dataclass
class Tally:
    """Minutes and steps done out of planned, shared by stages and the whole path."""

    steps: list[StepProgress] = field(default_factory=list)

    @property
    def steps_done(self):
        return sum(step.is_done for step in self.steps)

    @property
    def steps_skipped(self):
        """Steps the learner already knew, counted apart from those watched."""
        return sum(step.is_skipped for step in self.steps)

    @property
    def steps_total(self):
        return len(self.steps)

    @property
    def watched_minutes(self):
        return sum(step.watched_minutes for step in self.steps)

    @property
    def planned_minutes(self):
        return sum(step.planned_minutes for step in self.steps)

    @property
    def minutes_percent(self):
        return percent(self.watched_minutes, self.planned_minutes)

    @property
    def steps_percent(self):
        return percent(self.steps_done, self.steps_total)

    @property
    def is_done(self):
        """Every step watched or skipped."""
        return self.steps_total > 0 and self.steps_done + self.steps_skipped == self.steps_total


@dataclass
class StageProgress(Tally):
    stage: Stage | None = None
    is_current: bool = False


@dataclass
class Week:
    """The learner's week on the path, counted from Profile.started_on."""

    number: int
    total: int

    @property
    def not_started(self):
        return self.number < 1

    @property
    def is_past_plan(self):
        return self.number > self.total


def week_of(started_on: datetime.date, stages, today: datetime.date | None = None) -> Week:
    today = today or timezone.localdate()
    total = max((stage.last_week or stage.first_week or 0 for stage in stages), default=0)
    return Week(number=(today - started_on).days // 7 + 1, total=total)


def current_stage(stages, week: Week):
    """The stage whose weeks hold this week; once past them, the open-ended last stage."""
    for stage in stages:
        if stage.first_week is not None and stage.first_week <= week.number <= (
            stage.last_week or stage.first_week
        ):
            return stage
    if week.is_past_plan:
        return next((stage for stage in stages if stage.first_week is None), None)
    return None


@dataclass
class PathProgress(Tally):
    """A learner's whole path: stages with their steps' states, week, next up, start here."""

    path: Path | None = None
    profile: Profile | None = None
    stages: list[StageProgress] = field(default_factory=list)
    week: Week | None = None
    start_here: ResourceState | None = None
    week_balance: Balance | None = None
    overall_balance: Balance | None = None
    last_watched: ResourceState | None = None
    # Every resource the learner finished, and every one they coded on, path or not.
    finished: frozenset[int] = frozenset()
    coded_on: dict[int, CodedOn] = field(default_factory=dict)

    @cached_property
    def next_up(self):
        """The first step in path order neither done nor skipped, or None when all are."""
        return next((step for step in self.steps if not step.is_behind), None)

    @property
    def is_newcomer(self):
        return not any(
            step.state and (step.state.is_started or step.state.is_skipped) for step in self.steps
        )

    @property
    def shows_start_here(self):
        """A learner with nothing watched yet is shown the guide's "start here" resource."""
        return self.start_here is not None and self.is_newcomer

    @property
    def shows_next_up(self):
        """The next-up card, unless the start-here card already names the same resource."""
        if self.next_up is None:
            return False
        return not (self.shows_start_here and self.next_up.resource == self.start_here.resource)

    @property
    def code_owed(self):
        """Minutes of code the 1 : 3 rule still asks for, this week or overall (the larger)."""
        balances = [b for b in (self.week_balance, self.overall_balance) if b is not None]
        return max((balance.code_needed for balance in balances), default=0)

    @property
    def next_is_coding(self):
        """Short of the rule: next up is coding what was last watched, not another video."""
        return self.code_owed > 0 and self.last_watched is not None

    @property
    def next_up_card(self):
        """What the next-up card offers: "code", "watch", "finished" (the path is done) or ""."""
        if not self.steps:
            return ""
        if self.next_is_coding and (self.shows_next_up or self.next_up is None):
            return "code"
        if self.shows_next_up:
            return "watch"
        return "finished" if self.next_up is None else ""

    @property
    def next_up_place(self):
        """The next-up card's id prefix, one per resource, so that focus never lands on a new
        resource's button after a swap."""
        resource = self.next_up.resource if self.next_up else None
        return f"next-up-{resource.pk}" if resource else "next-up"


def states_for(user, resources) -> dict[int, ResourceState]:
    """Each resource's state for this learner, keyed by resource id, in one query."""
    watches = Watch.objects.for_learner(user).filter(resource__in=[r.pk for r in resources])
    return _states(resources, {watch.resource_id: watch for watch in watches})


def _states(resources, watches_by_resource):
    states = {}
    for resource in resources:
        watch = watches_by_resource.get(resource.pk)
        if watch is not None:
            watch.resource = resource
        states[resource.pk] = ResourceState(resource=resource, watch=watch)
    return states


def _last_watched(watches, resources_by_pk):
    """The state of the resource the learner watched last (a sitting or a finish), or None; a
    skipped one owes no code, so it is never the one to code next."""
    started = [
        watch
        for watch in watches
        if watch.resource_id in resources_by_pk
        and (watch.is_finished or watch.logged_minutes)
        and not watch.is_skipped
    ]
    if not started:
        return None
    watch = max(started, key=lambda watch: (watch.updated_at, watch.pk))
    watch.resource = resources_by_pk[watch.resource_id]
    return ResourceState(resource=watch.resource, watch=watch)


def path_progress(
    user, *, today: datetime.date | None = None, curriculum: structure.Curriculum | None = None
) -> PathProgress:
    """The learner's progress on the suggested path, in a fixed number of queries: the profile,
    the curriculum's revision token (unless curriculum is given), the watch rows, the watched and
    the coded minutes."""
    profile = Profile.objects.for_learner(user)
    curriculum = curriculum or structure.current()
    watches = list(Watch.objects.for_learner(user))
    return progress_from(
        curriculum,
        profile,
        watches,
        lambda resources: learner_minutes(user, resources, today),
        today,
    )


def progress_from(
    curriculum: structure.Curriculum,
    profile: Profile,
    watches: list[Watch],
    minutes_of: Callable[[list[Resource]], LearnerMinutes],
    today: datetime.date | None = None,
) -> PathProgress:
    """PathProgress from the learner's profile, watch rows and minutes (minutes_of counts them
    for the resources of their path); no query but what minutes_of makes."""
    layout = curriculum.layout
    resolved = resolve_steps(curriculum, layout, profile)
    resources = resources_of(curriculum, resolved)
    states = _states(resources, {watch.resource_id: watch for watch in watches})
    minutes = minutes_of(resources)
    progress = assemble(curriculum, layout, profile, resolved, states, minutes.coding, today)
    progress.week_balance = minutes.week
    progress.overall_balance = minutes.overall
    progress.last_watched = _last_watched(watches, curriculum.by_pk)
    progress.finished = frozenset(watch.resource_id for watch in watches if watch.is_finished)
    progress.coded_on = minutes.coded_on
    return progress


def architecture_advice(curriculum, profile) -> SessionAdvice:
    """The session the learner's card (or architecture) leads to: its own, or the nearest one."""
    return curriculum.session_advice(
        card_id=profile.gpu_card_id, architecture_id=profile.architecture_id
    )


def resolve_steps(curriculum, layout, profile) -> dict[int, Resource | None]:
    """The resource each step of the path resolves to for this learner, keyed by step id."""
    steps = [step for _stage, stage_steps in layout for step in stage_steps]
    session = (
        architecture_advice(curriculum, profile).session
        if any(step.is_architecture_talk for step in steps)
        else None
    )
    return {step.pk: (session if step.is_architecture_talk else step.resource) for step in steps}


def resources_of(curriculum, resolved) -> list[Resource]:
    """The distinct resources of the resolved steps, and the start-here resource."""
    resources = {r.pk: r for r in resolved.values() if r is not None}
    if curriculum.start_here is not None:
        resources.setdefault(curriculum.start_here.pk, curriculum.start_here)
    return list(resources.values())


def assemble(curriculum, layout, profile, resolved, states, coding, today) -> PathProgress:
    """PathProgress from a learner's resolved steps and resource states; no query."""
    stages = [stage for stage, _steps in layout]
    week = week_of(profile.started_on, stages, today) if curriculum.path is not None else None
    now = current_stage(stages, week) if week is not None else None
    start_here = curriculum.start_here
    progress = PathProgress(
        path=curriculum.path,
        profile=profile,
        week=week,
        start_here=states[start_here.pk] if start_here else None,
    )
    advice = architecture_advice(curriculum, profile)
    for stage, steps in layout:
        stage_progress = StageProgress(stage=stage, is_current=stage == now)
        for step in steps:
            resource = resolved[step.pk]
            step_progress = StepProgress(
                step=step,
                state=states[resource.pk] if resource else None,
                architecture_unknown=step.is_architecture_talk
                and advice.reason == SessionAdvice.Reason.NO_GPU,
                coding=coding.get(resource.pk) if resource else None,
                advice=advice if step.is_architecture_talk else None,
            )
            stage_progress.steps.append(step_progress)
            progress.steps.append(step_progress)
        progress.stages.append(stage_progress)
    return progress
