"""The editor page (/settings/editor/): create the editor key, shown once in the ~/.wakatime.cfg
block to paste, or revoke it."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from editor.models import EditorKey
from editor.wakatime_cfg import api_url, legacy_api_url, wakatime_cfg
from lib.http import AuthenticatedHttpRequest


@dataclass(frozen=True, slots=True)
class EditorKeyPage:
    """The learner's editor key: whether there is one and its dates, a new one's settings."""

    has_key: bool
    created: str
    used: str  # "" for never used
    created_cfg: str  # the ~/.wakatime.cfg lines of a key just made, shown only once
    legacy_api_url: str


def when(moment) -> str:
    """A moment in the learner's time zone, written long as in every sentence ("5 December 2026,
    13:11"); "" for none."""
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT") if moment else ""


@login_required
@require_http_methods(["GET", "POST"])
def editor_key(request: AuthenticatedHttpRequest) -> HttpResponse:
    created_cfg = ""
    if request.method == "POST":
        clear = EditorKey.objects.issue(user=request.user)
        # Rendered, not redirected: the clear key exists only in this response.
        created_cfg = wakatime_cfg(api_url(request), clear)
    key = EditorKey.objects.filter(user=request.user).first()
    page = EditorKeyPage(
        has_key=key is not None,
        created=when(key.created_at) if key else "",
        used=when(key.last_used_at) if key else "",
        created_cfg=created_cfg,
        legacy_api_url=legacy_api_url(request),
    )
    response = render(request, "editor/key.jinja", {"page": page}, using="jinja2")
    if created_cfg:
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def revoke_editor_key(request):
    EditorKey.objects.filter(user=request.user).delete()
    messages.success(request, _("Your editor key is revoked: your editor can no longer send time."))
    return redirect("editor:key")
