"""A group's board: where each member stands, computed for all members in a fixed number of
queries, and the page's view model (templates/groups/board.jinja prints it).

Path progress comes from progress's own function for many learners (progress/path.py), streaks
from progress.stats.streaks and the 1:3 rule from progress.balance.Balance; the members' week and
last activity are read in one statement (watching and coding together), their coding days in
another, whatever their number and history.
"""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import F, Max, Q, Sum, Value, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from groups.forms import MembershipForm
from groups.models import Membership, StudyGroup
from lib.durations import duration
from lib.form_fields import FieldGroup, field_groups, non_field_errors
from lib.time_zone import zone_or_default
from lib.urls import url_with
from progress.balance import Balance, week_bounds, week_start
from progress.models import CodingSession, WatchEvent
from progress.path import PathProgress, path_progress_of_learners
from progress.stats import streaks

# ?sort= keys of the board, each with how a row is ordered; numbers sort from the highest.
SORTS = {
    "name": lambda row: (row.name.casefold(),),
    "progress": lambda row: (-row.progress.steps_done, row.name.casefold()),
    "watched": lambda row: (-row.week.watched, row.name.casefold()),
    "coded": lambda row: (-row.week.coded, row.name.casefold()),
    "streak": lambda row: (-row.streak, row.name.casefold()),
    "activity": lambda row: (-(row.last_active.timestamp() if row.last_active else 0),),
}
DEFAULT_SORT = "progress"
# Coding sessions shown per member who shares them, the latest first.
SESSIONS_SHOWN = 5


@dataclass
class BoardRow:
    """One member as the board shows them: only what they chose to show."""

    membership: Membership
    progress: PathProgress
    week: Balance
    streak: int
    coded_today: bool  # in the member's own day, wherever the viewer lives
    last_active: datetime | None
    coding: list[dict] = field(default_factory=list)

    @property
    def name(self):
        return self.membership.display_name

    @property
    def current_stage(self):
        return next((stage.stage for stage in self.progress.stages if stage.is_current), None)


def coding_this_week(user_ids, monday: date) -> dict[int, list[dict]]:
    """The latest sessions each of these learners coded in the week from monday, in one query.

    At most SESSIONS_SHOWN each, with their day already written out: formatting a date per
    session in the template was most of the board's time.
    """
    latest_first = [F("day").desc(), F("created_at").desc(), F("pk").desc()]
    rows = (
        CodingSession.objects.filter(user__in=user_ids)
        .in_week(monday)
        .annotate(rank=Window(RowNumber(), partition_by="user", order_by=latest_first))
        .filter(rank__lte=SESSIONS_SHOWN)
        .order_by("user", "rank")
        .values("user", "day", "minutes", "built", "code_url")
    )
    sessions: dict[int, list[dict[str, object]]] = {pk: [] for pk in user_ids}
    days = {}
    for row in rows:
        if row["day"] not in days:
            days[row["day"]] = date_format(row["day"], "D j")
        sessions[row["user"]].append(
            row | {"day_label": days[row["day"]], "time": duration(row["minutes"])}
        )
    return sessions


def activity_of(user_ids, today: date) -> dict[tuple[str, int], tuple[int, datetime | None]]:
    """The minutes each learner watched and coded in today's week, and when they last watched
    and last logged code, keyed by ("watched" or "coded", user id), in one statement."""
    start, end = week_bounds(today)
    monday = week_start(today)
    watched = (
        WatchEvent.objects.filter(user__in=user_ids)
        .values("user")
        .annotate(
            kind=Value("watched"),
            week=Sum("minutes", filter=Q(at__gte=start, at__lt=end)),
            last=Max("at"),
        )
        .values_list("kind", "user", "week", "last")
        .order_by()
    )
    coded = (
        CodingSession.objects.filter(user__in=user_ids)
        .values("user")
        .annotate(
            kind=Value("coded"),
            week=Sum("minutes", filter=Q(day__gte=monday, day__lt=monday + timedelta(days=7))),
            last=Max("created_at"),
        )
        .values_list("kind", "user", "week", "last")
        .order_by()
    )
    rows = watched.union(coded, all=True).order_by()
    return {(kind, user): (max(week or 0, 0), last) for kind, user, week, last in rows}


def coding_days_of(todays: dict[int, date]) -> dict[int, set[date]]:
    """The days each learner coded, up to the latest of their todays, in one query."""
    days: dict[int, set[date]] = {pk: set() for pk in todays}
    rows = (
        CodingSession.objects.filter(user__in=list(todays), day__lte=max(todays.values()))
        .values_list("user", "day")
        .distinct()
        .order_by()
    )
    for user, day in rows:
        days[user].add(day)
    return days


def members_todays(progress: dict[int, PathProgress], now: datetime | None = None):
    """The day each member is living now, in the time zone of their profile (the site's without
    one)."""
    now = now or timezone.now()
    todays = {}
    for pk, member in progress.items():
        zone = zone_or_default(member.profile.time_zone if member.profile else "")
        todays[pk] = timezone.localtime(now, zone).date()
    return todays


def board_rows(memberships, *, sort: str = DEFAULT_SORT, today: date | None = None):
    """The board's rows for these memberships, sorted, in five queries whatever their number.

    The week is the viewer's (today); streaks and "coded today" are each member's own.
    """
    today = today or timezone.localdate()
    user_ids = [membership.user_id for membership in memberships]
    progress = path_progress_of_learners(user_ids, today=today)
    todays = members_todays(progress)
    activity = activity_of(user_ids, today)
    coding_days = coding_days_of(todays) if todays else {}
    sharing = [m.user_id for m in memberships if m.shares == Membership.Shares.CODING]
    coding = coding_this_week(sharing, week_start(today)) if sharing else {}
    nothing = (0, None)
    rows = []
    for membership in memberships:
        pk = membership.user_id
        watched, last_watched = activity.get(("watched", pk), nothing)
        coded, last_coded = activity.get(("coded", pk), nothing)
        rows.append(
            BoardRow(
                membership=membership,
                progress=progress[pk],
                week=Balance(watched=watched, coded=coded, this_week=True),
                streak=streaks(coding_days[pk], todays[pk])[0],
                coded_today=todays[pk] in coding_days[pk],
                last_active=max(
                    (when for when in (last_watched, last_coded) if when), default=None
                ),
                coding=coding.get(pk, []),
            )
        )
    return sorted(rows, key=SORTS.get(sort, SORTS[DEFAULT_SORT]))


@dataclass(frozen=True, slots=True)
class SessionLine:
    """A session a member coded this week, as their list shows it."""

    day: str
    time: str
    built: str
    code_url: str


@dataclass(frozen=True, slots=True)
class MemberLine:
    """A member's entry on the board, every figure written out."""

    pk: int  # the membership's
    name: str
    is_me: bool
    is_owner: bool
    steps_done: int
    steps_total: int
    stage: str  # the title of the member's current stage, "" for none
    watched: str
    coded: str
    has_watched: bool
    is_met: bool
    needed: str
    streak: int
    coded_today: bool
    last_active: str  # "" for none yet
    coding: tuple[SessionLine, ...]


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
    fields: tuple[FieldGroup, ...]
    form_errors: tuple[str, ...]


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


def member_line(row: BoardRow, me: Membership) -> MemberLine:
    stage = row.current_stage
    week = row.week
    return MemberLine(
        pk=row.membership.pk,
        name=row.name,
        is_me=row.membership.pk == me.pk,
        is_owner=row.membership.is_owner,
        steps_done=row.progress.steps_done,
        steps_total=row.progress.steps_total,
        stage=stage.title if stage else "",
        watched=duration(week.watched),
        coded=duration(week.coded),
        has_watched=week.has_watched,
        is_met=week.is_met,
        needed=duration(week.code_needed),
        streak=row.streak,
        coded_today=row.coded_today,
        last_active=(
            date_format(timezone.localtime(row.last_active), "SHORT_DATE_FORMAT")
            if row.last_active
            else ""
        ),
        coding=tuple(
            SessionLine(s["day_label"], s["time"], s["built"], s["code_url"]) for s in row.coding
        ),
    )


def board_page(
    group: StudyGroup,
    me: Membership,
    memberships: list[Membership],
    *,
    sort: str,
    form: MembershipForm | None = None,
) -> BoardPage:
    """The board of group as the member me sees it, sorted, with their own form (refused when
    given)."""
    today = timezone.localdate()
    form = form or MembershipForm(instance=me)
    rows = board_rows(memberships, sort=sort, today=today)
    return BoardPage(
        name=group.name,
        description=group.description,
        monday=date_format(week_start(today), "j F"),
        is_owner=me.is_owner,
        manage_url=url_with("groups:manage", group.slug),
        update_url=url_with("groups:update_membership", group.slug),
        leave_url=url_with("groups:leave", group.slug),
        sorts=sort_links(sort),
        members=tuple(member_line(row, me) for row in rows),
        fields=field_groups(form),
        form_errors=non_field_errors(form),
    )
