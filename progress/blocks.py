"""The context of each block the resource page and the path show beside a resource: the balance,
the coding block, the note, the watching block and its sittings.

The view that answers a change re-renders its block from here, and the template tags that put the
block on its page (progress/templatetags/progress_blocks.py) build it from here too.
"""

from progress.balance import balances, coding_for_resource, learner_minutes
from progress.forms import CodingSessionForm, NoteForm
from progress.models import CodingSession, Note, WatchEvent
from progress.path import ResourceState, states_for
from progress.row_urls import url_for_each

RESOURCE_SESSIONS_SHOWN = 5


def balance_context(user):
    week, overall = balances(user)
    return {"week_balance": week, "overall_balance": overall}


def resource_coding_context(request, resource, form=None, status=""):
    """What the resource page's coding block shows: coded state, recent sessions, the form."""
    sessions = CodingSession.objects.for_learner(request.user).filter(resource=resource).for_list()
    return {
        "resource": resource,
        "coding": coding_for_resource(request.user, resource),
        "resource_sessions": sessions[:RESOURCE_SESSIONS_SHOWN],
        "coding_form": form or CodingSessionForm(resource=resource),
        "coding_status": status,
        "next": request.POST.get("next") or request.get_full_path(),
    }


def note_context(request, resource, form=None, status=""):
    note = Note.objects.for_learner(request.user).filter(resource=resource).first()
    return {
        "resource": resource,
        "note": note,
        "note_form": form or NoteForm(instance=note),
        "note_status": status,
        "next": request.POST.get("next") or request.get_full_path(),
    }


def sittings_of(user, resource):
    """The learner's sittings of resource, newest first, each with its edit and delete URLs."""
    sittings = list(WatchEvent.objects.for_learner(user).sittings().filter(resource=resource))
    edit_url = url_for_each("progress:sitting_edit")
    delete_url = url_for_each("progress:sitting_delete")
    for sitting in sittings:
        sitting.edit_url = edit_url(sitting.pk)
        sitting.delete_url = delete_url(sitting.pk)
    return sittings


def resource_watch_context(user, resource, place, watch=None):
    """What the resource page's watching block shows after a change: state, sittings, coding.

    watch is the learner's row as the change left it, if the caller has it: one query less.
    """
    if watch is None:
        state = states_for(user, [resource])[resource.pk]
    else:
        state = ResourceState(resource=resource, watch=watch)
    minutes = learner_minutes(user, [resource])
    return {
        "resource": resource,
        "state": state,
        "place": place,
        "page": "resource",
        "sittings": sittings_of(user, resource),
        "coding": minutes.coding[resource.pk],
        "week_balance": minutes.week,
        "overall_balance": minutes.overall,
    }
