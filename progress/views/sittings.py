"""Views that correct a sitting: change its minutes or delete it (progress/actions.py recounts)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from curriculum.templatetags.curriculum import duration
from progress import actions
from progress.actions import ProgressError
from progress.blocks import resource_watch_context
from progress.models import WatchEvent
from progress.next_url import safe_next_url


def _learners_sitting(request, pk):
    sittings = WatchEvent.objects.for_learner(request.user).sittings()
    return get_object_or_404(sittings.select_related("resource__series"), pk=pk)


def _changed(request, sitting, watch, announcement):
    """After a correction: a message and back to the page, or the page's blocks for htmx."""
    back = safe_next_url(request, sitting.resource.get_absolute_url())
    if not request.htmx:
        messages.success(request, announcement)
        return redirect(back)
    resource = sitting.resource
    context = resource_watch_context(request.user, resource, f"watch-{resource.slug}", watch)
    context |= {"next_url": back, "oob": True, "announcement": announcement}
    return render(request, "progress/_resource_watch_response.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def sitting_edit(request, pk):
    sitting = _learners_sitting(request, pk)
    context = {
        "sitting": sitting,
        "next_url": safe_next_url(request, sitting.resource.get_absolute_url()),
    }
    if request.method == "POST":
        minutes = request.POST.get("minutes", "")
        try:
            watch = actions.correct_sitting(
                user=request.user, sitting_id=sitting.pk, minutes=minutes
            )
        except WatchEvent.DoesNotExist:
            raise Http404 from None
        except ProgressError as error:
            context |= {"error": str(error), "minutes": minutes[:10], "oob": True}
            template = "progress/sitting_edit.html"
            template += "#form" if request.htmx else ""
            return render(request, template, context, status=422)
        announcement = _("Sitting corrected for “%(title)s”.") % {"title": sitting.resource.title}
        return _changed(request, sitting, watch, announcement)
    template = "progress/sitting_edit.html#form" if request.htmx else "progress/sitting_edit.html"
    return render(request, template, context | {"minutes": sitting.logged_minutes})


@login_required
@require_http_methods(["GET", "POST"])
def sitting_delete(request, pk):
    sitting = _learners_sitting(request, pk)
    if request.method == "POST":
        try:
            watch = actions.delete_sitting(user=request.user, sitting_id=sitting.pk)
        except WatchEvent.DoesNotExist:
            raise Http404 from None
        announcement = _("Sitting of %(minutes)s deleted from “%(title)s”.") % {
            "minutes": duration(sitting.logged_minutes),
            "title": sitting.resource.title,
        }
        return _changed(request, sitting, watch, announcement)
    context = {
        "sitting": sitting,
        "next_url": safe_next_url(request, sitting.resource.get_absolute_url()),
    }
    return render(request, "progress/sitting_delete.html", context)
