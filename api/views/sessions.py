"""The learner's coding sessions: log, list, read, change and delete them."""

import uuid
from collections.abc import Mapping
from datetime import date
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Query, Router, Status

from api import auth
from api.auth import ApiError, ApiRequest
from api.schemas import SessionIn, SessionOut, SessionPatch, SessionRange, errors
from api.views.shared import invalid, not_found, valid_form
from curriculum.models import Chapter, Resource
from progress.actions import save_once
from progress.forms import CodingSessionForm
from progress.models import CodingSession

router = Router(tags=["coding sessions"])


def session_or_404(request: ApiRequest, pk: int) -> CodingSession:
    """One of the learner's sessions; someone else's is as unknown as a missing one."""
    session = CodingSession.objects.for_learner(request.auth).for_list().filter(pk=pk).first()
    if session is None:
        raise not_found(_("You have no coding session %(id)s.") % {"id": pk})
    return session


def typed_session_or_404(request: ApiRequest, pk: int) -> CodingSession:
    """One of the learner's typed sessions: time from the editor is recounted, not edited."""
    session = session_or_404(request, pk)
    if session.is_from_editor:
        raise ApiError(
            422,
            "from_editor",
            _("This time comes from your editor: tie its project on the coding log instead."),
        )
    return session


def chapter_from_label(label: str) -> Chapter | None:
    """The chapter "2.5" names (part 2, chapter 5), or None."""
    part, _dot, number = label.partition(".")
    if not (part.isdigit() and number.isdigit()):
        return None
    return Chapter.objects.filter(part__number=int(part), number=int(number)).first()


def tied_to(data: Mapping[str, Any]) -> dict[str, int | str]:
    """Form values for the resource slug and chapter label in data, or a 422 naming the field."""
    values: dict[str, int | str] = {}
    problems: dict[str, list[str]] = {}
    if "resource" in data:
        slug = data["resource"] or ""
        resource = Resource.objects.filter(slug=slug).first() if slug else None
        if slug and resource is None:
            problems["resource"] = [_("No resource has the slug “%(slug)s”.") % {"slug": slug}]
        values["resource"] = resource.pk if resource else ""
    if "chapter" in data:
        label = data["chapter"] or ""
        chapter = chapter_from_label(label) if label else None
        if label and chapter is None:
            problems["chapter"] = [_("No chapter “%(label)s” in the guide.") % {"label": label}]
        values["chapter"] = chapter.pk if chapter else ""
    if problems:
        raise invalid(problems)
    return values


def form_value(value: date | int | str | None) -> int | str:
    if value is None:
        return ""
    return value.isoformat() if isinstance(value, date) else value


def form_values(data: Mapping[str, Any]) -> dict[str, int | str]:
    """The form's values for the plain fields given in data."""
    names = ("day", "minutes", "built", "code_url")
    return {name: form_value(data[name]) for name in names if name in data}


def session_links() -> dict[str, dict[str, object]]:
    """OpenAPI links: the id a new session comes back with names it in the other operations."""
    session_id = {"session_id": "$response.body#/id"}
    return {
        name: {"operationId": name, "parameters": session_id}
        for name in ("get_session", "update_session", "delete_session")
    }


@router.post(
    "/sessions",
    response={200: SessionOut, 201: SessionOut, **errors(400, 403, 422)},
    openapi_extra={"responses": {201: {"links": session_links()}}},
    auth=auth.WRITE,
)
def create_session(request: ApiRequest, payload: SessionIn) -> Status[CodingSession]:
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
    return Status(201 if created else 200, session_or_404(request, session.pk))


@router.get("/sessions", response={200: list[SessionOut], **errors(422)}, auth=auth.READ)
def list_sessions(request: ApiRequest, days: Query[SessionRange]) -> QuerySet[CodingSession]:
    """The learner's sessions, newest first, within the days given."""
    if days.start and days.end and days.start > days.end:
        raise invalid({"from": [_("The first day comes after the last one.")]})
    sessions = CodingSession.objects.for_learner(request.auth).for_list()
    if days.start:
        sessions = sessions.filter(day__gte=days.start)
    if days.end:
        sessions = sessions.filter(day__lte=days.end)
    return sessions[: days.limit]


@router.get(
    "/sessions/{session_id}", response={200: SessionOut, **errors(404, 422)}, auth=auth.READ
)
def get_session(request: ApiRequest, session_id: int) -> CodingSession:
    """One of the learner's sessions."""
    return session_or_404(request, session_id)


@router.patch(
    "/sessions/{session_id}",
    response={200: SessionOut, **errors(400, 403, 404, 422)},
    auth=auth.WRITE,
)
def update_session(request: ApiRequest, session_id: int, payload: SessionPatch) -> CodingSession:
    """Change some fields of a session; the same rules as when it was logged."""
    session = typed_session_or_404(request, session_id)
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
    return session_or_404(request, session_id)


@router.delete(
    "/sessions/{session_id}", response={204: None, **errors(403, 404, 422)}, auth=auth.WRITE
)
def delete_session(request: ApiRequest, session_id: int) -> Status[None]:
    """Delete one of the learner's sessions."""
    typed_session_or_404(request, session_id).delete()
    return Status(204, None)
