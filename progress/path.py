"""Where a learner stands on the suggested path, derived from their Watch rows, never stored.

Everything here is computed from one fixed set of queries, whatever the size of the path, the
catalogue or the learner's history.
"""

import datetime
from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Prefetch
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone

from curriculum import structure
from curriculum.models import Pairing, Path, Resource, Stage, Step
from progress.balance import ResourceCoding, coding_by_resource
from progress.models import Profile, Watch

# From two hours on, a resource offers a sitting form beside its "watched" button.
LONG_MINUTES = 120


def guide_pairings():
    return Prefetch("pairings", queryset=Pairing.objects.select_related("part", "chapter__part"))


def path_with_pairings():
    """The suggested path with stages, steps, resources and their guide pairings prefetched."""
    pairings = Pairing.objects.select_related("part", "chapter__part")
    return (
        Path.objects.with_steps()
        .prefetch_related(Prefetch("stages__steps__resource__pairings", queryset=pairings))
        .first()
    )


def percent(part, whole):
    """part ÷ whole as a whole percentage from 0 to 100 (0 when there is nothing to do)."""
    if not whole:
        return 0
    return min(100, round(100 * part / whole))


_SLUG = "slug-placeholder"
_action_patterns = {}


def action_url(name, slug):
    """progress:<name> for one resource, reversed once per URLconf and prefix: pages list dozens."""
    key = (get_urlconf(), get_script_prefix(), name)
    pattern = _action_patterns.get(key)
    if pattern is None:
        pattern = _action_patterns[key] = reverse(f"progress:{name}", args=[_SLUG])
    return pattern.replace(_SLUG, slug)


@dataclass
class ResourceState:
    """One learner's state on one resource: what the buttons and the bars show."""

    resource: Resource
    watch: Watch | None = None

    @property
    def toggle_url(self):
        """Where the one-click button posts: marks it, or unmarks it once done."""
        if self.resource.is_followed:
            name = "mark_not_followed" if self.is_done else "mark_followed"
        else:
            name = "mark_not_watched" if self.is_done else "mark_watched"
        return action_url(name, self.resource.slug)

    @property
    def sitting_url(self):
        return action_url("log_sitting", self.resource.slug)

    @property
    def is_done(self):
        return self.watch is not None and self.watch.is_finished

    @property
    def planned_minutes(self):
        return self.resource.duration_minutes or 0

    @property
    def takes_sittings(self):
        """Long or open-ended watching is logged in sittings; shorter videos in one click."""
        duration = self.resource.duration_minutes
        return not self.resource.is_followed and (duration is None or duration >= LONG_MINUTES)

    @property
    def watched_minutes(self):
        """Watched minutes, counted no further than the resource's length for the bars."""
        if self.watch is None:
            return 0
        minutes = self.watch.watched_minutes
        return min(minutes, self.planned_minutes) if self.planned_minutes else minutes

    @property
    def is_started(self):
        return self.is_done or (self.watch is not None and self.watch.logged_minutes > 0)

    @property
    def status(self):
        """ "done", "in_progress" or "not_started"."""
        if self.is_done:
            return "done"
        return "in_progress" if self.is_started else "not_started"

    @property
    def percent(self):
        return 100 if self.is_done else percent(self.watched_minutes, self.planned_minutes)


@dataclass
class StepProgress:
    """A step of the path with the resource it resolves to for this learner, and its state."""

    step: Step
    state: ResourceState | None
    architecture_unknown: bool = False
    coding: ResourceCoding | None = None

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
    def status(self):
        return self.state.status if self.state else "not_started"

    @property
    def planned_minutes(self):
        return self.state.planned_minutes if self.state else 0

    @property
    def watched_minutes(self):
        return self.state.watched_minutes if self.state else 0

    @property
    def title(self):
        if self.step.is_architecture_talk and self.resource is not None:
            return str(self.resource)
        return self.step.display_title

    @property
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
        return self.steps_total > 0 and self.steps_done == self.steps_total


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

    @cached_property
    def next_up(self):
        """The first unfinished step in path order, or None when all are done."""
        return next((step for step in self.steps if not step.is_done), None)

    @property
    def is_newcomer(self):
        return not any(step.state and step.state.is_started for step in self.steps)

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

    def steps_for(self, resource):
        """The steps that resolve to this resource (usually one)."""
        return [step for step in self.steps if step.resource == resource]

    def stages_for(self, resource):
        return [stage for stage in self.stages if any(s.resource == resource for s in stage.steps)]


def states_for(user, resources) -> dict[int, ResourceState]:
    """Each resource's state for this learner, keyed by resource id, in one query."""
    watches = Watch.objects.for_learner(user).filter(resource__in=[r.pk for r in resources])
    by_resource = {watch.resource_id: watch for watch in watches}
    states = {}
    for resource in resources:
        watch = by_resource.get(resource.pk)
        if watch is not None:
            watch.resource = resource
        states[resource.pk] = ResourceState(resource=resource, watch=watch)
    return states


def path_progress(user, *, today: datetime.date | None = None) -> PathProgress:
    """The learner's progress on the suggested path, in a fixed number of queries."""
    profile = Profile.objects.for_learner(user)
    curriculum = structure.current()
    path = curriculum.path
    start_here = curriculum.start_here
    if path is None:
        return PathProgress(profile=profile, start_here=_state_alone(user, start_here))

    stages = list(path.stages.all())
    session = (
        curriculum.architecture_session(profile.architecture_id)
        if any(step.is_architecture_talk for stage in stages for step in stage.steps.all())
        else None
    )
    resolved = {
        step.pk: (session if step.is_architecture_talk else step.resource)
        for stage in stages
        for step in stage.steps.all()
    }
    resources = {r.pk: r for r in resolved.values() if r is not None}
    if start_here is not None:
        resources.setdefault(start_here.pk, start_here)
    states = states_for(user, list(resources.values()))
    coding = coding_by_resource(user, resources.values())

    week = week_of(profile.started_on, stages, today)
    now = current_stage(stages, week)
    progress = PathProgress(path=path, profile=profile, week=week)
    for stage in stages:
        stage_progress = StageProgress(stage=stage, is_current=stage == now)
        for step in stage.steps.all():
            resource = resolved[step.pk]
            step_progress = StepProgress(
                step=step,
                state=states[resource.pk] if resource else None,
                architecture_unknown=step.is_architecture_talk and profile.architecture is None,
                coding=coding[resource.pk] if resource else None,
            )
            stage_progress.steps.append(step_progress)
            progress.steps.append(step_progress)
        progress.stages.append(stage_progress)
    progress.start_here = states[start_here.pk] if start_here else None
    return progress


def _state_alone(user, resource):
    if resource is None:
        return None
    return states_for(user, [resource])[resource.pk]
