from django.contrib import admin
from django.urls import include, path

from config import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("api.urls")),
    path("", include("accounts.urls")),
    path("", include("groups.urls")),
    path("", include("reminders.urls")),
    path("", include("curriculum.urls")),
    path("", include("progress.urls")),
]
