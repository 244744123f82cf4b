"""The shapes the API reads and writes; the OpenAPI schema is generated from them."""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any
from uuid import UUID

from django.utils.translation import gettext
from ninja import Field, Schema
from pydantic import AfterValidator, BeforeValidator, JsonValue
from pydantic_core import PydanticCustomError

from accounts.export import chapter_label
from curriculum.models import Resource
from progress.balance import GOAL, Balance, ResourceCoding
from progress.models import MINUTES_IN_A_DAY, NOTE_MAX_LENGTH, CodingSession, Note
from progress.path import PathProgress, ResourceState, StepProgress
from progress.validators import FIRST_DAY

# What a resource's slug may hold (Django's slug): a path with anything else names no resource.
SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"


def storable(text: str) -> str:
    """Text a database column can hold: PostgreSQL's text refuses NUL, and UTF-8 a lone surrogate
    (which JSON's "\\ud800" decodes to)."""
    if "\x00" in text:
        raise PydanticCustomError("text_nul", "Text cannot hold the NUL character.")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise PydanticCustomError(
                "text_surrogate", "Text cannot hold a lone surrogate."
            ) from None
    return text


ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def written_as_a_day(value: object) -> str:
    """Only YYYY-MM-DD: pydantic alone would also read 0 or "0" as seconds since 1970."""
    if isinstance(value, str) and ISO_DAY.fullmatch(value):
        return value
    raise PydanticCustomError("date_parsing", "Enter a day as YYYY-MM-DD.")


def from_first_day(day: date) -> date:
    if day < FIRST_DAY:
        raise PydanticCustomError("day_too_early", "The day cannot be before 2000.")
    return day


# Every day the API reads: written YYYY-MM-DD, from FIRST_DAY (2000-01-01) on.
Day = Annotated[date, BeforeValidator(written_as_a_day), AfterValidator(from_first_day)]


def checked_by_the_form(**limits: JsonValue) -> Any:
    """Limits that the API's validators, the site's form or an action check (with the words the web pages use), stated in
    the schema for clients and generators."""
    return Field(json_schema_extra=limits)


# Every string the API reads goes through this type; the schema says it holds no NUL (storable
# refuses it, and a lone surrogate, which JSON Schema's strings cannot hold anyway).
Text = Annotated[str, AfterValidator(storable), checked_by_the_form(pattern=r"^[^\u0000]*$")]

# JSON true is not a number of minutes: strict.
Minutes = Annotated[
    int, Field(strict=True), checked_by_the_form(minimum=1, maximum=MINUTES_IN_A_DAY)
]
Built = Annotated[Text, checked_by_the_form(minLength=1, maxLength=300)]
CodeUrl = Annotated[Text, checked_by_the_form(maxLength=500, pattern=r"^(https?://[^\u0000]+)?$")]


class ErrorOut(Schema):
    error: str = Field(description="A stable code: unauthorized, forbidden, not_found, invalid…")
    message: str = Field(description="What went wrong, in the request's language.")
    fields: dict[str, list[str]] = Field(
        default_factory=dict, description="For invalid input: the errors of each field."
    )


def errors(*statuses: int) -> dict[int, type[ErrorOut]]:
    """The error answers an operation can give, each an ErrorOut: 400 a body that is not JSON,
    401 no usable token, 403 a read-only token or a failed CSRF check, 404 an unknown resource
    or session, 422 invalid input, 429 too many requests with this token."""
    return dict.fromkeys((401, 429, *statuses), ErrorOut)


# The answers read the objects of progress's read models directly: a field takes the attribute
# of its name, or the one its validation_alias names ("resource.slug"), or a resolve_<field>.
# (Comments, not docstrings: a docstring becomes the schema's description in the OpenAPI.)


def absolute_url(obj: Resource, context: Mapping[str, Any]) -> str:
    return context["request"].build_absolute_uri(obj.get_absolute_url())


# Read from a progress.balance.Balance.
class BalanceOut(Schema):
    watched_minutes: int = Field(validation_alias="watched")
    coded_minutes: int = Field(validation_alias="coded")
    ratio: float | None = Field(description="Hours coded per hour watched; null if none watched.")
    goal: int = Field(description="Hours of code owed for each hour of video.")
    owed_minutes: int = Field(
        validation_alias="code_needed",
        description="Minutes of code still missing to meet the rule.",
    )
    is_met: bool
    sentence: str

    @staticmethod
    def resolve_goal(balance: Balance) -> int:
        return GOAL

    @staticmethod
    def resolve_sentence(balance: Balance) -> str:
        return balance.in_words()


# Read from a Resource.
class ResourceRef(Schema):
    slug: str
    title: str
    url: str

    resolve_url = staticmethod(absolute_url)

    @staticmethod
    def resolve_title(resource: Resource) -> str:
        return str(resource)


# Read from the path's next step, a progress.path.StepProgress.
class NextUpOut(Schema):
    title: str
    stage: str | None
    resource: ResourceRef | None
    status: str
    watched_minutes: int
    planned_minutes: int

    @staticmethod
    def resolve_title(step: StepProgress) -> str:
        return str(step.title)

    @staticmethod
    def resolve_stage(step: StepProgress) -> str:
        return step.step.stage.title


# Read from a progress.path.StageProgress.
class StageOut(Schema):
    title: str = Field(validation_alias="stage.title")
    is_current: bool
    steps_done: int
    steps_total: int


# Read from a progress.path.PathProgress.
class PathOut(Schema):
    title: str = Field(validation_alias="path.title")
    week: int | None
    steps_done: int
    steps_total: int
    steps_percent: int
    watched_minutes: int
    planned_minutes: int
    minutes_percent: int
    stages: list[StageOut]

    @staticmethod
    def resolve_week(progress: PathProgress) -> int | None:
        return progress.week.number if progress.week else None


class SummaryOut(Schema):
    username: str
    this_week: BalanceOut
    overall: BalanceOut
    next_up: NextUpOut | None
    path: PathOut | None


# Read from an api.models.AccessToken.
class TokenOut(Schema):
    name: str
    scope: str
    expires_at: datetime | None


class MeOut(Schema):
    username: str
    token: TokenOut | None = Field(description="The token used, or null with a browser session.")


class EditorKeyOut(Schema):
    api_url: str = Field(description="The WakaTime-compatible base URL, for api_url.")
    api_key: str = Field(description="The new editor key (a version-4 UUID), shown once.")
    wakatime_cfg: str = Field(description="The [settings] block of ~/.wakatime.cfg, exactly.")


# Read from a progress.path.ResourceState.
class StateOut(Schema):
    status: str = Field(description="done, skipped, in_progress or not_started.")
    is_done: bool
    is_skipped: bool = Field(description="The learner already knows it: the path goes past it.")
    watched_minutes: int
    planned_minutes: int
    percent: int
    takes_sittings: bool


# Read from a progress.path.ResourceState: the resource, and the learner's state on it.
class ResourceOut(Schema):
    slug: str = Field(validation_alias="resource.slug")
    title: str = Field(validation_alias="resource.title")
    kind: str = Field(validation_alias="resource.kind")
    is_followed: bool = Field(validation_alias="resource.is_followed")
    series: str | None
    number: int | None = Field(validation_alias="resource.number")
    speaker: str = Field(validation_alias="resource.speaker")
    duration_minutes: int | None = Field(validation_alias="resource.duration_minutes")
    keywords: list[str] = Field(validation_alias="resource.keyword_list")
    architectures: list[str]
    url: str
    state: StateOut

    @staticmethod
    def resolve_series(state: ResourceState) -> str | None:
        series = state.resource.series  # None without a query when series_id is None
        return series.slug if series is not None else None

    @staticmethod
    def resolve_architectures(state: ResourceState) -> list[str]:
        return [architecture.slug for architecture in state.resource.architectures.all()]

    @staticmethod
    def resolve_url(state: ResourceState, context: Mapping[str, Any]) -> str:
        return absolute_url(state.resource, context)

    @staticmethod
    def resolve_state(state: ResourceState) -> ResourceState:
        return state


class LinkOut(Schema):
    label: str
    url: str


# Read from a progress.balance.ResourceCoding.
class CodingOut(Schema):
    watched_minutes: int = Field(validation_alias="watched")
    coded_minutes: int = Field(validation_alias="coded")
    goal_minutes: int | None = Field(validation_alias="goal")


@dataclass
class ResourceDetail(ResourceState):
    """What the detail answer reads: the learner's state on a resource, their coding and note."""

    coding: ResourceCoding | None = None
    note: Note | None = None


class ResourceDetailOut(ResourceOut):
    summary: str = Field(validation_alias="resource.summary")
    links: list[LinkOut]
    guide: list[str] = Field(description="The parts and chapters of the guide it goes with.")
    coding: CodingOut
    note: str

    @staticmethod
    def resolve_links(detail: ResourceDetail) -> list[dict[str, str]]:
        return [{"label": str(label), "url": url} for label, url in detail.resource.links()]

    @staticmethod
    def resolve_guide(detail: ResourceDetail) -> list[str]:
        pairings = detail.resource.pairings.all()
        return [f"{pairing.get_timing_display()} {pairing.place}" for pairing in pairings]

    @staticmethod
    def resolve_note(detail: ResourceDetail) -> str:
        return detail.note.text if detail.note else ""


class ResourceFilters(Schema):
    q: Text = Field("", description="Words to find in title, speaker, keywords or summary.")
    kind: Text = Field("", description="lecture, talk, course, conference, channel…")
    series: Text = Field("", description="A series slug, e.g. gpu-mode.")
    guide: Text = Field("", description="A part (“5”) or a chapter (“2.5”) of the guide.")
    architecture: Text = Field("", description="An architecture slug, e.g. hopper.")


class SittingIn(Schema):
    minutes: Minutes = Field(description="Minutes watched in this sitting, 1 to 1440.")


class SessionIn(Schema):
    minutes: Minutes = Field(description="1 to 1440.")
    built: Built = Field(description="What you built, up to 300 characters.")
    day: Day | None = Field(
        None, description="Defaults to today; from 2000-01-01, never in the future."
    )
    code_url: CodeUrl = Field("", description="An http or https link to the code, or empty.")
    resource: Text | None = Field(None, description="The slug of the resource practised.")
    chapter: Text | None = Field(None, description="Or a chapter of the guide, e.g. “2.5”.")
    idempotency_key: UUID | None = Field(
        None, description="Send the same key again and the same session is returned, not a copy."
    )


class SessionPatch(Schema):
    minutes: Minutes | None = None
    built: Built | None = None
    day: Day | None = None
    code_url: CodeUrl | None = None
    resource: Text | None = None
    chapter: Text | None = None


class SessionRange(Schema):
    start: Day | None = Field(None, alias="from", description="First day, included.")
    end: Day | None = Field(None, alias="to", description="Last day, included.")
    limit: int = Field(100, ge=1, le=1000, description="At most this many, newest first.")


# Read from a progress.models.CodingSession.
class SessionOut(Schema):
    id: int
    day: date
    minutes: int
    built: str
    code_url: str
    resource: str | None
    chapter: str | None
    created_at: datetime
    source: str = Field(
        description="typed, or editor: one day's time of one project measured by the editor "
        "(recounted from its heartbeats; it cannot be changed or deleted here)."
    )

    @staticmethod
    def resolve_resource(session: CodingSession) -> str | None:
        return session.resource.slug if session.resource else None

    @staticmethod
    def resolve_chapter(session: CodingSession) -> str | None:
        return chapter_label(session.chapter)


class NoteIn(Schema):
    text: Annotated[Text, checked_by_the_form(maxLength=NOTE_MAX_LENGTH)] = Field(
        description="Plain text, up to 10,000 characters; empty deletes the note."
    )


# Read from a progress.models.Note (unsaved and empty when the learner has none).
class NoteOut(Schema):
    resource: str = Field(validation_alias="resource.slug")
    text: str
    updated_at: datetime | None


# Practice


class ExerciseOut(Schema):
    slug: str
    title: str
    resource: str = Field(validation_alias="resource.slug", description="The lecture it follows.")
    url: str
    passed: bool = Field(description="Whether one of the learner's solutions passed.")

    @staticmethod
    def resolve_url(obj: Any, context: Mapping[str, Any]) -> str:
        return context["request"].build_absolute_uri(obj.get_absolute_url())


class ExerciseDetailOut(ExerciseOut):
    statement: str = Field(description="Markdown, in the request's language.")
    starter: str
    files: dict[str, str] = Field(
        description="The files to check locally, by name: starter.py, check.py (the runner), "
        "cases.py (the public cases), exercise.json."
    )


class SubmissionIn(Schema):
    code: Annotated[Text, checked_by_the_form(minLength=1, maxLength=65536)]


class SubmissionOut(Schema):
    id: int
    exercise: str = Field(validation_alias="exercise.slug")
    verdict: str = Field(description="pending, passed, failed, timed_out, crashed or refused.")
    message: str
    case: dict[str, JsonValue] | None = Field(
        description='The first public case that failed; of a hidden case only {"hidden": true}.'
    )
    seconds: float | None
    created: datetime
    checked: datetime | None
    source: str

    @staticmethod
    def resolve_message(obj: Any) -> str:
        # The server's own reasons are stored as their English msgid: said in the request's language.
        return gettext(obj.message) if obj.message else ""
