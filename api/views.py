"""The endpoints of /api/v1/: thin functions over progress's read models and writes."""

import uuid
from datetime import date

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Query, Router, Status

from accounts.export import chapter_label, export_document
from api import auth
from api.auth import ApiError
from api.schemas import (
    ErrorOut,
    MeOut,
    NoteIn,
    NoteOut,
    ResourceDetailOut,
    ResourceFilters,
    ResourceOut,
    SessionIn,
    SessionOut,
    SessionPatch,
    SessionRange,
    SittingIn,
    SummaryOut,
)
from curriculum import structure
from curriculum.forms import ResourceFilterForm
from curriculum.models import Chapter, Resource
from progress import actions
from progress.actions import ProgressError, save_once
from progress.balance import GOAL, balances, coding_for_resource
from progress.forms import CodingSessionForm, NoteForm
from progress.models import CodingSession, Note
from progress.path import path_progress, states_for

router = Router()

ERRORS = {401: ErrorOut, 403: ErrorOut, 429: ErrorOut}
NOT_FOUND = {**ERRORS, 404: ErrorOut}
INVALID = {**NOT_FOUND, 422: ErrorOut}


def not_found(message):
    return ApiError(404, "not_found", message)


def invalid(fields: dict[str, list[str]]):
    """A 422 naming every field in error, its message starting with the first one."""
    name, messages = next(iter(fields.items()))
    prefix = "" if name == "__all__" else f"{name}: "
    return ApiError(422, "invalid", f"{prefix}{messages[0]}", fields=fields)


def refused(error: ProgressError, field=None):
    if field:
        return invalid({field: [str(error)]})
    return ApiError(422, "invalid", str(error))


def resource_or_404(slug, queryset=None):
    queryset = queryset if queryset is not None else Resource.objects.select_related("series")
    resource = queryset.filter(slug=slug).first()
    if resource is None:
        raise not_found(_("No resource has the slug “%(slug)s”.") % {"slug": slug})
    return resource


def session_or_404(request, pk):
    """One of the learner's sessions; someone else's is as unknown as a missing one."""
    session = CodingSession.objects.for_learner(request.auth).for_list().filter(pk=pk).first()
    if session is None:
        raise not_found(_("You have no coding session %(id)s.") % {"id": pk})
    return session


# Shapes


def balance_out(balance):
    return {
        "watched_minutes": balance.watched,
        "coded_minutes": balance.coded,
        "ratio": balance.ratio,
        "goal": GOAL,
        "owed_minutes": balance.code_needed,
        "is_met": balance.is_met,
        "sentence": render_to_string("progress/_balance_sentence.html", {"balance": balance}),
    }


def resource_ref(request, resource):
    if resource is None:
        return None
    url = request.build_absolute_uri(resource.get_absolute_url())
    return {"slug": resource.slug, "title": str(resource), "url": url}


def next_up_out(request, progress):
    step = progress.next_up
    if step is None:
        return None
    stage = next((s.stage for s in progress.stages if step in s.steps), None)
    return {
        "title": str(step.title),
        "stage": stage.title if stage else None,
        "resource": resource_ref(request, step.resource),
        "status": step.status,
        "watched_minutes": step.watched_minutes,
        "planned_minutes": step.planned_minutes,
    }


def path_out(progress):
    if progress.path is None:
        return None
    return {
        "title": progress.path.title,
        "week": progress.week.number if progress.week else None,
        "steps_done": progress.steps_done,
        "steps_total": progress.steps_total,
        "steps_percent": progress.steps_percent,
        "watched_minutes": progress.watched_minutes,
        "planned_minutes": progress.planned_minutes,
        "minutes_percent": progress.minutes_percent,
        "stages": [
            {
                "title": stage.stage.title,
                "is_current": stage.is_current,
                "steps_done": stage.steps_done,
                "steps_total": stage.steps_total,
            }
            for stage in progress.stages
        ],
    }


def state_out(state):
    return {
        "status": state.status,
        "is_done": state.is_done,
        "watched_minutes": state.watched_minutes,
        "planned_minutes": state.planned_minutes,
        "percent": state.percent,
        "takes_sittings": state.takes_sittings,
    }


def resource_out(request, resource, state):
    return {
        "slug": resource.slug,
        "title": resource.title,
        "kind": resource.kind,
        "is_followed": resource.is_followed,
        "series": resource.series.slug if resource.series_id else None,
        "number": resource.number,
        "speaker": resource.speaker,
        "duration_minutes": resource.duration_minutes,
        "keywords": resource.keyword_list,
        "architectures": [architecture.slug for architecture in resource.architectures.all()],
        "url": request.build_absolute_uri(resource.get_absolute_url()),
        "state": state_out(state),
    }


def session_out(session):
    return {
        "id": session.pk,
        "day": session.day,
        "minutes": session.minutes,
        "built": session.built,
        "code_url": session.code_url,
        "resource": session.resource.slug if session.resource else None,
        "chapter": chapter_label(session.chapter),
        "created_at": session.created_at,
    }


def note_out(resource, note):
    return {
        "resource": resource.slug,
        "text": note.text if note else "",
        "updated_at": note.updated_at if note else None,
    }


# The learner


@router.get("/me", response={200: MeOut, **ERRORS}, auth=auth.READ, tags=["learner"])
def me(request):
    """Who the API sees: the learner, and the token they called with."""
    token = getattr(request, "access_token", None)
    return {
        "username": request.auth.get_username(),
        "token": {"name": token.name, "scope": token.scope, "expires_at": token.expires_at}
        if token
        else None,
    }


@router.get("/summary", response={200: SummaryOut, **ERRORS}, auth=auth.READ, tags=["learner"])
def summary(request):
    """The balance this week and overall with the minutes of code owed, next up, the path."""
    week, overall = balances(request.auth)
    progress = path_progress(request.auth)
    return {
        "username": request.auth.get_username(),
        "this_week": balance_out(week),
        "overall": balance_out(overall),
        "next_up": next_up_out(request, progress),
        "path": path_out(progress),
    }


@router.get("/export", response={200: dict, **ERRORS}, auth=auth.READ, tags=["learner"])
def export(request):
    """Everything the learner entered: the same document as /settings/export.json."""
    return export_document(request.auth)


# Resources and watching


@router.get(
    "/resources", response={200: list[ResourceOut], **ERRORS}, auth=auth.READ, tags=["resources"]
)
def resource_list(request, filters: Query[ResourceFilters]):
    """The catalogue with the learner's state of each resource; filters as on /resources/."""
    curriculum = structure.current()
    form = ResourceFilterForm(filters.dict(), curriculum=curriculum)
    resources = curriculum.catalogue(**form.criteria())
    states = states_for(request.auth, resources)
    return [resource_out(request, resource, states[resource.pk]) for resource in resources]


@router.get(
    "/resources/{slug}",
    response={200: ResourceDetailOut, **NOT_FOUND},
    auth=auth.READ,
    tags=["resources"],
)
def resource_detail(request, slug: str):
    """One resource with its links, its place in the guide and the learner's state and note."""
    resource = resource_or_404(slug, Resource.objects.with_related())
    state = states_for(request.auth, [resource])[resource.pk]
    coding = coding_for_resource(request.auth, resource)
    note = Note.objects.for_learner(request.auth).filter(resource=resource).first()
    return {
        **resource_out(request, resource, state),
        "summary": resource.summary,
        "links": [{"label": str(label), "url": url} for label, url in resource.links()],
        "guide": [
            f"{pairing.get_timing_display()} {pairing.place}" for pairing in resource.pairings.all()
        ],
        "coding": {
            "watched_minutes": coding.watched,
            "coded_minutes": coding.coded,
            "goal_minutes": coding.goal,
        },
        "note": note.text if note else "",
    }


def change(request, slug, action, **arguments):
    resource = resource_or_404(slug)
    try:
        action(user=request.auth, resource=resource, **arguments)
    except ProgressError as error:
        raise refused(error) from None
    return resource_out(request, resource, states_for(request.auth, [resource])[resource.pk])


WATCHING = {"response": {200: ResourceOut, **INVALID}, "auth": auth.WRITE, "tags": ["watching"]}


@router.post("/resources/{slug}/watched", **WATCHING)
def mark_watched(request, slug: str):
    """Mark a video, talk or course watched in one click; twice changes nothing."""
    return change(request, slug, actions.mark_watched)


@router.post("/resources/{slug}/not-watched", **WATCHING)
def mark_not_watched(request, slug: str):
    """Undo “watched”: only the minutes logged in sittings stay."""
    return change(request, slug, actions.mark_not_watched)


@router.post("/resources/{slug}/followed", **WATCHING)
def mark_followed(request, slug: str):
    """Mark a conference or channel followed."""
    return change(request, slug, actions.mark_followed)


@router.post("/resources/{slug}/not-followed", **WATCHING)
def mark_not_followed(request, slug: str):
    """Stop following a conference or channel."""
    return change(request, slug, actions.mark_not_followed)


@router.post("/resources/{slug}/sittings", **WATCHING)
def log_sitting(request, slug: str, payload: SittingIn):
    """Add the minutes of one sitting; reaching the duration finishes the resource."""
    try:
        minutes = actions.validate_sitting_minutes(payload.minutes)
    except ProgressError as error:
        raise refused(error, "minutes") from None
    return change(request, slug, actions.log_sitting, minutes=minutes)


# Coding sessions


def chapter_from_label(label):
    """The chapter "2.5" names (part 2, chapter 5), or None."""
    part, _dot, number = label.partition(".")
    if not (part.isdigit() and number.isdigit()):
        return None
    return Chapter.objects.filter(part__number=int(part), number=int(number)).first()


def tied_to(data):
    """Form values for the resource slug and chapter label in data, or a 422 naming the field."""
    values, errors = {}, {}
    if "resource" in data:
        slug = data["resource"] or ""
        resource = Resource.objects.filter(slug=slug).first() if slug else None
        if slug and resource is None:
            errors["resource"] = [_("No resource has the slug “%(slug)s”.") % {"slug": slug}]
        values["resource"] = resource.pk if resource else ""
    if "chapter" in data:
        label = data["chapter"] or ""
        chapter = chapter_from_label(label) if label else None
        if label and chapter is None:
            errors["chapter"] = [_("No chapter “%(label)s” in the guide.") % {"label": label}]
        values["chapter"] = chapter.pk if chapter else ""
    if errors:
        raise invalid(errors)
    return values


def valid_form(form):
    if not form.is_valid():
        raise invalid({name: list(messages) for name, messages in form.errors.items()})
    return form


def form_value(value):
    if value is None:
        return ""
    return value.isoformat() if isinstance(value, date) else value


def form_values(data):
    """The form's values for the plain fields given in data."""
    names = ("day", "minutes", "built", "code_url")
    return {name: form_value(data[name]) for name in names if name in data}


SESSIONS = {"auth": auth.WRITE, "tags": ["coding sessions"]}


@router.post("/sessions", response={200: SessionOut, 201: SessionOut, **INVALID}, **SESSIONS)
def create_session(request, payload: SessionIn):
    """Log a coding session; sent again with the same idempotency_key, the first one comes back (200)."""
    data = payload.dict()
    values = {
        "day": timezone.localdate().isoformat(),
        **form_values({k: v for k, v in data.items() if v is not None}),
        **tied_to(data),
        "idempotency_key": str(payload.idempotency_key or uuid.uuid4()),
    }
    form = valid_form(CodingSessionForm(values))
    session, created = save_once(form, request.auth)
    session = session_or_404(request, session.pk)
    return Status(201 if created else 200, session_out(session))


@router.get(
    "/sessions",
    response={200: list[SessionOut], **INVALID},
    auth=auth.READ,
    tags=["coding sessions"],
)
def list_sessions(request, days: Query[SessionRange]):
    """The learner's sessions, newest first, within the days given."""
    if days.start and days.end and days.start > days.end:
        raise invalid({"from": [_("The first day comes after the last one.")]})
    sessions = CodingSession.objects.for_learner(request.auth).for_list()
    if days.start:
        sessions = sessions.filter(day__gte=days.start)
    if days.end:
        sessions = sessions.filter(day__lte=days.end)
    return [session_out(session) for session in sessions[: days.limit]]


@router.get(
    "/sessions/{session_id}",
    response={200: SessionOut, **NOT_FOUND},
    auth=auth.READ,
    tags=["coding sessions"],
)
def session_detail(request, session_id: int):
    """One of the learner's sessions."""
    return session_out(session_or_404(request, session_id))


@router.patch("/sessions/{session_id}", response={200: SessionOut, **INVALID}, **SESSIONS)
def update_session(request, session_id: int, payload: SessionPatch):
    """Change some fields of a session; the same rules as when it was logged."""
    session = session_or_404(request, session_id)
    data = payload.dict(exclude_unset=True)
    values = {
        "day": session.day.isoformat(),
        "minutes": session.minutes,
        "built": session.built,
        "code_url": session.code_url,
        "resource": session.resource_id or "",
        "chapter": session.chapter_id or "",
        **form_values(data),
        **tied_to(data),
    }
    valid_form(CodingSessionForm(values, instance=session)).save()
    return session_out(session_or_404(request, session_id))


@router.delete("/sessions/{session_id}", response={204: None, **NOT_FOUND}, **SESSIONS)
def delete_session(request, session_id: int):
    """Delete one of the learner's sessions."""
    session_or_404(request, session_id).delete()
    return Status(204, None)


# Notes


@router.get(
    "/resources/{slug}/note", response={200: NoteOut, **NOT_FOUND}, auth=auth.READ, tags=["notes"]
)
def read_note(request, slug: str):
    """The learner's private note on a resource (empty text when there is none)."""
    resource = resource_or_404(slug)
    return note_out(
        resource, Note.objects.for_learner(request.auth).filter(resource=resource).first()
    )


@router.put(
    "/resources/{slug}/note", response={200: NoteOut, **INVALID}, auth=auth.WRITE, tags=["notes"]
)
def write_note(request, slug: str, payload: NoteIn):
    """Replace the learner's note on a resource; an empty text deletes it."""
    resource = resource_or_404(slug)
    existing = Note.objects.for_learner(request.auth).filter(resource=resource).first()
    form = valid_form(
        NoteForm(
            {"text": payload.text}, instance=existing or Note(user=request.auth, resource=resource)
        )
    )
    if form.cleaned_data["text"]:
        return note_out(resource, form.save())
    if existing:
        existing.delete()
    return note_out(resource, None)
