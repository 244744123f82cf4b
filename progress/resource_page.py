"""The resource page's view model (templates/progress/resource.jinja) and the blocks its htmx
answers swap: the watch controls, the sittings, the balance, the coding block and the note.

What is the same for every learner (the article's heading, its introduction and its facts, links,
guide and series sections) is written once per curriculum revision and language, resource by
resource as they are asked for (`Curriculum.built`, dropped when a curator's edit renews the
token); the learner's part is progress/resource_learner.py's one statement.
"""

import threading
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import quote

import markupsafe
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.template.defaultfilters import capfirst, linebreaks_filter, linebreaksbr, urlize
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.timezone import localtime
from django.utils.translation import get_language, gettext
from markupsafe import Markup

from curriculum.models import Resource
from curriculum.structure import PathStep
from lib.durations import day_label, duration, video_time
from lib.form_fields import field_groups
from lib.slots import Slotted, slot
from lib.urls import url_for_each, url_with
from progress.forms import NoteForm
from progress.models import Note
from progress.pages import (
    WatchControls,
    balance_html,
    blank_coding_form,
    refused_coding_form,
    watch_controls,
)
from progress.path import RESUME_LEAD_SECONDS, ResourceState
from progress.player import requested_start
from progress.resource_learner import LearnerRows


def _macros() -> Any:
    env = cast(Jinja2, engines["jinja2"]).env
    return env.get_template("progress/_resource.jinja").module


# The curriculum's part


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    url: str


@dataclass(frozen=True, slots=True)
class Pairing:
    before: bool
    place: str
    url: str


@dataclass(frozen=True, slots=True)
class ResourceText:
    """Every word of one resource that the page prints the same for everyone: the input of
    the macros that write the article's curriculum-only HTML once."""

    slug: str
    title: str
    heading: str  # "#15 · Title"
    series_name: str
    series_url: str
    watch_link: str  # an address off YouTube's player, for resources without a video
    is_start_here: bool
    start_here_reason: Markup
    summary: Markup
    kind: str
    is_advanced: bool
    topic: str
    path_stage: str
    path_url: str
    path_note: str
    speaker: str
    is_followed: bool
    duration: str
    architectures: tuple[Link, ...]
    keywords: tuple[Link, ...]
    search: Link | None
    search_terms: str
    links: tuple[Link, ...]
    pairings: tuple[Pairing, ...]
    has_series_section: bool
    series_description: Markup
    series_links: tuple[Link, ...]


def resource_text(resource: Resource, path_step: PathStep | None) -> ResourceText:
    series = resource.series
    catalogue = reverse("progress:catalogue")
    search = resource.search_link
    path_url = reverse("progress:path")
    return ResourceText(
        slug=resource.slug,
        title=resource.title,
        heading=(
            f"#{resource.number} · {resource.title}"
            if resource.number is not None
            else resource.title
        ),
        series_name=series.name if series else "",
        series_url=series.get_absolute_url() if series else "",
        watch_link="" if resource.has_video else resource.watch_link,
        is_start_here=resource.is_start_here,
        start_here_reason=Markup(linebreaks_filter(resource.start_here_reason)),
        summary=Markup(linebreaksbr(urlize(resource.summary))),
        kind=capfirst(resource.get_kind_display()),
        is_advanced=resource.is_advanced,
        topic=resource.topic,
        path_stage=path_step.stage.title if path_step else "",
        path_url=f"{path_url}#stage-{path_step.stage.pk}" if path_step else "",
        path_note=path_step.step.note if path_step else "",
        speaker=resource.speaker,
        is_followed=resource.is_followed,
        duration=duration(resource.duration_minutes) if resource.duration_minutes else "",
        architectures=tuple(
            Link(str(architecture), architecture.get_absolute_url())
            for architecture in resource.architectures.all()
        ),
        keywords=tuple(
            Link(keyword, f"{catalogue}?q={quote(keyword, safe='/')}")
            for keyword in resource.keyword_list
        ),
        search=Link(str(search.label), search.url) if search else None,
        search_terms=resource.search_terms or resource.title,
        links=tuple(Link(str(label), url) for label, url in resource.links()),
        pairings=tuple(
            Pairing(pairing.timing == "before", str(pairing.place), pairing.get_absolute_url())
            for pairing in resource.pairings.all()
        ),
        has_series_section=bool(series and (series.description or series.links())),
        series_description=Markup(linebreaks_filter(urlize(series.description)) if series else ""),
        series_links=tuple(Link(str(label), url) for label, url in series.links())
        if series
        else (),
    )


@dataclass(frozen=True, slots=True)
class ResourceArticle:
    """One resource's curriculum-only parts, in one language."""

    slug: str
    title: str
    has_video: bool
    video_id: str
    watch_url: str
    top: Markup  # the breadcrumb and the heading
    intro: Markup  # the link to watch elsewhere, why start here, the summary
    details: Markup  # the facts, the links, the guide and the series


class Articles:
    """The articles of one curriculum revision in one language, written on first demand."""

    def __init__(self, curriculum):
        self.curriculum = curriculum
        self.by_slug: dict[str, ResourceArticle] = {}
        self.lock = threading.Lock()
        # By slug, then whether it records, starts further on and has a resume point.
        self.players: dict[tuple[str, bool, bool, bool], Slotted] = {}

    def of(self, resource: Resource) -> ResourceArticle:
        article = self.by_slug.get(resource.slug)
        if article is None:
            with self.lock:
                article = self.by_slug[resource.slug] = self.write(resource)
        return article

    def write(self, resource: Resource) -> ResourceArticle:
        text = resource_text(resource, self.curriculum.path_steps.get(resource.pk))
        macros = _macros()
        return ResourceArticle(
            slug=resource.slug,
            title=resource.title,
            has_video=resource.has_video,
            video_id=resource.video_id,
            watch_url=resource.watch_url,
            top=Markup(macros.top(text)),
            intro=Markup(macros.intro(text)),
            details=Markup(macros.details(text)),
        )

    def player_shape(self, article: ResourceArticle, shape: tuple[bool, bool, bool]) -> Slotted:
        """The article's player in one of its eight shapes, a slot for each of its values."""
        key = (article.slug, *shape)
        player = self.players.get(key)
        if player is None:
            records, starts, resumes = shape
            slots = {
                "start_seconds": slot("start_seconds"),
                "start": slot("start") if starts else "",
                "resume": slot("resume") if resumes else "",
                "record_url": slot("record_url") if records else "",
            }
            player = self.players[key] = Slotted.cut(_macros().player(article, slots))
        return player


def articles(curriculum) -> Articles:
    """Built once per curriculum revision and language (Curriculum.built)."""
    return Articles(curriculum)


# The learner's part


def player(articles: Articles, article: ResourceArticle, rows: LearnerRows | None, asked: str):
    """The video's player (_resource.jinja's player) for a learner (rows) or a visitor (None):
    where it starts (asked is the address's ?t=), where the learner stopped, where beats go."""
    resume = rows.watch.resume_seconds if rows and rows.watch else 0
    wanted = requested_start(asked)
    start = wanted if wanted is not None else max(resume - RESUME_LEAD_SECONDS, 0)
    records = rows is not None and rows.records_viewing
    shape = articles.player_shape(article, (records, bool(start), bool(resume)))
    return shape.markup(
        {
            "start_seconds": str(start),
            "start": markupsafe.escape(video_time(start)) if start else "",
            "resume": markupsafe.escape(video_time(resume)) if resume else "",
            "record_url": markupsafe.escape(url_with("progress:record_viewing", article.slug))
            if records
            else "",
        }
    )


@dataclass(frozen=True, slots=True)
class SittingRow:
    pk: int
    day: str
    minutes: str
    edit_url: str
    delete_url: str


@dataclass(frozen=True, slots=True)
class Sittings:
    """The learner's sittings of the resource, to correct or delete."""

    slug: str
    shown: bool  # on the page: there are some, or the resource takes sittings
    rows: tuple[SittingRow, ...]
    next_quoted: str  # where the edit and delete pages come back to, quoted for ?next=
    focus: int | None  # the row that takes focus after a correction or a deletion
    focus_empty: bool  # the empty list's line takes it, after the last sitting's deletion


def sittings(resource, rows: LearnerRows, back: str, focus=None, focus_empty=False) -> Sittings:
    edit_url = url_for_each("progress:sitting_edit")
    delete_url = url_for_each("progress:sitting_delete")
    return Sittings(
        slug=resource.slug,
        shown=bool(rows.sittings) or ResourceState(resource=resource).takes_sittings,
        rows=tuple(
            SittingRow(
                pk=sitting.pk,
                day=date_format(localtime(sitting.at), "DATE_FORMAT"),
                minutes=duration(sitting.logged_minutes),
                edit_url=edit_url(sitting.pk),
                delete_url=delete_url(sitting.pk),
            )
            for sitting in rows.sittings
        ),
        next_quoted=quote(back, safe="/"),
        focus=focus,
        focus_empty=focus_empty,
    )


@dataclass(frozen=True, slots=True)
class Coded:
    """The resource's coded state against three times its length."""

    slug: str
    is_coded: bool
    has_goal: bool
    has_coded: bool
    coded: str
    goal: str
    progress_max: int
    progress_value: int


def coded(resource, rows: LearnerRows) -> Coded:
    coding = rows.minutes.coding[resource.pk]
    return Coded(
        slug=resource.slug,
        is_coded=coding.is_coded,
        has_goal=bool(coding.goal),
        has_coded=bool(coding.coded),
        coded=duration(coding.coded),
        goal=duration(coding.goal),
        progress_max=coding.progress_max,
        progress_value=coding.progress_value,
    )


@dataclass(frozen=True, slots=True)
class SessionLine:
    day: str
    time: str
    built: str


@dataclass(frozen=True, slots=True)
class Coding:
    """The coding block: coded state, latest sessions, the form to log one."""

    slug: str
    has_duration: bool
    coded: Coded
    sessions: tuple[SessionLine, ...]
    form: Markup  # the form's fields and errors, as templates/_fields.jinja prints them
    status: str
    next: str
    action: str


def coding(resource, rows: LearnerRows, back: str, form=None, status="") -> Coding:
    return Coding(
        slug=resource.slug,
        has_duration=bool(resource.duration_minutes),
        coded=coded(resource, rows),
        sessions=tuple(
            SessionLine(
                day=day_label(session.day),
                time=duration(session.minutes),
                built=session.built,
            )
            for session in rows.sessions
        ),
        form=blank_coding_form() if form is None else refused_coding_form(form),
        status=status,
        next=back,
        action=url_with("progress:coding_session_add", resource.slug),
    )


@dataclass(frozen=True, slots=True)
class NoteBlock:
    """The learner's private note and its form."""

    slug: str
    exists: bool
    text: Markup
    field: Markup  # its field, label and errors (_resource.jinja's note_field)
    status: str
    next: str
    action: str


# The note's field as a new form prints it, by language, with a slot in the place of the text:
# each page puts the learner's note in, escaped as the textarea escapes it.
_NOTE_FIELDS: dict[str | None, Slotted] = {}


def note_field(note: str) -> Markup:
    """The field of NoteForm(instance=Note(text=note)) as the note's block prints it, without
    building the form."""
    language = get_language()
    field = _NOTE_FIELDS.get(language)
    if field is None:
        form = NoteForm(instance=Note(text=slot("note")))
        field = _NOTE_FIELDS[language] = Slotted.cut(_macros().note_field(field_groups(form)[0]))
    return field.markup({"note": escape(note)})


def note_block(resource, note: str | None, back: str, form=None, status="") -> NoteBlock:
    return NoteBlock(
        slug=resource.slug,
        exists=note is not None,
        text=Markup(linebreaksbr(note or "")),
        field=note_field(note or "")
        if form is None
        else Markup(_macros().note_field(field_groups(form)[0])),
        status=status,
        next=back,
        action=url_with("progress:note", resource.slug),
    )


@dataclass(frozen=True, slots=True)
class Balances:
    week: Markup  # the balance lines (progress.pages.balance_html)
    overall: Markup


def balances(rows: LearnerRows) -> Balances:
    return Balances(
        balance_html(rows.minutes.week, "balance-week", gettext("This week")),
        balance_html(rows.minutes.overall, "balance-overall", gettext("Since you started")),
    )


@dataclass(frozen=True, slots=True)
class Aside:
    """Everything of the learner beside the resource."""

    controls: WatchControls
    back: str
    sittings: Sittings
    balances: Balances
    coding: Coding
    note: NoteBlock


@dataclass(frozen=True, slots=True)
class ResourcePage:
    article: ResourceArticle
    player: Markup | None  # None: no video on this page
    aside: Aside | None  # None: a visitor


def resource_page(curriculum, resource, rows: LearnerRows | None, *, back: str, asked: str):
    """The page of resource for a learner (their rows) or a visitor (None); back is the page's
    own address, where its forms come back to without JavaScript."""
    written = curriculum.built(articles)
    article = written.of(resource)
    aside = None
    if rows is not None:
        state = _state(resource, rows)
        aside = Aside(
            controls=watch_controls(state, f"watch-{resource.slug}"),
            back=back,
            sittings=sittings(resource, rows, back),
            balances=balances(rows),
            coding=coding(resource, rows, back),
            note=note_block(resource, rows.note, back),
        )
    return ResourcePage(
        article=article,
        player=player(written, article, rows, asked) if article.has_video else None,
        aside=aside,
    )


def _state(resource, rows: LearnerRows) -> ResourceState:
    return ResourceState(resource=resource, watch=rows.watch)


@dataclass(frozen=True, slots=True)
class Refresh:
    """What the resource page refreshes after a change to the learner's watching or coding (the
    events watch-changed and coding-changed): its controls, coded state, balance and sittings."""

    controls: WatchControls
    back: str
    coded: Coded
    balances: Balances
    sittings: Sittings


def refresh(resource, rows: LearnerRows, *, back) -> Refresh:
    return Refresh(
        controls=watch_controls(_state(resource, rows), f"watch-{resource.slug}"),
        back=back,
        coded=coded(resource, rows),
        balances=balances(rows),
        sittings=sittings(resource, rows, back),
    )
