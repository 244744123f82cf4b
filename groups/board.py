"""A group's board: where each member stands, and the page's view model
(templates/groups/board.jinja prints it).

Two statements whatever the number of members and the size of their histories, both prepared on
their connection (lib/prepared.py: the figures' statement cost PostgreSQL about as much to plan
as to run): the group's members with their profiles and the curriculum's revision token, then
every member's figures aggregated in SQL (steps done on the path, the week's minutes watched and
coded, last activity, the current coding streak in the member's own day) with the latest sessions
of this week of those who share them. The path's steps, stages and the architecture talk's resource come from the
curriculum in memory (curriculum/structure.py).
"""

import datetime
import json
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, NamedTuple, cast

from django.db import connection
from django.http import Http404
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import conditional_escape
from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _
from markupsafe import Markup, escape

from curriculum import structure
from curriculum.models import Revision
from groups.forms import MembershipForm
from groups.models import Membership, StudyGroup
from lib.durations import duration_in
from lib.form_fields import FieldGroup, field_groups, non_field_errors
from lib.prepared import prepared_rows
from lib.raw_rows import day_of, instant_of
from lib.time_zone import zone_or_default
from lib.urls import url_with
from progress.balance import Balance, week_bounds, week_start
from progress.models import CodingSession, Profile, Watch, WatchEvent
from progress.path import current_stage, week_of

# ?sort= keys of the board, each with how a member's line is ordered; numbers from the highest.
SORTS = {
    "name": lambda line: (line.name.casefold(),),
    "progress": lambda line: (-line.steps_done, line.name.casefold()),
    "watched": lambda line: (-line.watched_minutes, line.name.casefold()),
    "coded": lambda line: (-line.coded_minutes, line.name.casefold()),
    "streak": lambda line: (-line.streak, line.name.casefold()),
    "activity": lambda line: (-line.last_active_at,),
}
DEFAULT_SORT = "progress"
# A member's sentences, translated once per language (shapes_of).
STEPS = gettext_noop("Steps: %(done)s of %(total)s")
WEEK = gettext_noop("%(watched)s watched, %(coded)s coded")
SHORT = gettext_noop("%(needed)s of code short of 1:3")
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

# What differs between the databases: the day before a day, the latest of two instants either of
# which may be NULL (SQLite's max() of several is NULL when one is), and a member's sessions as
# one JSON list (PostgreSQL keeps an aggregate's order only when told; SQLite takes its
# subquery's).
DIALECTS = {
    "postgresql": {
        "previous_day": "{} - 1",
        "latest": "GREATEST({0}, {1})",
        "sessions": "json_agg(json_build_array(c.day, c.minutes, c.built, c.code_url) "
        "ORDER BY c.day DESC, c.created_at DESC, c.id DESC)",
    },
    "sqlite": {
        "previous_day": "date({}, '-1 day')",
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
        previous_day=dialect["previous_day"].format("r.day"),
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


@dataclass(slots=True)
class MemberLine:
    """A member's entry on the board, every figure written out."""

    pk: int  # the membership's
    name: str
    is_me: bool
    is_owner: bool
    # The member's entry as the board prints it, from the macros of templates/groups/_board.jinja;
    # within it, their path, week, streak and last activity (each distinct one written once).
    html: Markup
    figures: str
    coding: list[Session]
    # What the sorts compare: minutes this week, the last activity as a timestamp (0: none).
    steps_done: int
    watched_minutes: int
    coded_minutes: int
    streak: int
    coded_today: bool
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


# Between a member's figures, as the template's lines were indented.
BETWEEN_FIGURES = "\n      "


def slot(name: str) -> Markup:
    """Where a value goes in a shape (no translation or template holds a NUL)."""
    return Markup(f"\x00{name}\x00")


@dataclass(frozen=True, slots=True)
class Shapes:
    """A member's entry as templates/groups/_board.jinja writes it in one language, each variant a
    format string with a positional field for each of its values (escaped HTML), in the order
    noted, and the sentences that go in them, translated."""

    # By (is the viewer, is the owner, has sessions listed): pk, name, figures, sessions.
    entries: dict[tuple[bool, bool, bool], str]
    session: str  # day, time, built
    linked_session: str  # day, time, built, code_url
    progress: str  # steps, stage
    progress_no_stage: str  # steps
    nothing_watched: str  # sentence
    met: str  # sentence
    short: str  # sentence, needed
    streak: str  # sentence
    streak_coded_today: str  # sentence
    active: str  # day
    inactive: str
    # Sentences as %-format strings for values already escaped (their own text is HTML).
    steps: str
    week: str
    needed: str


def shape(html: Markup, *names: str) -> str:
    """A variant as a plain format string, a positional field for each of its slots in the order
    of names: Markup's own format would escape again, slowly, and str.format fills positions
    twice as fast as names."""
    text = str.replace(html, "{", "{{").replace("}", "}}")
    for position, name in enumerate(names):
        text = text.replace(f"\x00{name}\x00", f"{{{position}}}")
    if "\x00" in text:
        raise ValueError(f"{text!r} has a slot that is not among {names}")
    return text


@lru_cache(maxsize=16)
def shapes_of(language: str | None, template) -> Shapes:
    """The entries' shapes in a language: built once per language and template (a template
    changed on disk while developing is a new one), the catalogues being fixed while a process
    runs."""
    macros: Any = template.module
    flags = (False, True)
    return Shapes(
        entries={
            (is_me, is_owner, listed): shape(
                macros.member(
                    slot("pk"),
                    slot("name"),
                    is_me,
                    is_owner,
                    slot("figures"),
                    slot("sessions") if listed else "",
                ),
                "pk",
                "name",
                "figures",
                "sessions",
            )
            for is_me in flags
            for is_owner in flags
            for listed in flags
        },
        session=shape(
            macros.session(slot("day"), slot("time"), slot("built"), ""), "day", "time", "built"
        ),
        linked_session=shape(
            macros.session(slot("day"), slot("time"), slot("built"), slot("code_url")),
            "day",
            "time",
            "built",
            "code_url",
        ),
        progress=shape(macros.progress(slot("steps"), slot("stage")), "steps", "stage"),
        progress_no_stage=shape(macros.progress(slot("steps"), ""), "steps"),
        nothing_watched=shape(macros.week(slot("sentence"), False, False, ""), "sentence"),
        met=shape(macros.week(slot("sentence"), True, True, ""), "sentence"),
        short=shape(
            macros.week(slot("sentence"), True, False, slot("needed")), "sentence", "needed"
        ),
        streak=shape(macros.streak(slot("sentence"), False), "sentence"),
        streak_coded_today=shape(macros.streak(slot("sentence"), True), "sentence"),
        active=shape(macros.activity(slot("day")), "day"),
        inactive=shape(macros.activity("")),
        steps=_(STEPS),
        week=_(WEEK),
        needed=_(SHORT),
    )


# A board writes the same few days on every page (today, this week's): each is worded once per
# process, format and language (Django's date_format takes some 15 us), the catalogues being
# fixed while a process runs.
@lru_cache(maxsize=1024)
def day_in(day: date, format_name: str, language: str | None) -> str:
    """date_format() of a day for a caller that read the language (the active one)."""
    return date_format(day, format_name)


# A board writes a hundred lengths of time, most of them different: each is written as HTML once
# per process and language, as lib/durations words them.
@lru_cache(maxsize=4096)
def duration_html(minutes: int, language: str | None) -> str:
    return escape(duration_in(minutes, language))


# Most of a board's weeks differ (minutes watched and coded), but they come back on every view of
# the board: each is written once per process, language and template.
@lru_cache(maxsize=4096)
def week_html(watched: int, coded: int, language: str | None, template) -> str:
    shapes = shapes_of(language, template)
    balance = Balance(watched=watched, coded=coded, this_week=True)
    variables = {
        "watched": duration_html(watched, language),
        "coded": duration_html(coded, language),
    }
    sentence = shapes.week % variables
    if not balance.has_watched:
        return shapes.nothing_watched.format(sentence)
    if balance.is_met:
        return shapes.met.format(sentence)
    needed = shapes.needed % {"needed": duration_html(balance.code_needed, language)}
    return shapes.short.format(sentence, needed)


def board_template():
    env = cast(Jinja2, engines["jinja2"]).env
    return env.get_template("groups/_board.jinja")


class Writer:
    """Members' entries written out for one page, each distinct figure once: many members share a
    step count, a week's minutes, a streak, a day or a stage."""

    def __init__(self, path: BoardPath, today: date):
        self.path, self.today = path, today
        self.language, self.template = get_language(), board_template()
        self.shapes = shapes_of(self.language, self.template)
        self.days: dict[date, str] = {}
        self.progresses: dict[tuple[int, str], str] = {}
        self.streaks: dict[tuple[int, bool], str] = {}
        self.activities: dict[date | None, str] = {}
        self.zone = timezone.get_current_timezone()

    def entry(self, member: Member, is_me: bool, figures: str, sessions: list[Session]) -> str:
        """A member's whole entry: values escaped once, filled in their variant's shape."""
        shape = self.shapes.entries[is_me, member.is_owner, bool(sessions)]
        return shape.format(
            member.pk,
            escape(member.name),
            figures,
            "".join([self.session(session) for session in sessions]) if sessions else "",
        )

    def session(self, session: Session) -> str:
        day, time, built = self.day(session.day), self.duration(session.minutes), session.built
        if session.code_url:
            return self.shapes.linked_session.format(
                day, time, escape(built), escape(session.code_url)
            )
        return self.shapes.session.format(day, time, escape(built))

    def figures(self, member: Member, figures: Figures, last_active) -> str:
        return BETWEEN_FIGURES.join(
            (
                self.progress(figures.steps_done, member.started_on),
                self.week(figures.watched, figures.coded),
                self.streak(figures.streak, figures.coded_today),
                self.activity(last_active),
            )
        )

    def progress(self, steps_done: int, started_on: date) -> str:
        """Steps done of the path and the stage of a member who started on that day: once per
        step count and stage (members start in many weeks, and are in few stages)."""
        title = self.stage_title_from(started_on)
        key = (steps_done, title)
        if key not in self.progresses:
            steps = self.shapes.steps % {"done": steps_done, "total": self.path.steps_total}
            if title:
                self.progresses[key] = self.shapes.progress.format(steps, title)
            else:
                self.progresses[key] = self.shapes.progress_no_stage.format(steps)
        return self.progresses[key]

    def stage_title_from(self, started_on: date) -> str:
        """The title of the stage a member who started on that day is in, as HTML ("": none):
        once per week of the path (the whole weeks since the start make it) and revision."""
        weeks = (self.today - started_on).days // 7
        titles = self.path.titles
        if weeks not in titles:
            stages = self.path.stages
            stage = (
                current_stage(stages, week_of(started_on, stages, self.today)) if stages else None
            )
            titles[weeks] = escape(stage.title if stage else "")
        return titles[weeks]

    def week(self, watched: int, coded: int) -> str:
        return week_html(watched, coded, self.language, self.template)

    def streak(self, days: int, coded_today: bool) -> str:
        key = (days, coded_today)
        if key not in self.streaks:
            sentence = ngettext("%(days)s day", "%(days)s days", days)
            written = sentence % {"days": days, "num": days}
            shape = self.shapes.streak_coded_today if coded_today else self.shapes.streak
            self.streaks[key] = shape.format(written)
        return self.streaks[key]

    def activity(self, when: datetime.datetime | None) -> str:
        """The day of a member's last activity in the viewer's time zone (none yet: None)."""
        day = when.astimezone(self.zone).date() if when is not None else None
        if day not in self.activities:
            if day is None:
                self.activities[day] = self.shapes.inactive
            else:
                written = escape(day_in(day, "SHORT_DATE_FORMAT", self.language))
                self.activities[day] = self.shapes.active.format(written)
        return self.activities[day]

    def duration(self, minutes: int) -> str:
        return duration_html(minutes, self.language)

    def day(self, day: date) -> str:
        """A day of a coding session as HTML."""
        if day not in self.days:
            self.days[day] = escape(day_in(day, "D j", self.language))
        return self.days[day]


def member_line(member: Member, figures: Figures, my_pk: int, write: Writer) -> MemberLine:
    last_active = figures.last_active
    is_me = member.pk == my_pk
    written = write.figures(member, figures, last_active)
    return MemberLine(
        pk=member.pk,
        name=member.name,
        is_me=is_me,
        is_owner=member.is_owner,
        html=Markup(write.entry(member, is_me, written, figures.sessions)),
        figures=written,
        coding=figures.sessions,
        steps_done=figures.steps_done,
        watched_minutes=figures.watched,
        coded_minutes=figures.coded,
        streak=figures.streak,
        coded_today=figures.coded_today,
        last_active_at=last_active.timestamp() if last_active else 0,
    )


# Where the viewer's name goes in their form, written once per language and choice of what they
# show (PostgreSQL's text holds no NUL, so no name does).
NAME_SLOT = "\x00name\x00"


@lru_cache(maxsize=16)
def blank_membership_fields(language: str | None, shares: str) -> tuple[FieldGroup, ...]:
    """The fields of a member's form with this choice ticked, the value of their name a slot:
    a form's fields take Django some 0.3 ms to write, on every board."""
    return field_groups(MembershipForm(initial={"display_name": NAME_SLOT, "shares": shares}))


def membership_fields(me: Membership) -> tuple[FieldGroup, ...]:
    """field_groups(MembershipForm(instance=me)): the viewer's own form, their name escaped as
    Django's widgets escape it."""
    if not me.display_name:  # an input writes no value at all for an empty one
        return field_groups(MembershipForm(instance=me))
    name = conditional_escape(me.display_name)
    return tuple(
        replace(group, widget=Markup(str.replace(group.widget, NAME_SLOT, name)))
        if NAME_SLOT in group.widget
        else group
        for group in blank_membership_fields(get_language(), me.shares)
    )


def board_page(
    slug: str, viewer_id: int, *, sort: str, form: MembershipForm | None = None
) -> BoardPage:
    """The board of the group at slug as the member viewer_id sees it (404 for anyone else),
    sorted, with their own form (refused when given): two statements."""
    today = timezone.localdate()
    curriculum, me, members = members_of(slug, viewer_id)
    path = curriculum.built(board_path)
    figures = figures_of(members, path.weights, path.talks, today)
    write = Writer(path, today)
    lines = [member_line(member, figures[member.user_id], me.pk, write) for member in members]
    group = me.group
    return BoardPage(
        name=group.name,
        description=group.description,
        monday=day_in(week_start(today), "j F", get_language()),
        is_owner=me.is_owner,
        manage_url=url_with("groups:manage", group.slug),
        update_url=url_with("groups:update_membership", group.slug),
        leave_url=url_with("groups:leave", group.slug),
        sorts=sort_links(sort),
        members=tuple(sorted(lines, key=SORTS.get(sort, SORTS[DEFAULT_SORT]))),
        fields=membership_fields(me) if form is None else field_groups(form),
        form_errors=() if form is None else non_field_errors(form),
    )
