from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from curriculum import structure
from curriculum.forms import ResourceFilterForm
from curriculum.models import Path, Resource


@require_GET
def resource_list(request):
    curriculum = structure.current()
    form = ResourceFilterForm(
        request.GET, curriculum=curriculum, learner=request.user.is_authenticated
    )
    criteria = form.criteria()
    state = form.learner_state()
    swapping = bool(request.htmx) and not request.htmx.history_restore_request
    template = "curriculum/resource_list.html"
    if swapping:
        template += "#results"
    context = {
        "form": form,
        "resources": curriculum.catalogue(**criteria),
        "state": state,
        "is_filtered": any(criteria.values()) or bool(state),
        "ignored_filters": form.ignored,
        "swapping": swapping,
    }
    return render(request, template, context)


@require_GET
def resource_detail(request, slug):
    resource = structure.current().by_slug.get(slug)
    if resource is None:
        raise Http404("No resource has this address.")
    return render(request, "curriculum/resource_detail.html", {"resource": resource})


@require_GET
def guide(request):
    return render(request, "curriculum/guide.html", {"parts": structure.current().parts})


@require_GET
def path(request):
    """The suggested path as visitors see it; progress serves it at /path/ (config/urls.py)."""
    context = {
        "path": Path.objects.suggested(),
        "architecture_sessions": Resource.objects.architecture_sessions(),
    }
    return render(request, "curriculum/path.html", context)
