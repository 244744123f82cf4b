"""One-click changes to a learner's watching (progress/actions.py makes them): watched, not
watched, a sitting, followed, not followed, skipped ("I already know this") and back. With htmx
each answers the resource's controls alone, swapped over the block the form is in, with the htmx
event watch-changed naming the change, which the page follows by refreshing its own blocks
(static/js/blocks_follow.js); without JavaScript it redirects to the form's next address, anchor
included."""

import re
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from curriculum import structure
from curriculum.models import Resource
from lib.http import AuthenticatedHttpRequest, HtmxHttpRequest
from lib.next_url import safe_next_url
from progress import actions
from progress.actions import ProgressError
from progress.models import Watch
from progress.pages import watch_controls
from progress.path import ResourceState, states_for
from progress.views.events import watch_changed

# The id of the controls' block htmx swaps the answer over (HX-Target), "step-12-watch": the
# answer's ids keep its prefix, so that focus stays on the same button; anything else is ignored.
BLOCK = re.compile(r"^([A-Za-z0-9_-]{1,120})-watch$")


def _place(request: HtmxHttpRequest, resource: Resource) -> str:
    """The prefix of the ids of the block the form is in, as htmx names its target."""
    block = BLOCK.match(request.htmx.target or "") if request.htmx else None
    return block.group(1) if block else f"watch-{resource.slug}"


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
    resource = _resource(slug)
    try:
        watch = change(user=request.user, resource=resource, **arguments)
    except ProgressError as error:
        return _refused(request, resource, str(error), back)
    state = ResourceState(resource=resource, watch=watch)
    announcement = message % {"title": resource.title}
    if request.htmx:
        response = _controls(request, state, back)
    else:
        messages.success(request, announcement)
        response = redirect(back)
    return watch_changed(response, resource, state.status, announcement)


def _ask_to_confirm(request: HtmxHttpRequest, state: ResourceState) -> HttpResponse:
    """Nothing changed yet: the learner confirms crediting hours they did not log in sittings."""
    back = safe_next_url(request)
    if request.htmx:
        return _controls(request, state, back, confirming=True)
    page, hash_sign, anchor = back.partition("#")
    controls = watch_controls(state, f"watch-{state.resource.slug}", anchor=hash_sign + anchor)
    context = {"controls": controls, "back": page}
    return render(request, "progress/mark_watched_confirm.jinja", context, using="jinja2")


def _refused(
    request: AuthenticatedHttpRequest, resource: Resource, error: str, back: str
) -> HttpResponse:
    """Nothing changed: htmx gets the controls again with the error, others a message."""
    if not request.htmx:
        messages.error(request, error)
        return redirect(back)
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
    """The resource's controls alone, swapped over the block the form is in; they come back to
    the address the form came back to, anchor included."""
    page, hash_sign, anchor = back.partition("#")
    controls = watch_controls(state, _place(request, state.resource), anchor=hash_sign + anchor)
    context = {
        "controls": controls,
        "back": page,
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


@require_POST
@login_required
def skip(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """ "I already know this": the path goes past the step, and it owes no code."""
    return _change(request, slug, actions.skip, _("“%(title)s” skipped: you already know it."))


@require_POST
@login_required
def unskip(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _change(request, slug, actions.unskip, _("“%(title)s” is back on your path."))
