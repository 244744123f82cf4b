from django.contrib import admin
from django.urls import include, path

from config import health
from progress import views as progress_views

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("api.urls")),
    path("", include("accounts.urls")),
    path("", include("groups.urls")),
    path("", include("reminders.urls")),
    # The path and the home page show the learner's state, so progress owns them; visitors get
    # the curriculum's page and the landing page. Their names are the site's: "path", "home".
    path("path/", progress_views.path_page, name="path"),
    path("", include("curriculum.urls")),
    path("", progress_views.home, name="home"),
    path("", include("progress.urls")),
]
