"""A learner's private note on a resource: shown and saved on the resource page, or on its own page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from curriculum.models import Resource
from progress.blocks import note_context
from progress.forms import NoteForm
from progress.models import Note
from progress.next_url import safe_next_url


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
