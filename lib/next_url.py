"""Where a form sends the learner back to: only somewhere on this site."""

from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next_url(request, fallback=None):
    """The `next` URL the visitor came with, if it stays on this site; otherwise fallback or home."""
    next_url = request.POST.get("next") or request.GET.get("next", "")
    # Only a path: redirect() would take a bare word such as "0" for a view name and fail.
    if next_url.startswith("/") and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return fallback or reverse("progress:home")
