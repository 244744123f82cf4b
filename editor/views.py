"""The WakaTime-compatible endpoints under the editor's api_url: heartbeats and the status bar."""

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from editor.auth import rate_refusal, with_editor_key
from editor.heartbeats import BadHeartbeat, Checked, parse_bulk, parse_one
from editor.models import EditorKey
from editor.status_bar import summary
from progress.editor_time import record_heartbeats
from progress.today import today_for

ACCEPTED = 201
BAD_REQUEST = 400


def body_of(request: HttpRequest) -> bytes:
    try:
        return request.body
    except RequestDataTooBig:
        raise BadHeartbeat("body", _("The body is too large: send fewer heartbeats.")) from None


def bad_request(error: BadHeartbeat) -> JsonResponse:
    return JsonResponse(error.as_json(), status=400)


# Authenticated by the key in a header, never by a cookie: there is no CSRF to check.
@csrf_exempt
@require_POST
@with_editor_key
def heartbeats_bulk(request: HttpRequest, key: EditorKey) -> HttpResponse:
    """A JSON array of at most 25 heartbeats, each answered on its own, in order: [{"data": …},
    201] so that the client drops it from its offline queue, or [{"error": …}, 400] (wakatime-cli's
    ParseHeartbeatResponses, wakatime 13's _get_results); the ones past 25 are not answered."""
    try:
        results = parse_bulk(body_of(request))
    except BadHeartbeat as error:
        return bad_request(error)
    if refused := rate_refusal(key, heartbeats=len(results)):
        return refused
    kept = [r.kept for r in results if isinstance(r, Checked) and r.kept is not None]
    record_heartbeats(user=key.user, heartbeats=kept, zone=timezone.get_current_timezone())
    responses = [
        [{"data": r.echo}, ACCEPTED] if isinstance(r, Checked) else [r.as_json(), BAD_REQUEST]
        for r in results
    ]
    return JsonResponse({"responses": responses}, status=ACCEPTED)


@csrf_exempt
@require_POST
@with_editor_key
def heartbeat(request: HttpRequest, key: EditorKey) -> HttpResponse:
    """One heartbeat, as a JSON object."""
    try:
        result = parse_one(body_of(request))
    except BadHeartbeat as error:
        return bad_request(error)
    if refused := rate_refusal(key, heartbeats=1):
        return refused
    kept = [result.kept] if result.kept is not None else []
    record_heartbeats(user=key.user, heartbeats=kept, zone=timezone.get_current_timezone())
    return JsonResponse({"data": result.echo}, status=ACCEPTED)


@require_GET
@with_editor_key
def status_bar_today(request: HttpRequest, key: EditorKey) -> HttpResponse:
    """Today's coded time and the day's code target under 1:3, which the plugins poll."""
    today = today_for(key.user, zone=timezone.get_current_timezone())
    return JsonResponse(summary(today))
