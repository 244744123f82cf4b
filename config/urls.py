from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.http import require_safe

from config import health


@require_safe
def favicon(request):
    """Pages name their icon; this answers the browsers and tools that ask /favicon.ico anyway
    (the admin's pages) instead of a 404 in their console. Resolved per request: the static
    files' manifest may not exist when the URLconf is imported."""
    return redirect(static("favicon.svg"))


# Django tries the patterns in order and no two apps share an address (tests/config/test_owners.py),
# so the order changes no answer: the learner's pages, the most requested, come first and are
# found without trying every other app's patterns.
urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("", include("progress.urls")),
    path("", include("curriculum.urls")),
    path("", include("practice.urls")),
    path("", include("accounts.urls")),
    path("", include("groups.urls")),
    path("", include("editor.urls")),
    path("", include("api.urls")),
    path("", include("reminders.urls")),
    path("", include("curation.urls")),
    path("favicon.ico", favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
