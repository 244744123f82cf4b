"""Views of the coding log (/practice/, adding from a resource page) and of private notes."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from curriculum.models import Resource
from progress.balance import balances, coding_for_resource, learner_minutes
from progress.models import Note, Practice
from progress.next_url import safe_next_url
from progress.practice_forms import NoteForm, PracticeForm
from progress.row_urls import url_for_each

SESSIONS_PER_PAGE = 20
RESOURCE_SESSIONS_SHOWN = 5


def save_once(form, user):
    """Save a new session, or return the one already saved from the same form, and whether it is new."""
    form.instance.user = user
    try:
        with transaction.atomic():
            return form.save(), True
    except IntegrityError:
        key = form.cleaned_data["idempotency_key"]
        existing = Practice.objects.for_learner(user).filter(idempotency_key=key).first()
        if existing is None:
            raise
        return existing, False


def announce_saved(request, created):
    if created:
        messages.success(request, _("Coding session saved."))
    else:
        messages.info(request, _("This coding session was already saved."))


def with_links(sessions):
    """The sessions, each with the URLs its row links to, reversed once for the whole list."""
    sessions = list(sessions)
    edit_url = url_for_each("progress:practice_edit")
    delete_url = url_for_each("progress:practice_delete")
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


def balance_context(user):
    week, overall = balances(user)
    return {"week_balance": week, "overall_balance": overall}


def resource_practice_context(request, resource, form=None, status=""):
    """What the resource page's practice block shows: coded state, recent sessions, the form."""
    sessions = Practice.objects.for_learner(request.user).filter(resource=resource).for_list()
    return {
        "resource": resource,
        "coding": coding_for_resource(request.user, resource),
        "resource_sessions": sessions[:RESOURCE_SESSIONS_SHOWN],
        "practice_form": form or PracticeForm(resource=resource),
        "practice_status": status,
        "next": request.POST.get("next") or request.get_full_path(),
    }


@login_required
@require_http_methods(["GET", "POST"])
def practice(request):
    form = PracticeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        _session, created = save_once(form, request.user)
        announce_saved(request, created)
        return redirect("progress:practice")
    minutes = learner_minutes(request.user)
    paginator = Paginator(Practice.objects.for_learner(request.user).for_list(), SESSIONS_PER_PAGE)
    paginator.count = minutes.sessions  # counted with the balances, in the same query
    page = paginator.get_page(request.GET.get("page"))
    context = {
        "form": form,
        "page": page,
        "sessions": with_links(page.object_list),
        "week_balance": minutes.week,
        "overall_balance": minutes.overall,
    }
    return render(request, "progress/practice.html", context)


@login_required
@require_POST
def practice_add(request, slug):
    resource = get_object_or_404(Resource, slug=slug)
    form = PracticeForm(request.POST, resource=resource)
    if form.is_valid():
        _session, created = save_once(form, request.user)
        if not request.htmx:
            announce_saved(request, created)
            return redirect(safe_next_url(request, reverse("progress:practice")))
        status = _("Coding session saved.")
        context = resource_practice_context(request, resource, status=status)
        context.update(balance_context(request.user), oob=True)
        return render(request, "progress/_resource_practice_response.html", context)
    context = resource_practice_context(request, resource, form=form)
    if request.htmx:
        return render(request, "progress/_resource_practice.html", context)
    return render(request, "progress/practice_add.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def practice_edit(request, pk):
    session = get_object_or_404(Practice, pk=pk, user=request.user)
    form = PracticeForm(request.POST or None, instance=session)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Coding session updated."))
        return redirect("progress:practice")
    return render(request, "progress/practice_edit.html", {"form": form, "session": session})


@login_required
@require_http_methods(["GET", "POST"])
def practice_delete(request, pk):
    session = get_object_or_404(Practice, pk=pk, user=request.user)
    if request.method == "POST":
        session.delete()
        messages.success(request, _("Coding session deleted."))
        return redirect("progress:practice")
    return render(request, "progress/practice_delete.html", {"session": session})


def note_context(request, resource, form=None, status=""):
    note = Note.objects.for_learner(request.user).filter(resource=resource).first()
    return {
        "resource": resource,
        "note": note,
        "note_form": form or NoteForm(instance=note),
        "note_status": status,
        "next": request.POST.get("next") or request.get_full_path(),
    }


@login_required
@require_http_methods(["GET", "POST"])
def note(request, slug):
    resource = get_object_or_404(Resource, slug=slug)
    if request.method == "GET":
        return render(request, "progress/note.html", note_context(request, resource))
    existing = Note.objects.for_learner(request.user).filter(resource=resource).first()
    note = existing or Note(user=request.user, resource=resource)
    form = NoteForm(request.POST, instance=note)
    if not form.is_valid():
        template = "progress/_note.html" if request.htmx else "progress/note.html"
        return render(request, template, note_context(request, resource, form=form))
    if form.cleaned_data["text"]:
        form.save()
        status = _("Note saved.")
    else:
        if existing:
            existing.delete()
        status = _("Note deleted.")
    if request.htmx:
        return render(
            request, "progress/_note.html", note_context(request, resource, status=status)
        )
    messages.success(request, status)
    return redirect(safe_next_url(request, reverse("progress:note", args=[resource.slug])))
