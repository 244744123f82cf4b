"""What progress adds to the curriculum's pages, through the include hooks their templates offer."""

from django.utils.functional import SimpleLazyObject

from progress.models import Watch

ASIDES = {
    # The catalogue's per-card hook: the learner's watch state and buttons.
    "curriculum:resource_list": "progress/_resource_watch.html",
    # The resource page: watch state, coded state, balance, inline log and note.
    "curriculum:resource_detail": "progress/_resource_aside.html",
}


def resource_asides(request):
    """On the catalogue and a resource's page, what the signed-in learner did with each resource."""
    match = request.resolver_match
    if not (match and match.view_name in ASIDES and request.user.is_authenticated):
        return {}
    user = request.user
    return {
        "resource_aside": ASIDES[match.view_name],
        # One query for all of the learner's rows, and only if the page shows a resource.
        "watches_by_resource": SimpleLazyObject(
            lambda: {watch.resource_id: watch for watch in Watch.objects.for_learner(user)}
        ),
    }
