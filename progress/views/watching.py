"""One-click changes to a learner's watching (progress/actions.py makes them): watched, not
watched, a sitting, followed, not followed; each answers htmx with the blocks it moved, or redirects
back to the step the form was in."""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from curriculum.models import Resource
from progress import actions
from progress.actions import ProgressError
from progress.blocks import resource_watch_context
from progress.next_url import safe_next_url
from progress.path import LONG_MINUTES, path_progress, states_for

# Element-id prefixes the forms send back ("step-12", "next-up"); anything else is ignored.
PLACE = re.compile(r"^[A-Za-z0-9_-]{1,120}$")


def posted_page(request):
    """The page whose other blocks follow a change: "path", "resource" or none."""
    page = request.POST.get("page", "")
    return page if page in {"path", "resource"} else ""


def posted_place(request):
    """The element id the form was in ("step-12", "next-up"), whose block the answer replaces."""
    place = request.POST.get("place", "")
    return place if PLACE.match(place) else "resource"


def back_to_place(request, back):
    """Without JavaScript, land back on the step the form was in, not at the top of the page."""
    if posted_page(request) != "path":
        return back
    place = posted_place(request)
    anchor = place if place.startswith("step-") else "next-up"
    return f"{back.split('#')[0]}#{anchor}"


def _resource(slug):
    return get_object_or_404(Resource.objects.select_related("series"), slug=slug)


def _change(request, resource, change, message, **arguments):
    """Apply one change to the learner's watching, then answer htmx or redirect back."""
    back = safe_next_url(request)
    try:
        watch = change(user=request.user, resource=resource, **arguments)
    except ProgressError as error:
        return _refused(request, resource, str(error), back)
    announcement = message % {"title": resource.title}
    if not request.htmx:
        messages.success(request, announcement)
        return redirect(back_to_place(request, back))
    context = {"announcement": announcement, "next_url": back, "oob": True}
    if request.POST.get("page") == "path":
        progress = path_progress(request.user)
        context |= {
            "progress": progress,
            "steps": progress.steps_for(resource),
            "stages": progress.stages_for(resource),
            "focus_next_up": _focus_moves_to_next_up(posted_place(request), resource, progress),
        }
        return render(request, "progress/dashboard.html#path-update", context)
    if request.POST.get("page") == "resource":
        # Watched minutes move the sittings, the coded sentence and the balance beside the buttons.
        context |= resource_watch_context(request.user, resource, posted_place(request), watch)
        return render(request, "progress/_resource_watch_response.html", context)
    context |= {"state": states_for(request.user, [resource])[resource.pk]}
    context["place"] = posted_place(request)
    return render(request, "progress/_watch.html#controls", context)


def _focus_moves_to_next_up(place, resource, progress):
    """The card the learner clicked in is gone or shows another resource: focus goes to the
    next-up card's first action, a link, so that a second key press marks nothing."""
    if place == "start-here":
        return not progress.shows_start_here
    if place.startswith("next-up"):
        return progress.next_up is None or progress.next_up.resource != resource
    return False


def _ask_to_confirm(request, state):
    """Nothing changed yet: the learner confirms crediting hours they did not log in sittings."""
    context = {
        "state": state,
        "place": posted_place(request),
        "page": posted_page(request),
        "next_url": safe_next_url(request),
        "confirming": True,
        "oob": True,
    }
    if request.htmx:
        return render(request, "progress/_watch.html#controls", context)
    return render(request, "progress/mark_watched_confirm.html", context)


def _refused(request, resource, error, back):
    """Nothing changed: htmx gets the controls again with the error, others a message."""
    if not request.htmx:
        messages.error(request, error)
        return redirect(back_to_place(request, back))
    context = {
        "state": states_for(request.user, [resource])[resource.pk],
        "place": posted_place(request),
        "page": posted_page(request),
        "next_url": back,
        "error": error,
        "minutes": request.POST.get("minutes", "")[:10],
        "oob": True,
    }
    return render(request, "progress/_watch.html#controls", context, status=422)


@require_POST
@login_required
def mark_watched(request, slug):
    """Finish in one click; a click that would credit hours not logged in sittings asks first."""
    resource = _resource(slug)
    if resource.duration_minutes and resource.duration_minutes >= LONG_MINUTES:
        state = states_for(request.user, [resource])[resource.pk]
        if state.credit_on_finish >= LONG_MINUTES and request.POST.get("confirm") != "yes":
            return _ask_to_confirm(request, state)
    return _change(request, resource, actions.mark_watched, _("“%(title)s” marked watched."))


@require_POST
@login_required
def mark_not_watched(request, slug):
    return _change(
        request, _resource(slug), actions.mark_not_watched, _("“%(title)s” marked not watched.")
    )


@require_POST
@login_required
def log_sitting(request, slug):
    return _change(
        request,
        _resource(slug),
        actions.log_sitting,
        _("Sitting logged for “%(title)s”."),
        minutes=request.POST.get("minutes", ""),
    )


@require_POST
@login_required
def mark_followed(request, slug):
    return _change(
        request, _resource(slug), actions.mark_followed, _("“%(title)s” marked followed.")
    )


@require_POST
@login_required
def mark_not_followed(request, slug):
    return _change(
        request, _resource(slug), actions.mark_not_followed, _("“%(title)s” marked not followed.")
    )
