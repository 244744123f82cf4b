"""A group's members and their figures, as the board reads them (groups/board.py writes them).

Two statements whatever the number of members and the size of their histories, both prepared on
their connection (lib/prepared.py: the figures' statement cost PostgreSQL about as much to plan
as to run): the group's members with their profiles and the curriculum's revision token, then
every member's figures aggregated in SQL (steps done on the path, the week's minutes watched and
coded, last activity, the current coding streak in the member's own day) with the latest sessions
of this week of those who share them. The path's steps, stages and the architecture talk's
resource come from the curriculum in memory (curriculum/structure.py).
"""

import datetime
import json
from dataclasses import dataclass
from datetime import date, timedelta
from typing import NamedTuple

from django.db import connection
from django.http import Http404
from django.utils import timezone

from curriculum import structure
from curriculum.models import Revision
from groups.models import Membership, StudyGroup
from lib.prepared import prepared_rows
from lib.raw_rows import day_before, day_of, instant_of
from lib.time_zone import zone_or_default
from progress.balance import week_bounds, week_start
from progress.models import CodingSession, Profile, Watch, WatchEvent

# Coding sessions shown per member who shares them, the latest first.
SESSIONS_SHOWN = 5

# The viewer's membership and the group as the page reads them: the instants they were joined and
# created are left out (deferred), the page shows neither and the driver reads each instant in
# Python, a hundred a board.
MEMBERSHIP_FIELDS = ["id", "group_id", "user_id", "role", "display_name", "shares"]
GROUP_FIELDS = ["id", "name", "slug", "description"]

# The owner first, then by seniority (MembershipQuerySet.of_group's order).
MEMBERS_SQL = f"""
SELECT m.id, m.group_id, m.user_id, m.role, m.display_name, m.shares,
       g.name, g.slug, g.description,
       p.started_on, p.time_zone, p.architecture_id, p.gpu_card_id,
       (SELECT token FROM {Revision._meta.db_table} ORDER BY id LIMIT 1)
  FROM {Membership._meta.db_table} m
  JOIN {StudyGroup._meta.db_table} g ON g.id = m.group_id
  LEFT JOIN {Profile._meta.db_table} p ON p.user_id = m.user_id
 WHERE g.slug = %s
 ORDER BY m.role DESC, m.joined_at, m.id
"""

# What differs between the databases, beside the day before a day (lib.raw_rows.day_before): the
# latest of two instants either of which may be NULL (SQLite's max() of several is NULL when one
# is), and a member's sessions as one JSON list (PostgreSQL keeps an aggregate's order only when
# told; SQLite takes its subquery's).
DIALECTS = {
    "postgresql": {
        "latest": "GREATEST({0}, {1})",
        "sessions": "json_agg(json_build_array(c.day, c.minutes, c.built, c.code_url) "
        "ORDER BY c.day DESC, c.created_at DESC, c.id DESC)",
    },
    "sqlite": {
        "latest": "MAX(COALESCE({0}, {1}), COALESCE({1}, {0}))",
        "sessions": "json_group_array(json_array(c.day, c.minutes, c.built, c.code_url))",
    },
}

CODING, EVENTS, WATCHES = (
    CodingSession._meta.db_table,
    WatchEvent._meta.db_table,
    Watch._meta.db_table,
)

# One row per member. members: (user, their today and yesterday, the resource their architecture
# talk resolves to, whether they share their coding); steps_of: how many steps of the path a
# finished resource stands for (the architecture talk's left out: it is each member's own),
# written from the curriculum. A streak: from the member's today or yesterday if they coded then
# (otherwise there is none), back one day at a time while the day before was coded too (an index
# probe per day of the run, none for the rest of the history). The last activity is the latest of
# the last watching and the last coding, one instant (the driver reads each in Python). The week's
# latest sessions of those who share them come as one JSON list: (day, minutes, built, code_url).
FIGURES_SQL = """
WITH RECURSIVE members(user_id, today, yesterday, talk_id, shares) AS ({members}),
run(user_id, day) AS (
  SELECT m.user_id,
         (SELECT MAX(c.day) FROM {coding} c
           WHERE c.user_id = m.user_id AND c.day <= m.today AND c.day >= m.yesterday)
    FROM members m
  UNION ALL
  SELECT r.user_id, {previous_day} FROM run r
   WHERE EXISTS (SELECT 1 FROM {coding} c WHERE c.user_id = r.user_id AND c.day = {previous_day})
),
streaks AS (
  SELECT user_id, COUNT(day) AS length, MAX(day) AS last FROM run GROUP BY user_id
)
SELECT m.user_id,
       (SELECT SUM(e.minutes) FROM {events} e
         WHERE e.user_id = m.user_id AND e.at >= %(week_from)s AND e.at < %(week_to)s),
       (SELECT SUM(c.minutes) FROM {coding} c
         WHERE c.user_id = m.user_id AND c.day >= %(monday)s AND c.day < %(next_monday)s),
       {last_active},
       (SELECT COALESCE(SUM({steps_of} + CASE WHEN w.resource_id = m.talk_id
                                              THEN %(talks)s ELSE 0 END), 0)
          FROM {watches} w WHERE w.user_id = m.user_id AND w.finished_at IS NOT NULL),
       s.length, s.last,
       CASE WHEN m.shares THEN (
         SELECT {sessions} FROM (
           SELECT c.day, c.minutes, c.built, c.code_url, c.created_at, c.id FROM {coding} c
            WHERE c.user_id = m.user_id AND c.day >= %(monday)s AND c.day < %(next_monday)s
            ORDER BY c.day DESC, c.created_at DESC, c.id DESC LIMIT {shown}
         ) c
       ) END
  FROM members m LEFT JOIN streaks s ON s.user_id = m.user_id
"""
LAST_WATCHED = "(SELECT MAX(e.at) FROM {events} e WHERE e.user_id = m.user_id)"
LAST_CODED = "(SELECT MAX(c.created_at) FROM {coding} c WHERE c.user_id = m.user_id)"


# A board's rows (Member, Figures, MemberLine) are not frozen: a frozen dataclass sets each field
# through object.__setattr__, four times slower, and a board makes fifty of each.
@dataclass(slots=True)
class Member:
    """A member as the members' statement reads them."""

    pk: int  # the membership's
    user_id: int
    name: str
    is_owner: bool
    shares_coding: bool
    today: date  # the day the member is living now, in the time zone of their profile
    started_on: date
    talk_id: int | None  # the resource the path's architecture talk is for them


class Session(NamedTuple):
    """A session a member coded this week and shares."""

    day: date
    minutes: int
    built: str
    code_url: str


@dataclass(slots=True)
class Figures:
    """A member's figures as the figures' statement sums them."""

    watched: int
    coded: int
    last_active: datetime.datetime | None  # watching or coding
    steps_done: int
    streak: int
    coded_today: bool
    sessions: list[Session]


def members_of(slug: str, viewer_id: int, now: datetime.datetime | None = None):
    """The group at slug's members and the viewer's membership (404 when not one), the owner
    first, then by seniority, with the curriculum at the revision read with them: one statement."""
    now = now or timezone.now()
    rows = prepared_rows(MEMBERS_SQL, [slug])
    if not any(row[2] == viewer_id for row in rows):
        raise Http404
    curriculum = structure.at_revision(rows[0][13])
    group = StudyGroup.from_db(connection.alias, GROUP_FIELDS, [rows[0][1], *rows[0][6:9]])
    advice, zones, members, me = {}, {}, [], None
    default_start = timezone.localdate()
    for row in rows:
        started_on, zone, architecture, card = row[9:13]
        if zone not in zones:
            zones[zone] = timezone.localtime(now, zone_or_default(zone or "")).date()
        if (card, architecture) not in advice:
            session = curriculum.session_advice(card_id=card, architecture_id=architecture).session
            advice[card, architecture] = session.pk if session else None
        members.append(
            Member(
                pk=row[0],
                user_id=row[2],
                name=row[4],
                is_owner=row[3] == Membership.Role.OWNER,
                shares_coding=row[5] == Membership.Shares.CODING,
                today=zones[zone],
                started_on=day_of(started_on) if started_on else default_start,
                talk_id=advice[card, architecture],
            )
        )
        if row[2] == viewer_id:
            me = Membership.from_db(connection.alias, MEMBERSHIP_FIELDS, row[:6])
            me.group = group
    return curriculum, me, members


def path_weights(layout) -> tuple[dict[int, int], int]:
    """How many steps of the path each resource stands for, and how many are the architecture
    talk (each member's own resource)."""
    weights: dict[int, int] = {}
    talks = 0
    for _stage, steps in layout:
        for step in steps:
            if step.is_architecture_talk:
                talks += 1
            elif step.resource_id is not None:
                weights[step.resource_id] = weights.get(step.resource_id, 0) + 1
    return weights, talks


@dataclass(frozen=True, slots=True)
class BoardPath:
    """What a board reads of the path, built once per revision of the curriculum (and language:
    Curriculum.built) rather than on every board."""

    stages: list
    steps_total: int
    weights: dict[int, int]
    talks: int
    # The title of the stage (as HTML, "" for none) of each week since a start, filled as boards
    # meet them: the same few dozen weeks on every board. Two threads may both fill a week on a
    # miss: the same value.
    titles: dict[int, str]


def board_path(curriculum) -> BoardPath:
    layout = curriculum.layout
    weights, talks = path_weights(layout)
    return BoardPath(
        stages=[stage for stage, _steps in layout],
        steps_total=sum(len(steps) for _stage, steps in layout),
        weights=weights,
        talks=talks,
        titles={},
    )


def steps_of(weights: dict[int, int]) -> str:
    """How many steps of the path the watch row w's resource stands for, as SQL: numbers from
    the curriculum, written in the statement."""
    if not weights:
        return "0"
    cases = " ".join(f"WHEN {int(pk)} THEN {int(steps)}" for pk, steps in weights.items())
    return f"CASE w.resource_id {cases} ELSE 0 END"


def array_literal(values) -> str:
    """Numbers, days, booleans and NULLs as one PostgreSQL array literal: the driver quotes one
    string instead of adapting fifty values one by one."""
    return "{" + ",".join(map(array_item, values)) + "}"


def array_item(value) -> str:
    # Compared by identity: 1 == True, and a user's id may be 1.
    if value is None:
        return "NULL"
    if value is True or value is False:
        return "t" if value else "f"
    return str(value)


def figures_sql(members: list[Member], weights: dict[int, int]) -> tuple[str, dict]:
    """The figures' statement for these members, with its members' parameters: arrays on
    PostgreSQL (a statement of the same text whatever the members), a VALUES list elsewhere."""
    dialect = DIALECTS.get(connection.vendor, DIALECTS["postgresql"])
    if connection.vendor == "postgresql":
        member_rows = (
            "SELECT user_id, today, today - 1, talk_id, shares FROM unnest("
            "CAST(%(users)s AS integer[]), CAST(%(todays)s AS date[]), "
            "CAST(%(talk_ids)s AS integer[]), CAST(%(shares)s AS boolean[])"
            ") AS m(user_id, today, talk_id, shares)"
        )
        params: dict[str, object] = {
            "users": array_literal(member.user_id for member in members),
            "todays": array_literal(member.today for member in members),
            "talk_ids": array_literal(member.talk_id for member in members),
            "shares": array_literal(member.shares_coding for member in members),
        }
    else:
        params = {}
        member_values = []
        for index, member in enumerate(members):
            member_values.append(
                # A day as ISO text, as SQLite stores it (its CAST AS date makes it a number).
                f"(CAST(%(u{index})s AS integer), %(d{index})s, %(y{index})s, "
                f"CAST(%(t{index})s AS integer), %(s{index})s)"
            )
            params |= {
                f"u{index}": member.user_id,
                f"d{index}": member.today,
                f"y{index}": member.today - timedelta(days=1),
                f"t{index}": member.talk_id,
                f"s{index}": member.shares_coding,
            }
        member_rows = "VALUES " + ", ".join(member_values)
    sql = FIGURES_SQL.format(
        members=member_rows,
        steps_of=steps_of(weights),
        coding=CODING,
        events=EVENTS,
        watches=WATCHES,
        previous_day=day_before("r.day", connection.vendor),
        last_active=dialect["latest"].format(
            LAST_WATCHED.format(events=EVENTS), LAST_CODED.format(coding=CODING)
        ),
        sessions=dialect["sessions"],
        shown=SESSIONS_SHOWN,
    )
    return sql, params


def sessions_of(listed) -> list[Session]:
    """A member's sessions from the statement's JSON list (PostgreSQL's driver reads it, SQLite's
    gives its text), the latest first."""
    if isinstance(listed, str):
        listed = json.loads(listed)
    return [
        Session(date.fromisoformat(day), minutes, built, code_url)
        for day, minutes, built, code_url in listed or ()
    ]


def figures_of(members: list[Member], weights, talks, today: date) -> dict[int, Figures]:
    """Every member's figures, keyed by user id, in one statement: the week is the viewer's
    (today), streaks and "coded today" each member's own."""
    ops = connection.ops
    week_from, week_to = week_bounds(today)
    monday = week_start(today)
    sql, params = figures_sql(members, weights)
    params |= {
        "week_from": ops.adapt_datetimefield_value(week_from),
        "week_to": ops.adapt_datetimefield_value(week_to),
        "monday": monday,
        "next_monday": monday + timedelta(days=7),
        "talks": talks,
    }
    rows = prepared_rows(sql, params)
    todays = {member.user_id: member.today for member in members}
    figures: dict[int, Figures] = {}
    for user, watched, coded, last_active, steps, streak, last, sessions in rows:
        last = day_of(last)
        figures[user] = Figures(
            watched=max(watched or 0, 0),
            coded=max(coded or 0, 0),
            last_active=instant_of(last_active),
            steps_done=steps or 0,
            streak=streak if last is not None else 0,
            coded_today=last == todays[user],
            sessions=sessions_of(sessions),
        )
    return figures
