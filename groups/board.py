"""A group's board: where each member stands, as the page's view model
(templates/groups/board.jinja prints it with the macros of templates/groups/_board.jinja).

Five queries whatever the number of members and the size of their histories: the curriculum's
revision token; the members with their profiles and their figures (steps done, the week's minutes
watched and coded, last activity, exercises passed), each a subquery of the one statement over
the memberships; the days each member coded (their streaks) with the architecture talks they
finished; this week's latest sessions of the members who share them; which exercises those
members passed. How many exercises a member passed is progress, shown to the group whatever they
share; which ones, like what they code, only when they share it. The path's steps and stages come
from the curriculum in memory (curriculum/structure.py).
"""

from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import lru_cache

from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    DateField,
    F,
    Max,
    Min,
    OuterRef,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast
from django.http import Http404
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from curriculum import structure
from groups.forms import MembershipForm
from groups.models import Membership
from lib.durations import duration
from lib.time_zone import zone_or_default
from lib.urls import url_with
from practice.models import Exercise, Submission
from progress.balance import Balance, week_bounds, week_start
from progress.models import CodingSession, Watch, WatchEvent
from progress.path import current_stage, week_of
from progress.stats import streaks

# Coding sessions shown per member who shares them, the latest first.
SESSIONS_SHOWN = 5

# ?sort= keys of the board, each with how a member's line is ordered; numbers from the highest.
# Members who show only their steps come after those who show their week, by name, on the sorts
# by a figure of the week: their place must not give away what they keep to themselves.
SORTS = {
    "name": lambda line: (line.name.casefold(),),
    "progress": lambda line: (-line.steps_done, line.name.casefold()),
    "watched": lambda line: (not line.shows_week, -line.watched_minutes, line.name.casefold()),
    "coded": lambda line: (not line.shows_week, -line.coded_minutes, line.name.casefold()),
    "streak": lambda line: (not line.shows_week, -line.streak, line.name.casefold()),
    "activity": lambda line: (-line.last_active_at,),
}
DEFAULT_SORT = "progress"


@dataclass(frozen=True, slots=True)
class SharedSession:
    """A session a member coded this week and shares, as the board lists it."""

    day: str  # "Wed 18"
    time: str
    built: str
    code_url: str  # "" for none


@dataclass(frozen=True, slots=True)
class MemberLine:
    """A member's entry on the board, every figure written out."""

    pk: int  # the membership's
    name: str
    is_me: bool
    is_owner: bool
    steps_done: int
    steps_total: int
    stage: str  # the title of the stage they are in, "" for none
    # The member shows their week (Membership.Shares.CODING). When they do not, the week's figures
    # below are empty and zero: the page never holds them.
    shows_week: bool
    watched: str  # this week's minutes, written out
    coded: str
    has_watched: bool
    is_met: bool
    needed: str  # the code still owed this week, written out
    streak: int
    coded_today: bool
    last_active: str  # the day, written long in the viewer's language; "" for none yet
    coding: tuple[SharedSession, ...]
    exercises_passed: int
    # Which exercises, for a member who shares what they code; () for one who does not.
    exercises: tuple[str, ...]
    # What the sorts compare: minutes this week, the last activity as a timestamp (0: none).
    watched_minutes: int
    coded_minutes: int
    last_active_at: float


@dataclass(frozen=True, slots=True)
class SortLink:
    label: str
    href: str
    current: bool


@dataclass(frozen=True, slots=True)
class BoardPage:
    name: str
    description: str
    monday: str
    is_owner: bool
    manage_url: str
    update_url: str
    leave_url: str
    sorts: tuple[SortLink, ...]
    members: tuple[MemberLine, ...]
    my_entry: str  # the anchor of the viewer's entry, "" when they are the only member
    form: MembershipForm  # the viewer's membership, or as it was sent with its errors


def sort_links(sort: str) -> tuple[SortLink, ...]:
    """The board's sort choices, each with its address."""
    labels = {
        "name": _("Name"),
        "progress": _("Path progress"),
        "watched": _("Watched this week"),
        "coded": _("Coded this week"),
        "streak": _("Coding streak"),
        "activity": _("Last activity"),
    }
    return tuple(SortLink(labels[key], f"?sort={key}", key == sort) for key in SORTS)


@lru_cache(maxsize=1024)
def day_in(day: date, format_name: str, language: str | None) -> str:
    """date_format() of a day in the active language (the caller passes its code): a board
    writes the same few days for every viewer."""
    return date_format(day, format_name)


@dataclass(frozen=True, slots=True)
class BoardPath:
    """What a board reads of the path, built once per curriculum revision (Curriculum.built)."""

    stages: list
    steps_total: int
    weights: dict[int, int]  # how many steps of the path each resource stands for
    talks: int  # how many steps are the architecture talk, each member's own resource


def board_path(curriculum) -> BoardPath:
    weights: dict[int, int] = {}
    talks = 0
    for _stage, steps in curriculum.layout:
        for step in steps:
            if step.is_architecture_talk:
                talks += 1
            elif step.resource_id is not None:
                weights[step.resource_id] = weights.get(step.resource_id, 0) + 1
    return BoardPath(
        stages=[stage for stage, _steps in curriculum.layout],
        steps_total=sum(len(steps) for _stage, steps in curriculum.layout),
        weights=weights,
        talks=talks,
    )


def of_member(queryset, aggregate) -> Subquery:
    """The aggregate over the member's rows of queryset, as a subquery."""
    rows = queryset.filter(user=OuterRef("user")).order_by().values("user")
    return Subquery(rows.annotate(value=aggregate).values("value"))


def members_with_figures(slug: str, path: BoardPath, today: date):
    """The group's members, the owner first, then by seniority, with their profiles and their
    figures of the week starting on today's Monday: one statement."""
    week_from, week_to = week_bounds(today)
    monday = week_start(today)
    next_monday = monday + timedelta(days=7)
    steps = Case(
        *(When(resource_id=pk, then=Value(count)) for pk, count in path.weights.items()),
        default=Value(0),
    )
    return Membership.objects.of_group(slug).annotate(
        started_on=F("user__profile__started_on"),
        time_zone=F("user__profile__time_zone"),
        architecture_id=F("user__profile__architecture_id"),
        gpu_card_id=F("user__profile__gpu_card_id"),
        watched=of_member(
            WatchEvent.objects.filter(at__gte=week_from, at__lt=week_to), Sum("minutes")
        ),
        coded=of_member(
            CodingSession.objects.filter(day__gte=monday, day__lt=next_monday), Sum("minutes")
        ),
        steps=of_member(Watch.objects.filter(finished_at__isnull=False), Sum(steps)),
        last_watched=of_member(WatchEvent.objects.all(), Max("at")),
        last_coded=of_member(CodingSession.objects.all(), Max("created_at")),
        exercises_passed=Subquery(
            Submission.objects.passed()
            .filter(learner=OuterRef("user"))
            .order_by()
            .values("learner")
            .annotate(value=Count("exercise", distinct=True))
            .values("value")
        ),
    )


def exercises_passed(user_ids) -> dict[int, list[str]]:
    """The titles of the exercises each of these members passed, first passed first."""
    passed: dict[int, list[str]] = {pk: [] for pk in user_ids}
    rows = (
        Exercise.objects.filter(
            submissions__learner__in=user_ids, submissions__verdict=Submission.Verdict.PASSED
        )
        .values_list("submissions__learner", "title")
        .annotate(first_passed_at=Min("submissions__created"))
        .order_by("first_passed_at", "title")
    )
    for user_id, title, _first in rows:
        passed[user_id].append(title)
    return passed


def days_and_talks(user_ids, talk_ids):
    """Each member's days with code, and the architecture talks among talk_ids they finished: one
    statement of (user, day or None, talk or None) rows."""
    days = (
        CodingSession.objects.filter(user__in=user_ids)
        # Typed NULLs: PostgreSQL reads an untyped one under DISTINCT as text, which no UNION
        # with the talks' ids accepts.
        .values_list("user", "day", Cast(Value(None), BigIntegerField()))
        .distinct()
        .order_by()
    )
    talks = (
        Watch.objects.filter(user__in=user_ids, resource__in=talk_ids, finished_at__isnull=False)
        .values_list("user", Cast(Value(None), DateField()), "resource")
        .order_by()
    )
    return days.union(talks, all=True).order_by()


def shared_sessions(user_ids, monday: date) -> dict[int, list[CodingSession]]:
    """This week's latest sessions of each of these members, the latest first."""
    sessions = (
        CodingSession.objects.filter(user__in=user_ids)
        .in_week(monday)
        .only("user", "day", "minutes", "built", "code_url")
        .order_by("user", "-day", "-created_at", "-pk")
    )
    latest: dict[int, list[CodingSession]] = {pk: [] for pk in user_ids}
    for session in sessions:
        listed = latest[session.user_id]
        if len(listed) < SESSIONS_SHOWN:
            listed.append(session)
    return latest


def steps_only(line: MemberLine) -> MemberLine:
    """The line of a member who shows only their steps and last activity: the week's figures
    dropped, so that neither the page nor its sorts hold them."""
    return replace(
        line,
        shows_week=False,
        watched="",
        coded="",
        has_watched=False,
        is_met=False,
        needed="",
        streak=0,
        coded_today=False,
        coding=(),
        exercises=(),
        watched_minutes=0,
        coded_minutes=0,
    )


def board_page(
    slug: str, viewer_id: int, *, sort: str, form: MembershipForm | None = None
) -> BoardPage:
    """The board of the group at slug as the member viewer_id sees it (404 for anyone else),
    sorted, with their own form (refused when given): five queries."""
    now = timezone.now()
    today = timezone.localdate()
    language = get_language()
    curriculum = structure.current()
    path = curriculum.built(board_path)
    members = list(members_with_figures(slug, path, today))
    me = next((member for member in members if member.user_id == viewer_id), None)
    if me is None:
        raise Http404
    todays: dict[str, date] = {}
    talks: dict[tuple[int | None, int | None], int | None] = {}
    for member in members:
        zone = member.time_zone or ""
        if zone not in todays:
            todays[zone] = timezone.localtime(now, zone_or_default(zone)).date()
        key = (member.gpu_card_id, member.architecture_id)
        if key not in talks:
            session = curriculum.session_advice(card_id=key[0], architecture_id=key[1]).session
            talks[key] = session.pk if session else None
    user_ids = [member.user_id for member in members]
    days: dict[int, set[date]] = {pk: set() for pk in user_ids}
    finished_talks = set()
    for user, day, talk in days_and_talks(user_ids, {pk for pk in talks.values() if pk}):
        if day is not None:
            days[user].add(day)
        else:
            finished_talks.add((user, talk))
    sharing = [m.user_id for m in members if m.shares == Membership.Shares.CODING]
    sessions = shared_sessions(sharing, week_start(today))
    passed = exercises_passed(sharing)
    stages: dict[int, str] = {}  # a stage's title by whole weeks since the start

    def stage_title(started_on: date) -> str:
        weeks = (today - started_on).days // 7
        if weeks not in stages:
            stage = (
                current_stage(path.stages, week_of(started_on, path.stages, today))
                if path.stages
                else None
            )
            stages[weeks] = stage.title if stage else ""
        return stages[weeks]

    zone = timezone.get_current_timezone()
    lines = []
    for member in members:
        member_today = todays[member.time_zone or ""]
        talk = talks[member.gpu_card_id, member.architecture_id]
        watched, coded = max(member.watched or 0, 0), max(member.coded or 0, 0)
        balance = Balance(watched=watched, coded=coded, this_week=True)
        current, _longest = streaks(days[member.user_id], member_today)
        latest = max(
            (at for at in (member.last_watched, member.last_coded) if at is not None),
            default=None,
        )
        line = MemberLine(
            pk=member.pk,
            name=member.display_name,
            is_me=member.pk == me.pk,
            is_owner=member.role == Membership.Role.OWNER,
            steps_done=(member.steps or 0)
            + (path.talks if (member.user_id, talk) in finished_talks else 0),
            steps_total=path.steps_total,
            stage=stage_title(member.started_on or today),
            shows_week=True,
            watched=duration(watched),
            coded=duration(coded),
            has_watched=balance.has_watched,
            is_met=balance.is_met,
            needed=duration(balance.code_needed),
            streak=current,
            coded_today=member_today in days[member.user_id],
            last_active=day_in(latest.astimezone(zone).date(), "DATE_FORMAT", language)
            if latest
            else "",
            coding=tuple(
                SharedSession(
                    day=day_in(session.day, "D j", language),
                    time=duration(session.minutes),
                    built=session.built,
                    code_url=session.code_url,
                )
                for session in sessions.get(member.user_id, ())
            ),
            exercises_passed=member.exercises_passed or 0,
            exercises=tuple(passed.get(member.user_id, ())),
            watched_minutes=watched,
            coded_minutes=coded,
            last_active_at=latest.timestamp() if latest else 0,
        )
        lines.append(line if member.shares == Membership.Shares.CODING else steps_only(line))
    group = me.group
    return BoardPage(
        name=group.name,
        description=group.description,
        monday=day_in(week_start(today), "j F", language),
        is_owner=me.role == Membership.Role.OWNER,
        manage_url=url_with("groups:manage", group.slug),
        update_url=url_with("groups:update_membership", group.slug),
        leave_url=url_with("groups:leave", group.slug),
        sorts=sort_links(sort),
        members=tuple(sorted(lines, key=SORTS.get(sort, SORTS[DEFAULT_SORT]))),
        my_entry=f"#member-{me.pk}" if len(lines) > 1 else "",
        form=MembershipForm(instance=me) if form is None else form,
    )
