"""Template tags that put the signed-in learner's watch state on pages of other apps.

The catalogue and the resource page load them, so that `curriculum` never imports `progress`.
"""

from django import template

from progress import catalogue
from progress.models import Watch

register = template.Library()


@register.simple_tag(takes_context=True)
def learner_watches(context):
    """The signed-in learner's watch rows by resource id, in one query; None when signed out."""
    request = context["request"]
    if not request.user.is_authenticated:
        return None
    if not hasattr(request, "_watches_by_resource"):
        rows = Watch.objects.for_learner(request.user)
        request._watches_by_resource = {watch.resource_id: watch for watch in rows}
    return request._watches_by_resource


@register.simple_tag(takes_context=True)
def resource_state(context, resource):
    """The signed-in learner's state on resource, from the page's one query of watch rows."""
    return catalogue.resource_state(resource, context.get("watches_by_resource") or {})


@register.simple_tag(takes_context=True)
def catalogue_results(context, resources, state=""):
    """The catalogue's resources by series with the signed-in learner's state, narrowed to state."""
    page_url = context["request"].get_full_path()
    return catalogue.results(resources, learner_watches(context), page_url=page_url, state=state)
