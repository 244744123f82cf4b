"""One-click changes to a learner's watching (progress/actions.py makes them): watched, not
watched, a sitting, followed, not followed; each answers htmx with the blocks it moved, or redirects
back to the step the form was in."""

import re
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import trigger_client_event

from curriculum import structure
from curriculum.models import Resource
from lib.http import AuthenticatedHttpRequest, HtmxHttpRequest
from lib.next_url import safe_next_url
from progress import actions
from progress.actions import ProgressError
from progress.dashboard import DashboardPage, dashboard_page
from progress.models import Watch
from progress.pages import watch_controls
from progress.path import ResourceState, states_for
from progress.views.resource import watch_answer_response

# The htmx event every one-click change's answer carries: {"resource": slug, "status": ...}.
WATCH_CHANGED = "watch-changed"

# Element-id prefixes the forms send back ("step-12", "next-up"); anything else is ignored.
PLACE = re.compile(r"^[A-Za-z0-9_-]{1,120}$")


def posted_page(request: HtmxHttpRequest) -> str:
    """The page whose other blocks follow a change: "path", "resource" or none."""
    page = request.POST.get("page", "")
    return page if page in {"path", "resource"} else ""


def posted_place(request: HtmxHttpRequest) -> str:
    """The element id the form was in ("step-12", "next-up"), whose block the answer replaces."""
    place = request.POST.get("place", "")
    return place if PLACE.match(place) else "resource"


def back_to_place(request: HtmxHttpRequest, back: str) -> str:
    """Without JavaScript, land back on the step the form was in, not at the top of the page."""
    if posted_page(request) != "path":
        return back
    place = posted_place(request)
    anchor = place if place.startswith("step-") else "next-up"
    return f"{back.split('#')[0]}#{anchor}"


def _resource(slug: str) -> Resource:
    """The resource from this process's copy of the curriculum (the revision token's query)."""
    resource = structure.current().by_slug.get(slug)
    if resource is None:
        raise Http404
    return resource


def _change(
    request: AuthenticatedHttpRequest,
    slug: str,
    change: Callable[..., Watch | None],
    message: str,
    **arguments: object,
) -> HttpResponse:
    """Apply one change to the learner's watching, then answer htmx or redirect back; either
    answer names the change in an htmx event, for the page's other blocks to follow."""
    back = safe_next_url(request)
    resource, watch = _at_held_revision(request.user, slug, change, **arguments)
    if resource is None:
        resource = _resource(slug)
        try:
            watch = change(user=request.user, resource=resource, **arguments)
        except ProgressError as error:
            return _refused(request, resource, str(error), back)
    state = ResourceState(resource=resource, watch=watch)
    response = _changed(request, state, message, back)
    changed = {"resource": resource.slug, "status": state.status}
    trigger_client_event(response, WATCH_CHANGED, changed)
    return response


def _at_held_revision(
    user: User, slug: str, change: Callable[..., Watch | None], **arguments: object
) -> tuple[Resource | None, Watch | None]:
    """The change made with the resource of the curriculum this process holds, the change's own
    statement checking that the curriculum is still at that revision, so that no query reads the
    token first. (None, None) when it must be made at the current curriculum instead: the
    curriculum changed, the slug is not in the held one, or the change was refused (the refusal
    is then told from the current curriculum)."""
    curriculum = structure.held()
    resource = curriculum.by_slug.get(slug) if curriculum is not None else None
    if curriculum is None or resource is None:
        return None, None
    try:
        return resource, change(
            user=user, resource=resource, revision=curriculum.token, **arguments
        )
    except (actions.CurriculumChanged, ProgressError):
        return None, None


def _changed(
    request: AuthenticatedHttpRequest, state: ResourceState, message: str, back: str
) -> HttpResponse:
    """The answer to a change made: the blocks it moved for htmx, else a redirect back."""
    resource = state.resource
    announcement = message % {"title": resource.title}
    if not request.htmx:
        messages.success(request, announcement)
        return redirect(back_to_place(request, back))
    if request.POST.get("page") == "path":
        page = dashboard_page(request.user)
        path = {
            "update": "path",
            "page": page,
            "announcement": announcement,
            "back": back,
            "tiles": page.tiles_of(resource.pk),
            "stages": page.stages_of(resource.pk),
            "focus_next_up": _focus_moves_to_next_up(posted_place(request), resource, page),
        }
        return render(request, "progress/dashboard_update.jinja", path, using="jinja2")
    if request.POST.get("page") == "resource":
        # Watched minutes move the sittings, the coded sentence and the balance beside the buttons.
        place = posted_place(request)
        return watch_answer_response(
            request, resource, place=place, back=back, announcement=announcement
        )
    return _controls(request, state, back)


def _focus_moves_to_next_up(place: str, resource: Resource, page: DashboardPage) -> bool:
    """The card the learner clicked in is gone or shows another resource: focus goes to the
    next-up card's first action, a link, so that a second key press marks nothing."""
    if place == "start-here":
        return page.start_here is None
    if place.startswith("next-up"):
        step = page.next_up.step
        return step is None or step.resource_id != resource.pk
    return False


def _ask_to_confirm(request: HtmxHttpRequest, state: ResourceState) -> HttpResponse:
    """Nothing changed yet: the learner confirms crediting hours they did not log in sittings."""
    if request.htmx:
        return _controls(request, state, safe_next_url(request), confirming=True)
    context = {
        "state": state,
        "place": posted_place(request),
        "page": posted_page(request),
        "next_url": safe_next_url(request),
        "confirming": True,
    }
    return render(request, "progress/mark_watched_confirm.html", context)


def _refused(
    request: AuthenticatedHttpRequest, resource: Resource, error: str, back: str
) -> HttpResponse:
    """Nothing changed: htmx gets the controls again with the error, others a message."""
    if not request.htmx:
        messages.error(request, error)
        return redirect(back_to_place(request, back))
    state = states_for(request.user, [resource])[resource.pk]
    minutes = request.POST.get("minutes", "")[:10]
    return _controls(request, state, back, error=error, minutes=minutes, status=422)


def _controls(
    request: HtmxHttpRequest,
    state: ResourceState,
    back: str,
    *,
    confirming: bool = False,
    error: str = "",
    minutes: str = "",
    status: int = 200,
) -> HttpResponse:
    """The resource's controls alone, swapped in out of band where the form was."""
    context = {
        "controls": watch_controls(state, posted_place(request)),
        "back": back,
        "page": posted_page(request),
        "confirming": confirming,
        "error": error,
        "minutes": minutes,
    }
    return render(request, "progress/watch_controls.jinja", context, status=status, using="jinja2")


@require_POST
@login_required
def mark_watched(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Finish in one click; a click that would credit hours not logged in sittings asks first."""
    confirmed = request.POST.get("confirm") == "yes"
    message = _("“%(title)s” marked watched.")
    try:
        return _change(request, slug, actions.mark_watched, message, confirmed=confirmed)
    except actions.NotConfirmed as question:
        return _ask_to_confirm(request, ResourceState(question.resource, question.watch))


@require_POST
@login_required
def mark_not_watched(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _change(request, slug, actions.mark_not_watched, _("“%(title)s” marked not watched."))


@require_POST
@login_required
def log_sitting(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _change(
        request,
        slug,
        actions.log_sitting,
        _("Sitting logged for “%(title)s”."),
        minutes=request.POST.get("minutes", ""),
    )


@require_POST
@login_required
def mark_followed(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _change(request, slug, actions.mark_followed, _("“%(title)s” marked followed."))


@require_POST
@login_required
def mark_not_followed(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _change(request, slug, actions.mark_not_followed, _("“%(title)s” marked not followed."))
