"""The learner's private note on a resource."""

from ninja import Router

from api import auth
from api.auth import ApiRequest
from api.schemas import NoteIn, NoteOut, errors
from api.views.shared import Slug, resource_or_404, valid_form
from curriculum.models import Resource
from progress import actions
from progress.forms import NoteForm
from progress.models import Note

router = Router(tags=["notes"])


def note_on(resource: Resource, note: Note | None) -> Note:
    """The note to answer with, an empty one when there is none; its resource is the one
    already read, not read again."""
    note = note or Note(resource=resource)
    note.resource = resource
    return note


@router.get("/resources/{slug}/note", response={200: NoteOut, **errors(404, 422)}, auth=auth.READ)
def get_note(request: ApiRequest, slug: Slug) -> Note:
    """The learner's private note on a resource (empty text when there is none)."""
    resource = resource_or_404(slug)
    return note_on(
        resource, Note.objects.for_learner(request.auth).filter(resource=resource).first()
    )


@router.put(
    "/resources/{slug}/note",
    response={200: NoteOut, **errors(400, 403, 404, 422)},
    auth=auth.WRITE,
)
def write_note(request: ApiRequest, slug: Slug, payload: NoteIn) -> Note:
    """Replace the learner's note on a resource; an empty text deletes it."""
    resource = resource_or_404(slug)
    existing = Note.objects.for_learner(request.auth).filter(resource=resource).first()
    form = valid_form(
        NoteForm(
            {"text": payload.text}, instance=existing or Note(user=request.auth, resource=resource)
        )
    )
    note = actions.write_note(user=request.auth, resource=resource, text=form.cleaned_data["text"])
    return note_on(resource, note)
