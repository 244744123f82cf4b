"""Template tags that put the coding log, the balance and notes on pages of other apps.

The curriculum's resource page loads them, so that `curriculum` never imports `progress`.
"""

from django import template

from progress.balance import balances
from progress.blocks import note_context, resource_coding_context, sittings_of
from progress.path import ResourceState

register = template.Library()


@register.inclusion_tag("progress/_balance.html", takes_context=True)
def balance_panel(context, oob=False):
    """The signed-in learner's balance, this week and overall; oob for an htmx out-of-band swap."""
    request = context["request"]
    if not request.user.is_authenticated:
        return {"hidden": True}
    week, overall = balances(request.user)
    return {"week_balance": week, "overall_balance": overall, "request": request, "oob": oob}


@register.inclusion_tag("progress/_resource_coding.html", takes_context=True)
def resource_coding(context, resource):
    """The resource's coded state, the learner's recent sessions for it and the inline form."""
    request = context["request"]
    if not request.user.is_authenticated:
        return {"hidden": True}
    return {**resource_coding_context(request, resource), "request": request}


@register.inclusion_tag("progress/_note.html", takes_context=True)
def resource_note(context, resource):
    """The learner's private note on the resource, with its form."""
    request = context["request"]
    if not request.user.is_authenticated:
        return {"hidden": True}
    return {**note_context(request, resource), "request": request}


@register.inclusion_tag("progress/_resource_sittings.html", takes_context=True)
def resource_sittings(context, resource):
    """The learner's sittings of the resource, to correct or delete, where sittings are logged."""
    request = context["request"]
    if not request.user.is_authenticated:
        return {"hidden": True}
    sittings = sittings_of(request.user, resource)
    if not sittings and not ResourceState(resource=resource).takes_sittings:
        return {"hidden": True}
    return {
        "resource": resource,
        "sittings": sittings,
        "next_url": request.get_full_path(),
        "request": request,
    }
