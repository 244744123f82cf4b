"""Cache-Control for responses that belong to one visitor: never stored by a browser or a proxy."""

from django.utils.cache import has_vary_header

PERSONAL = "private, no-store"


class PersonalResponsesNotStoredMiddleware:
    """Mark personal responses `private, no-store`; leave the others as their view says.

    A response is personal when the visitor is signed in or sends credentials (a token in the
    Authorization header), or when it depends on their cookies:
    it read the session or carries a CSRF token (both make it vary on Cookie), or it sets one.
    Every HTML page of the site carries a CSRF token (the language switcher, htmx's header), so
    signed out too they are `private, no-store`: a proxy serving one visitor's token to another
    would break that visitor's forms. `no-cache` would buy nothing: pages have no validators.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if is_personal(request, response) and "no-store" not in response.get("Cache-Control", ""):
            response["Cache-Control"] = PERSONAL
        return response


def is_personal(request, response):
    user = getattr(request, "user", None)
    return (
        (user is not None and user.is_authenticated)
        # An API or editor call with a token: no session, yet the answer is the token holder's.
        or "HTTP_AUTHORIZATION" in request.META
        or has_vary_header(response, "Cookie")
        or bool(response.cookies)
    )
