"""The site's URLconf plus the benchmark's floor: a view that exists only while benchmarking.

The floor is what every learner page pays before doing anything of its own: the middleware, the
session read, the signed-in user read; then it answers a few bytes with no template. A page's
requests/s as a ratio of the floor's says how much the page itself costs.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import include, path

from bench import FLOOR_PATH


@login_required
def floor(request):
    return HttpResponse(f"signed in as {request.user.pk}", content_type="text/plain")


urlpatterns = [
    path(FLOOR_PATH.removeprefix("/"), floor, name="bench_floor"),
    path("", include("config.urls")),
]
