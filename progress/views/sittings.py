"""Views that correct a sitting: change its minutes or delete it (progress/actions.py recounts)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from lib.durations import duration
from lib.http import AuthenticatedHttpRequest
from lib.next_url import safe_next_url
from progress import actions
from progress.actions import ProgressError
from progress.models import WatchEvent
from progress.views.resource import watch_answer_response


def _learners_sitting(request: AuthenticatedHttpRequest, pk: int) -> WatchEvent:
    sittings = WatchEvent.objects.for_learner(request.user).sittings()
    return get_object_or_404(sittings.select_related("resource__series"), pk=pk)


def _changed(
    request: AuthenticatedHttpRequest,
    sitting: WatchEvent,
    announcement: str,
    *,
    deleted: bool = False,
) -> HttpResponse:
    """After a correction: a message and back to the page, or the page's blocks for htmx.

    Focus goes to the corrected row, or after a deletion to the sittings' heading: htmx focuses
    the element swapped in with autofocus; without JavaScript the address's fragment points there.
    """
    resource = sitting.resource
    back = safe_next_url(request, resource.get_absolute_url()).split("#")[0]
    if not request.htmx:
        messages.success(request, announcement)
        place = f"sittings-{resource.slug}-title" if deleted else f"sitting-{sitting.pk}"
        return redirect(f"{back}#{place}")
    return watch_answer_response(
        request,
        resource,
        place=f"watch-{resource.slug}",
        back=back,
        announcement=announcement,
        focus_sitting=None if deleted else sitting.pk,
        focus_heading=deleted,
    )


@login_required
@require_http_methods(["GET", "POST"])
def sitting_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = _learners_sitting(request, pk)
    context = {
        "sitting": sitting,
        "next_url": safe_next_url(request, sitting.resource.get_absolute_url()),
    }
    if request.method == "POST":
        minutes = request.POST.get("minutes", "")
        try:
            actions.correct_sitting(user=request.user, sitting_id=sitting.pk, minutes=minutes)
        except WatchEvent.DoesNotExist:
            raise Http404 from None
        except ProgressError as error:
            context |= {"error": str(error), "minutes": minutes[:10], "oob": True}
            template = "progress/sitting_edit.html"
            template += "#form" if request.htmx else ""
            return render(request, template, context, status=422)
        announcement = _("Sitting corrected for “%(title)s”.") % {"title": sitting.resource.title}
        return _changed(request, sitting, announcement)
    template = "progress/sitting_edit.html#form" if request.htmx else "progress/sitting_edit.html"
    return render(request, template, context | {"minutes": sitting.logged_minutes})


@login_required
@require_http_methods(["GET", "POST"])
def sitting_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = _learners_sitting(request, pk)
    if request.method == "POST":
        try:
            actions.delete_sitting(user=request.user, sitting_id=sitting.pk)
        except WatchEvent.DoesNotExist:
            raise Http404 from None
        announcement = _("Sitting of %(minutes)s deleted from “%(title)s”.") % {
            "minutes": duration(sitting.logged_minutes),
            "title": sitting.resource.title,
        }
        return _changed(request, sitting, announcement, deleted=True)
    context = {
        "sitting": sitting,
        "next_url": safe_next_url(request, sitting.resource.get_absolute_url()),
    }
    # With htmx the question replaces the row; without, it is a page of its own.
    template = (
        "progress/sitting_delete.html#confirm" if request.htmx else "progress/sitting_delete.html"
    )
    return render(request, template, context)
