from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from curriculum.forms import ResourceFilterForm
from curriculum.models import Part, Path, Resource


@require_GET
def resource_list(request):
    form = ResourceFilterForm(request.GET)
    criteria = form.criteria()
    resources = Resource.objects.catalogue(**criteria)
    template = "curriculum/resource_list.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#results"
    context = {"form": form, "resources": resources, "is_filtered": any(criteria.values())}
    return render(request, template, context)


@require_GET
def resource_detail(request, slug):
    resource = get_object_or_404(Resource.objects.with_related(), slug=slug)
    return render(request, "curriculum/resource_detail.html", {"resource": resource})


@require_GET
def guide(request):
    return render(request, "curriculum/guide.html", {"parts": Part.objects.for_guide()})


@require_GET
def path(request):
    """The suggested path as visitors see it; progress serves it at /path/ (config/urls.py)."""
    context = {
        "path": Path.objects.suggested(),
        "architecture_sessions": Resource.objects.architecture_sessions(),
    }
    return render(request, "curriculum/path.html", context)
