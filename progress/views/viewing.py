"""The player's beats: while a video plays on its resource page, the page sends the ranges played
(static/js/player.js); progress/actions.py records them as a sitting, a resume point and, at
95 %, the resource watched. JSON in, JSON out; a refused beat writes nothing."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from curriculum import structure
from curriculum.models import Resource
from lib.http import AuthenticatedHttpRequest
from progress import actions
from progress.actions import ProgressError
from progress.beats import BadBeat, read_beat
from progress.models import Profile
from progress.throttling import within_rate

# A player sends a beat every 30 s and on pause, end and page hide: far fewer than this.
BEATS_PER_MINUTE = 30


def _refused(status: int, field: str | None, message: object, code: str) -> JsonResponse:
    return JsonResponse(
        {"recorded": False, "error": {"code": code, "field": field, "message": str(message)}},
        status=status,
    )


@require_POST
@login_required
def record_viewing(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Record one beat of the learner's viewing session of a video."""
    if not within_rate(f"viewing:{request.user.pk}", BEATS_PER_MINUTE, 60):
        return _refused(429, None, _("Too many beats: wait a minute."), "rate_limited")
    records, revision = Profile.objects.records_viewing_at_revision(request.user.pk)
    resource = structure.at_revision(revision).by_slug.get(slug)
    if resource is None or not resource.has_video:
        message = _("No video of this address plays on Parcours.")
        return _refused(400, "resource", message, "no_video")
    if not records:
        message = _("Recording what you play is turned off in your settings.")
        return _refused(409, None, message, "recording_off")
    try:
        beat = read_beat(request.body)
        recorded = actions.record_viewing(user=request.user, resource=resource, beat=beat)
    except BadBeat as error:
        return _refused(400, error.field, error.message, "bad_beat")
    except ProgressError as error:
        return _refused(400, "resource", error, "not_watched")
    return JsonResponse(_answer(resource, recorded))


def _answer(resource: Resource, recorded: actions.ViewingRecorded) -> dict[str, object]:
    watch = recorded.watch
    announcement = ""
    if recorded.finished_now:
        announcement = _("“%(title)s” is watched: you played 95 %% of it.") % {
            "title": resource.title
        }
    return {
        "recorded": True,
        "viewing": str(recorded.viewing.key),
        "session_seconds": recorded.viewing.played_seconds,
        "watched_seconds": recorded.watched_seconds,
        "watched_minutes": watch.watched_minutes,
        "sitting": recorded.viewing.sitting_id,
        "finished": watch.is_finished,
        "finished_now": recorded.finished_now,
        "resume_seconds": watch.resume_seconds,
        "announcement": announcement,
    }
