"""The site's error pages, printed from its own templates (templates/403.jinja and the rest) by
Django's views; config/urls.py names them as its handlers."""

from django.shortcuts import render
from django.views import defaults


def permission_denied(request, exception):
    return defaults.permission_denied(request, exception, template_name="403.jinja")


def page_not_found(request, exception):
    return defaults.page_not_found(request, exception, template_name="404.jinja")


def server_error(request):
    """Printed without the request: the database may be what failed."""
    return defaults.server_error(request, template_name="500.jinja")


def csrf_failure(request, reason=""):
    """CSRF_FAILURE_VIEW: a form refused for its token, in the layout of the visitor's pages
    (Django's own view prints its template without the request)."""
    return render(request, "403_csrf.jinja", status=403)
