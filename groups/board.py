"""A group's board: where each member stands, and the page's view model
(templates/groups/board.jinja prints it).

The members and their figures come from two statements (groups/board_figures.py); each member's
entry is written here from the shapes of templates/groups/_board.jinja's macros, rendered once per
language with slots and filled per member, each distinct figure written once per page.
"""

from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import lru_cache
from typing import Any, cast

from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import conditional_escape
from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _
from markupsafe import Markup, escape

from groups.board_figures import (
    BoardPath,
    Figures,
    Member,
    Session,
    board_path,
    figures_of,
    members_of,
)
from groups.forms import MembershipForm
from groups.models import Membership
from lib.durations import duration_in
from lib.form_fields import FieldGroup, field_groups, non_field_errors
from lib.slots import positional, slot
from lib.urls import url_with
from progress.balance import Balance, week_start
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
    my_entry: str  # the anchor of the viewer's entry, "" when they are the only member
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


@lru_cache(maxsize=16)
def shapes_of(language: str | None, template) -> Shapes:
    """The entries' shapes in a language: built once per language and template (a template
    changed on disk while developing is a new one), the catalogues being fixed while a process
    runs."""
    macros: Any = template.module
    flags = (False, True)
    return Shapes(
        entries={
            (is_me, is_owner, listed): positional(
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
        session=positional(
            macros.session(slot("day"), slot("time"), slot("built"), ""), "day", "time", "built"
        ),
        linked_session=positional(
            macros.session(slot("day"), slot("time"), slot("built"), slot("code_url")),
            "day",
            "time",
            "built",
            "code_url",
        ),
        progress=positional(macros.progress(slot("steps"), slot("stage")), "steps", "stage"),
        progress_no_stage=positional(macros.progress(slot("steps"), ""), "steps"),
        nothing_watched=positional(macros.week(slot("sentence"), False, False, ""), "sentence"),
        met=positional(macros.week(slot("sentence"), True, True, ""), "sentence"),
        short=positional(
            macros.week(slot("sentence"), True, False, slot("needed")), "sentence", "needed"
        ),
        streak=positional(macros.streak(slot("sentence"), False), "sentence"),
        streak_coded_today=positional(macros.streak(slot("sentence"), True), "sentence"),
        active=positional(macros.activity(slot("day")), "day"),
        inactive=positional(macros.activity("")),
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

    def activity(self, when: datetime | None) -> str:
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
        my_entry=f"#member-{me.pk}" if len(lines) > 1 else "",
        fields=membership_fields(me) if form is None else field_groups(form),
        form_errors=() if form is None else non_field_errors(form),
    )
