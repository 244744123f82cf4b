"""A learner's private note on a resource: shown and saved on the resource page, or on its own page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from curriculum.models import Resource
from lib.http import AuthenticatedHttpRequest
from lib.next_url import safe_next_url
from progress import actions
from progress.forms import NoteForm
from progress.models import Note
from progress.resource_page import NoteBlock, note_block


@login_required
@require_http_methods(["GET", "POST"])
def note(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    resource = get_object_or_404(Resource, slug=slug)
    existing = Note.objects.for_learner(request.user).filter(resource=resource).first()
    back = request.POST.get("next") or request.get_full_path()
    if request.method == "GET":
        return _page(request, resource, note_block(resource, _text(existing), back))
    note = existing or Note(user=request.user, resource=resource)
    form = NoteForm(request.POST, instance=note)
    if not form.is_valid():
        block = note_block(resource, _text(existing), back, form=form)
        if request.htmx:
            return _answer(request, block)
        return _page(request, resource, block)
    text = form.cleaned_data["text"]
    saved = actions.write_note(user=request.user, resource=resource, text=text)
    status = _("Note saved.") if text else _("Note deleted.")
    if request.htmx:
        return _answer(request, note_block(resource, _text(saved), back, status=status))
    messages.success(request, status)
    return redirect(safe_next_url(request, reverse("progress:note", args=[resource.slug])))


def _text(note: Note | None) -> str | None:
    return note.text if note is not None else None


def _page(request: AuthenticatedHttpRequest, resource: Resource, block: NoteBlock) -> HttpResponse:
    context = {"title": resource.title, "note": block}
    return render(request, "progress/note.jinja", context, using="jinja2")


def _answer(request: AuthenticatedHttpRequest, block: NoteBlock) -> HttpResponse:
    """The resource page's note block, which the htmx form swaps."""
    return render(request, "progress/resource_note_answer.jinja", {"note": block}, using="jinja2")
