"""The site's URLs plus views that fail on purpose, to see the site's error pages."""

from django.core.exceptions import PermissionDenied
from django.urls import path

from config.urls import handler403, handler404, handler500  # noqa: F401  (the site's pages)
from config.urls import urlpatterns as site_urlpatterns


def crash(request):
    raise RuntimeError("secret-internal-detail /srv/parcours/config/settings.py line 42")


def refuse(request):
    raise PermissionDenied("secret-reason-for-refusal")


urlpatterns = [path("test-crash/", crash), path("test-refuse/", refuse), *site_urlpatterns]
