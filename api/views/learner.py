"""Who the learner is, where they stand, everything they entered, and their editor key."""

from typing import Any

from ninja import Router, Status

from accounts.export import export_document
from api import auth
from api.auth import ApiRequest
from api.schemas import EditorKeyOut, MeOut, SummaryOut, errors
from editor.models import EditorKey
from editor.wakatime_cfg import api_url, wakatime_cfg
from progress.balance import balances
from progress.path import path_progress

router = Router(tags=["learner"])


@router.get("/me", response={200: MeOut, **errors()}, auth=auth.READ)
def get_me(request: ApiRequest) -> dict[str, Any]:
    """Who the API sees: the learner, and the token they called with."""
    token = getattr(request, "access_token", None)
    return {"username": request.auth.get_username(), "token": token}


@router.get("/summary", response={200: SummaryOut, **errors()}, auth=auth.READ)
def get_summary(request: ApiRequest) -> dict[str, Any]:
    """The balance this week and overall with the minutes of code owed, next up, the path."""
    week, overall = balances(request.auth)
    progress = path_progress(request.auth)
    return {
        "username": request.auth.get_username(),
        "this_week": week,
        "overall": overall,
        "next_up": progress.next_up,
        "path": progress if progress.path is not None else None,
    }


@router.get("/export", response={200: dict, **errors()}, auth=auth.READ)
def get_export(request: ApiRequest) -> dict[str, Any]:
    """Everything the learner entered: the same document as /settings/export.json."""
    return export_document(request.auth)


@router.post(
    "/editor-key", response={201: EditorKeyOut, **errors(403)}, auth=[auth.TokenAuth(write=True)]
)
def issue_editor_key(request: ApiRequest) -> Status[dict[str, str]]:
    """A new editor key for WakaTime's plugins (replacing the previous one) and the
    ~/.wakatime.cfg block that uses it; the key is shown only in this answer."""
    key = EditorKey.objects.issue(user=request.auth)
    url = api_url(request)
    return Status(201, {"api_url": url, "api_key": key, "wakatime_cfg": wakatime_cfg(url, key)})
