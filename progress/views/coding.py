"""The coding log: /coding/, and adding, editing or deleting a coding session."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from curriculum import structure
from curriculum.models import Resource
from lib.durations import day_label, duration
from lib.http import AuthenticatedHttpRequest, HtmxHttpRequest
from lib.next_url import safe_next_url
from progress import resource_page
from progress.actions import save_once
from progress.coding_log import coding_log_page
from progress.editor_time import tie_editor_project
from progress.forms import CodingSessionForm, EditorProjectForm
from progress.models import CodingSession, EditorProject
from progress.resource_learner import learner_rows
from progress.views.events import coding_changed


@dataclass(frozen=True, slots=True)
class DeletedSession:
    """A session as the page that asks before deleting it names it."""

    pk: int
    day: str
    time: str
    built: str


def announce_saved(request: HtmxHttpRequest, created: bool) -> None:
    if created:
        messages.success(request, _("Coding session saved."))
    else:
        messages.info(request, _("This coding session was already saved."))


@login_required
@require_http_methods(["GET", "POST"])
def coding_log(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = None
    if request.method == "POST":
        form = CodingSessionForm(request.POST, curriculum=structure.current())
        if form.is_valid():
            _session, created = save_once(form, request.user)
            announce_saved(request, created)
            return redirect("progress:coding_log")
    curriculum = structure.current()
    page = coding_log_page(request.user, curriculum, request.GET.get("page"), form=form)
    return render(request, "progress/coding_log.jinja", {"page": page}, using="jinja2")


@login_required
@require_POST
def coding_session_add(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    resource = get_object_or_404(Resource, slug=slug)
    form = CodingSessionForm(request.POST, resource=resource)
    saved = form.is_valid()
    if saved:
        _session, created = save_once(form, request.user)
        if not request.htmx:
            announce_saved(request, created)
            back_to = safe_next_url(request, reverse("progress:coding_log"))
            return coding_changed(redirect(back_to), resource, _("Coding session saved."))
    # The resource page's coding block again, from the learner's rows read again; the
    # page follows the event coding-changed for its balance.
    rows = learner_rows(request.user, resource, timezone.localdate())
    back = request.POST.get("next") or request.get_full_path()
    if saved:
        status = _("Coding session saved.")
        block = resource_page.coding(resource, rows, back, status=status)
        answer = render(
            request, "progress/resource_coding_answer.jinja", {"coding": block}, using="jinja2"
        )
        return coding_changed(answer, resource, status)
    context: dict[str, object] = {"coding": resource_page.coding(resource, rows, back, form=form)}
    if request.htmx:
        return render(request, "progress/resource_coding_answer.jinja", context, using="jinja2")
    context["title"] = resource.title
    return render(request, "progress/coding_session_add.jinja", context, using="jinja2")


@login_required
@require_http_methods(["GET", "POST"])
def coding_session_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(CodingSession.objects.typed(), pk=pk, user=request.user)
    form = CodingSessionForm(request.POST or None, instance=session)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Coding session updated."))
        return redirect("progress:coding_log")
    context = {"form": form, "session": session}
    return render(request, "progress/coding_session_edit.jinja", context, using="jinja2")


@login_required
@require_http_methods(["GET", "POST"])
def coding_session_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(CodingSession.objects.typed(), pk=pk, user=request.user)
    if request.method == "POST":
        session.delete()
        messages.success(request, _("Coding session deleted."))
        return redirect("progress:coding_log")
    shown = DeletedSession(
        pk=session.pk,
        day=day_label(session.day),
        time=duration(session.minutes),
        built=session.built,
    )
    return render(
        request, "progress/coding_session_delete.jinja", {"session": shown}, using="jinja2"
    )


@login_required
@require_http_methods(["GET", "POST"])
def editor_project(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    project = get_object_or_404(EditorProject, pk=pk, user=request.user)
    # Not `request.POST or None`: unticking the only box posts nothing, which is still a POST.
    data = request.POST if request.method == "POST" else None
    form = EditorProjectForm(data, instance=project)
    if request.method == "POST" and form.is_valid():
        tie_editor_project(project=project, **form.cleaned_data)
        messages.success(request, _("Where the project counts is saved."))
        return redirect("progress:coding_log")
    context = {"form": form, "project": project}
    return render(request, "progress/editor_project.jinja", context, using="jinja2")
