"""What progress adds to the curriculum's pages, through the include hooks their templates offer."""

from django.utils.functional import SimpleLazyObject

from progress.models import Watch

PAGES_WITH_WATCH_CONTROLS = {"curriculum:resource_list", "curriculum:resource_detail"}


def watch_controls(request):
    """On the catalogue and a resource's page, the learner's watch state beside each resource."""
    match = request.resolver_match
    if not (
        match and match.view_name in PAGES_WITH_WATCH_CONTROLS and request.user.is_authenticated
    ):
        return {}
    user = request.user
    return {
        "resource_aside": "progress/_resource_watch.html",
        # One query for all of the learner's rows, and only if the page shows a resource.
        "watches_by_resource": SimpleLazyObject(
            lambda: {watch.resource_id: watch for watch in Watch.objects.for_learner(user)}
        ),
    }
