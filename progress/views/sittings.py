"""Views that correct a sitting: change its minutes or delete it (progress/actions.py recounts).

With htmx each answers the resource page's sittings list, the block its form is in, with the
event watch-changed, which the page follows by refreshing its other blocks (controls, coded
state, balance: static/js/blocks_follow.js); without JavaScript it redirects to the page, at the
corrected row or the sittings' heading."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_htmx.http import retarget

from lib.durations import duration
from lib.http import AuthenticatedHttpRequest
from lib.next_url import safe_next_url
from progress import actions, resource_page
from progress.actions import ProgressError
from progress.models import Watch, WatchEvent
from progress.path import ResourceState
from progress.resource_learner import Sitting, learner_rows
from progress.views.events import watch_changed


def _learners_sitting(request: AuthenticatedHttpRequest, pk: int) -> WatchEvent:
    sittings = WatchEvent.objects.for_learner(request.user).sittings()
    return get_object_or_404(sittings.select_related("resource__series"), pk=pk)


def _changed(
    request: AuthenticatedHttpRequest,
    sitting: WatchEvent,
    watch: Watch,
    announcement: str,
    *,
    deleted: bool = False,
) -> HttpResponse:
    """After a correction: a message and back to the page, or the sittings list for htmx; either
    answer names the change in the event watch-changed.

    Focus goes to the corrected row, or after a deletion to the row now in its place (the
    heading without JavaScript): htmx focuses what it swaps in with autofocus; without
    JavaScript the address's fragment points there.
    """
    resource = sitting.resource
    back = safe_next_url(request, resource.get_absolute_url()).split("#")[0]
    if request.htmx:
        response = _sittings_list(request, sitting, back, deleted=deleted)
    else:
        messages.success(request, announcement)
        place = f"sittings-{resource.slug}-title" if deleted else f"sitting-{sitting.pk}"
        response = redirect(f"{back}#{place}")
    status = ResourceState(resource=resource, watch=watch).status
    return watch_changed(response, resource, status, announcement)


def _sittings_list(
    request: AuthenticatedHttpRequest, sitting: WatchEvent, back: str, *, deleted: bool
) -> HttpResponse:
    """The resource page's sittings list, read again."""
    resource = sitting.resource
    rows = learner_rows(request.user, resource, timezone.localdate())
    focus = _in_place_of(sitting, rows.sittings) if deleted else sitting.pk
    empty = deleted and not rows.sittings
    block = resource_page.sittings(resource, rows, back, focus=focus, focus_empty=empty)
    context = {"sittings": block}
    return render(request, "progress/sittings_answer.jinja", context, using="jinja2")


def _in_place_of(deleted: WatchEvent, sittings: tuple[Sitting, ...]) -> int | None:
    """The sitting listed after the deleted one (newest first), or the one before when it was
    the last; None when none is left."""
    deleted_key = (deleted.at, deleted.pk)
    older = [s.pk for s in sittings if (s.at, s.pk) < deleted_key]
    newer = [s.pk for s in sittings if (s.at, s.pk) > deleted_key]
    if older:
        return older[0]
    return newer[-1] if newer else None


@login_required
@require_http_methods(["GET", "POST"])
def sitting_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = _learners_sitting(request, pk)
    back = safe_next_url(request, sitting.resource.get_absolute_url())
    inline = bool(request.htmx)
    if request.method == "POST":
        minutes = request.POST.get("minutes", "")
        try:
            watch = actions.correct_sitting(
                user=request.user, sitting_id=sitting.pk, minutes=minutes
            )
        except WatchEvent.DoesNotExist:
            raise Http404 from None
        except ProgressError as error:
            form = resource_page.sitting_form(
                sitting, back, inline=inline, minutes=minutes[:10], error=str(error)
            )
            return _refused(request, form)
        announcement = _("Sitting corrected for “%(title)s”.") % {"title": sitting.resource.title}
        return _changed(request, sitting, watch, announcement)
    form = resource_page.sitting_form(sitting, back, inline=inline)
    return _form(request, form, "progress/sitting_edit.jinja")


def _form(
    request: AuthenticatedHttpRequest, form: resource_page.SittingForm, page: str, status: int = 200
) -> HttpResponse:
    """The sitting's form on its page, or alone with htmx, in the place of its row."""
    template = "progress/sitting_form.jinja" if request.htmx else page
    return render(request, template, {"sitting": form}, status=status, using="jinja2")


def _refused(request: AuthenticatedHttpRequest, form: resource_page.SittingForm) -> HttpResponse:
    """Nothing changed: the form again with the error, which htmx swaps over the form itself."""
    response = _form(request, form, "progress/sitting_edit.jinja", status=422)
    return retarget(response, "this") if request.htmx else response


@login_required
@require_http_methods(["GET", "POST"])
def sitting_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
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
        return _changed(request, sitting, watch, announcement, deleted=True)
    back = safe_next_url(request, sitting.resource.get_absolute_url())
    # With htmx the question replaces the row; without, it is a page of its own.
    form = resource_page.sitting_form(sitting, back, inline=bool(request.htmx), deleting=True)
    return _form(request, form, "progress/sitting_delete.jinja")
