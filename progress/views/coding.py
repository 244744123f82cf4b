"""The coding log: /coding/, and adding, editing or deleting a coding session."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from curriculum.models import Resource
from progress.actions import save_once
from progress.balance import learner_minutes
from progress.blocks import balance_context, resource_coding_context
from progress.forms import CodingSessionForm
from progress.models import CodingSession
from progress.next_url import safe_next_url
from progress.row_urls import url_for_each

SESSIONS_PER_PAGE = 20


def announce_saved(request, created):
    if created:
        messages.success(request, _("Coding session saved."))
    else:
        messages.info(request, _("This coding session was already saved."))


def with_links(sessions):
    """The sessions, each with the URLs its row links to, reversed once for the whole list."""
    sessions = list(sessions)
    edit_url = url_for_each("progress:coding_session_edit")
    delete_url = url_for_each("progress:coding_session_delete")
    resource_url = url_for_each("curriculum:resource_detail")
    guide_url = reverse("curriculum:guide")
    for session in sessions:
        session.edit_url = edit_url(session.pk)
        session.delete_url = delete_url(session.pk)
        if session.resource_id:
            session.resource_url = resource_url(session.resource.slug)
        if session.chapter_id:
            chapter = session.chapter
            session.chapter_url = f"{guide_url}#chapter-{chapter.part.number}-{chapter.number}"
    return sessions


@login_required
@require_http_methods(["GET", "POST"])
def coding_log(request):
    form = CodingSessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        _session, created = save_once(form, request.user)
        announce_saved(request, created)
        return redirect("progress:coding_log")
    minutes = learner_minutes(request.user)
    paginator = Paginator(
        CodingSession.objects.for_learner(request.user).for_list(), SESSIONS_PER_PAGE
    )
    paginator.count = minutes.sessions  # counted with the balances, in the same query
    page = paginator.get_page(request.GET.get("page"))
    context = {
        "form": form,
        "page": page,
        "sessions": with_links(page.object_list),
        "week_balance": minutes.week,
        "overall_balance": minutes.overall,
    }
    return render(request, "progress/coding_log.html", context)


@login_required
@require_POST
def coding_session_add(request, slug):
    resource = get_object_or_404(Resource, slug=slug)
    form = CodingSessionForm(request.POST, resource=resource)
    if form.is_valid():
        _session, created = save_once(form, request.user)
        if not request.htmx:
            announce_saved(request, created)
            return redirect(safe_next_url(request, reverse("progress:coding_log")))
        status = _("Coding session saved.")
        context = resource_coding_context(request, resource, status=status)
        context.update(balance_context(request.user), oob=True)
        return render(request, "progress/_resource_coding_response.html", context)
    context = resource_coding_context(request, resource, form=form)
    if request.htmx:
        return render(request, "progress/_resource_coding.html", context)
    return render(request, "progress/coding_session_add.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def coding_session_edit(request, pk):
    session = get_object_or_404(CodingSession, pk=pk, user=request.user)
    form = CodingSessionForm(request.POST or None, instance=session)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Coding session updated."))
        return redirect("progress:coding_log")
    return render(request, "progress/coding_session_edit.html", {"form": form, "session": session})


@login_required
@require_http_methods(["GET", "POST"])
def coding_session_delete(request, pk):
    session = get_object_or_404(CodingSession, pk=pk, user=request.user)
    if request.method == "POST":
        session.delete()
        messages.success(request, _("Coding session deleted."))
        return redirect("progress:coding_log")
    return render(request, "progress/coding_session_delete.html", {"session": session})
