"""A group's board: where each member stands, computed for all members in a fixed number of queries.

Path, week balance, streak and last activity come from progress's own functions for many
learners (progress/path.py, progress/balance.py, progress/stats.py); nothing is computed twice.
"""

from dataclasses import dataclass, field
from datetime import date, datetime

from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.formats import date_format

from curriculum.templatetags.curriculum import duration
from groups.models import Membership
from progress.balance import Balance, week_balances_of_learners, week_start
from progress.models import CodingSession
from progress.path import PathProgress, path_progress_of_learners
from progress.stats import current_streaks_of_learners, last_activity_of_learners

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
    sessions = {pk: [] for pk in user_ids}
    days = {}
    for row in rows:
        if row["day"] not in days:
            days[row["day"]] = date_format(row["day"], "D j")
        sessions[row["user"]].append(
            row | {"day_label": days[row["day"]], "time": duration(row["minutes"])}
        )
    return sessions


def board_rows(memberships, *, sort: str = DEFAULT_SORT, today: date | None = None):
    """The board's rows for these memberships, sorted, in seven queries whatever their number."""
    today = today or timezone.localdate()
    user_ids = [membership.user_id for membership in memberships]
    progress = path_progress_of_learners(user_ids, today=today)
    weeks = week_balances_of_learners(user_ids, today)
    streaks = current_streaks_of_learners(user_ids, today)
    last_active = last_activity_of_learners(user_ids)
    sharing = [m.user_id for m in memberships if m.shares == Membership.Shares.CODING]
    coding = coding_this_week(sharing, week_start(today)) if sharing else {}
    rows = [
        BoardRow(
            membership=membership,
            progress=progress[membership.user_id],
            week=weeks[membership.user_id],
            streak=streaks[membership.user_id],
            last_active=last_active[membership.user_id],
            coding=coding.get(membership.user_id, []),
        )
        for membership in memberships
    ]
    return sorted(rows, key=SORTS.get(sort, SORTS[DEFAULT_SORT]))
