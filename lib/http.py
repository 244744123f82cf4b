"""Request types for views, so that mypy knows what the middleware and decorators add.

The pattern is django-htmx's (its docs, "Type checking"): django-htmx's middleware sets
`request.htmx`; behind `@login_required` the user is a signed-in `User`, never anonymous.
"""

from typing import TypeIs

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    user: User


def is_signed_in(request: HtmxHttpRequest) -> TypeIs[AuthenticatedHttpRequest]:
    """For a view that serves visitors and learners alike: after it, the user is signed in."""
    return request.user.is_authenticated
