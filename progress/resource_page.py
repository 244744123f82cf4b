"""The resource page's view model (templates/progress/resource.jinja) and the blocks its htmx
answers swap: the watch controls, the sittings, the balance, the coding block and the note.

What is the same for every learner (the resource's words, links, guide and series sections) is
built once per curriculum revision and language, resource by resource as they are asked for
(`Curriculum.built`, dropped when a curator's edit renews the token); the learner's part comes
from progress/resource_learner.py's QuerySets. The template prints both with its macros.
"""

import threading
import uuid
from dataclasses import dataclass
from urllib.parse import quote

from django.template.defaultfilters import capfirst, linebreaks_filter, linebreaksbr, urlize
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.timezone import localtime

from curriculum.models import Resource
from curriculum.structure import PathStep
from lib.durations import day_label, duration, video_time
from lib.urls import url_for_each, url_with
from progress.forms import CodingSessionForm, NoteForm
from progress.models import Note
from progress.pages import BalanceLine, WatchControls, balance_line, watch_controls
from progress.path import RESUME_LEAD_SECONDS, ResourceState
from progress.player import requested_start
from progress.resource_learner import LearnerRows

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
    has_video: bool
    video_id: str
    watch_url: str  # the video on YouTube, for the player's link
    heading: str  # "#15 · Title"
    series_name: str
    series_url: str
    watch_link: str  # an address off YouTube's player, for resources without a video
    is_start_here: bool
    # Django's filters escape the curator's text, then add paragraphs, line breaks and links.
    start_here_reason: SafeString
    summary: SafeString
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
    series_description: SafeString
    series_links: tuple[Link, ...]


def resource_text(resource: Resource, path_step: PathStep | None) -> ResourceText:
    series = resource.series
    catalogue = reverse("progress:catalogue")
    search = resource.search_link
    path_url = reverse("progress:path")
    return ResourceText(
        slug=resource.slug,
        title=resource.title,
        has_video=resource.has_video,
        video_id=resource.video_id,
        watch_url=resource.watch_url,
        heading=(
            f"#{resource.number} · {resource.title}"
            if resource.number is not None
            else resource.title
        ),
        series_name=series.name if series else "",
        series_url=series.get_absolute_url() if series else "",
        watch_link="" if resource.has_video else resource.watch_link,
        is_start_here=resource.is_start_here,
        start_here_reason=linebreaks_filter(resource.start_here_reason),
        summary=linebreaksbr(urlize(resource.summary)),
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
        series_description=linebreaks_filter(urlize(series.description if series else "")),
        series_links=tuple(Link(str(label), url) for label, url in series.links())
        if series
        else (),
    )


class ResourceTexts:
    """The resources' texts of one curriculum revision in one language, written on first demand."""

    def __init__(self, curriculum):
        self.curriculum = curriculum
        self.by_slug: dict[str, ResourceText] = {}
        self.lock = threading.Lock()

    def of(self, resource: Resource) -> ResourceText:
        text = self.by_slug.get(resource.slug)
        if text is None:
            with self.lock:
                path_step = self.curriculum.path_steps.get(resource.pk)
                text = self.by_slug[resource.slug] = resource_text(resource, path_step)
        return text


def resource_texts(curriculum) -> ResourceTexts:
    """Built once per curriculum revision and language (Curriculum.built)."""
    return ResourceTexts(curriculum)


# The learner's part


@dataclass(frozen=True, slots=True)
class Player:
    """Where the video's player starts and where its beats go (_resource.jinja's player)."""

    start_seconds: int
    start: str  # "1:30", "" from the top
    resume: str  # where the learner stopped, "" for nowhere
    record_url: str  # "" when nothing is recorded: a visitor, or recording turned off


def player(resource: Resource, rows: LearnerRows | None, asked: str) -> Player:
    """The video's player for a learner (rows) or a visitor (None): where it starts (asked is the
    address's ?t=), where the learner stopped, where beats go."""
    resume = rows.watch.resume_seconds if rows and rows.watch else 0
    wanted = requested_start(asked)
    start = wanted if wanted is not None else max(resume - RESUME_LEAD_SECONDS, 0)
    records = rows is not None and rows.records_viewing
    return Player(
        start_seconds=start,
        start=video_time(start) if start else "",
        resume=video_time(resume) if resume else "",
        record_url=url_with("progress:record_viewing", resource.slug) if records else "",
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
class SittingForm:
    """The form that corrects one sitting's minutes, or deletes it (templates/progress/_sitting.jinja)."""

    pk: int
    title: str  # the resource's
    day: str
    logged: str  # its minutes as they stand: "1 h 30 min"
    minutes: str  # the field's value: its minutes, or what was sent
    error: str
    next_url: str
    inline: bool  # with htmx, in the place of its row
    deleting: bool
    edit_url: str
    delete_url: str


def sitting_form(
    sitting, next_url: str, *, inline: bool, deleting=False, minutes=None, error=""
) -> SittingForm:
    """The form of the learner's sitting (a WatchEvent with its resource)."""
    return SittingForm(
        pk=sitting.pk,
        title=sitting.resource.title,
        day=date_format(localtime(sitting.at), "DATE_FORMAT"),
        logged=duration(sitting.logged_minutes),
        minutes=str(sitting.logged_minutes if minutes is None else minutes),
        error=error,
        next_url=next_url,
        inline=inline,
        deleting=deleting,
        edit_url=url_with("progress:sitting_edit", sitting.pk),
        delete_url=url_with("progress:sitting_delete", sitting.pk),
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
    form: CodingSessionForm  # blank, or as it was sent with its errors
    status: str
    next: str
    action: str


def blank_coding_form(resource) -> CodingSessionForm:
    """A new session of the resource, today (the learner's day), with a fresh key."""
    initial = {"day": timezone.localdate(), "idempotency_key": uuid.uuid4()}
    return CodingSessionForm(resource=resource, initial=initial)


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
        form=blank_coding_form(resource) if form is None else form,
        status=status,
        next=back,
        action=url_with("progress:coding_session_add", resource.slug),
    )


@dataclass(frozen=True, slots=True)
class NoteBlock:
    """The learner's private note and its form."""

    slug: str
    exists: bool
    text: SafeString  # escaped, its line breaks kept
    form: NoteForm  # the note as it is, or as it was sent with its errors
    status: str
    next: str
    action: str


def note_block(resource, note: str | None, back: str, form=None, status="") -> NoteBlock:
    return NoteBlock(
        slug=resource.slug,
        exists=note is not None,
        text=linebreaksbr(note or ""),
        form=NoteForm(instance=Note(text=note or "")) if form is None else form,
        status=status,
        next=back,
        action=url_with("progress:note", resource.slug),
    )


@dataclass(frozen=True, slots=True)
class Balances:
    """This week's balance and the overall one (templates/progress/_balance.jinja)."""

    week: BalanceLine
    overall: BalanceLine


def balances(rows: LearnerRows) -> Balances:
    return Balances(balance_line(rows.minutes.week), balance_line(rows.minutes.overall))


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
    text: ResourceText
    player: Player | None  # None: no video on this page
    aside: Aside | None  # None: a visitor


def resource_page(curriculum, resource, rows: LearnerRows | None, *, back: str, asked: str):
    """The page of resource for a learner (their rows) or a visitor (None); back is the page's
    own address, where its forms come back to without JavaScript."""
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
        text=curriculum.built(resource_texts).of(resource),
        player=player(resource, rows, asked) if resource.has_video else None,
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
