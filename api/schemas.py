"""The shapes the API reads and writes; the OpenAPI schema is generated from them."""

from datetime import date, datetime
from uuid import UUID

from ninja import Field, Schema


class ErrorOut(Schema):
    error: str = Field(description="A stable code: unauthorized, forbidden, not_found, invalid…")
    message: str = Field(description="What went wrong, in the request's language.")
    fields: dict[str, list[str]] = Field(
        default_factory=dict, description="For invalid input: the errors of each field."
    )


class BalanceOut(Schema):
    watched_minutes: int
    coded_minutes: int
    ratio: float | None = Field(description="Hours coded per hour watched; null if none watched.")
    goal: int = Field(description="Hours of code owed for each hour of video.")
    owed_minutes: int = Field(description="Minutes of code still missing to meet the rule.")
    is_met: bool
    sentence: str


class ResourceRef(Schema):
    slug: str
    title: str
    url: str


class NextUpOut(Schema):
    title: str
    stage: str | None
    resource: ResourceRef | None
    status: str
    watched_minutes: int
    planned_minutes: int


class StageOut(Schema):
    title: str
    is_current: bool
    steps_done: int
    steps_total: int


class PathOut(Schema):
    title: str
    week: int | None
    steps_done: int
    steps_total: int
    steps_percent: int
    watched_minutes: int
    planned_minutes: int
    minutes_percent: int
    stages: list[StageOut]


class SummaryOut(Schema):
    username: str
    this_week: BalanceOut
    overall: BalanceOut
    next_up: NextUpOut | None
    path: PathOut | None


class TokenOut(Schema):
    name: str
    scope: str
    expires_at: datetime | None


class MeOut(Schema):
    username: str
    token: TokenOut | None = Field(description="The token used, or null with a browser session.")


class StateOut(Schema):
    status: str = Field(description="done, in_progress or not_started.")
    is_done: bool
    watched_minutes: int
    planned_minutes: int
    percent: int
    takes_sittings: bool


class ResourceOut(Schema):
    slug: str
    title: str
    kind: str
    is_followed: bool
    series: str | None
    number: int | None
    speaker: str
    duration_minutes: int | None
    keywords: list[str]
    architectures: list[str]
    url: str
    state: StateOut


class LinkOut(Schema):
    label: str
    url: str


class CodingOut(Schema):
    watched_minutes: int
    coded_minutes: int
    goal_minutes: int | None


class ResourceDetailOut(ResourceOut):
    summary: str
    links: list[LinkOut]
    guide: list[str] = Field(description="The parts and chapters of the guide it goes with.")
    coding: CodingOut
    note: str


class ResourceFilters(Schema):
    q: str = Field("", description="Words to find in title, speaker, keywords or summary.")
    kind: str = Field("", description="lecture, talk, course, conference, channel…")
    series: str = Field("", description="A series slug, e.g. gpu-mode.")
    guide: str = Field("", description="A part (“5”) or a chapter (“2.5”) of the guide.")
    architecture: str = Field("", description="An architecture slug, e.g. hopper.")


class SittingIn(Schema):
    minutes: int = Field(description="Minutes watched in this sitting, 1 to 1440.")


class SessionIn(Schema):
    minutes: int = Field(description="1 to 1440.")
    built: str = Field(description="What you built, up to 300 characters.")
    day: date | None = Field(None, description="Defaults to today; never in the future.")
    code_url: str = Field("", description="An http or https link to the code.")
    resource: str | None = Field(None, description="The slug of the resource practised.")
    chapter: str | None = Field(None, description="Or a chapter of the guide, e.g. “2.5”.")
    idempotency_key: UUID | None = Field(
        None, description="Send the same key again and the same session is returned, not a copy."
    )


class SessionPatch(Schema):
    minutes: int | None = None
    built: str | None = None
    day: date | None = None
    code_url: str | None = None
    resource: str | None = None
    chapter: str | None = None


class SessionRange(Schema):
    start: date | None = Field(None, alias="from", description="First day, included.")
    end: date | None = Field(None, alias="to", description="Last day, included.")
    limit: int = Field(100, ge=1, le=1000, description="At most this many, newest first.")


class SessionOut(Schema):
    id: int
    day: date
    minutes: int
    built: str
    code_url: str
    resource: str | None
    chapter: str | None
    created_at: datetime


class NoteIn(Schema):
    text: str = Field(description="Plain text, up to 10,000 characters; empty deletes the note.")


class NoteOut(Schema):
    resource: str
    text: str
    updated_at: datetime | None
