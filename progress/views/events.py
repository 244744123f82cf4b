"""The htmx events a write's answer carries, naming what changed, for the page's other blocks to
follow: the page says the announcement in its live region and refreshes those blocks with one GET
of itself (static/js/blocks_follow.js). Answers without htmx carry them too (nothing reads them)."""

from django.http import HttpResponse
from django_htmx.http import trigger_client_event

from curriculum.models import Resource

# A change to the learner's watching (a one-click change, a sitting logged, corrected or deleted):
# {"resource": slug, "status": the state its controls show, "announcement": what the page says}.
WATCH_CHANGED = "watch-changed"
# Code logged on a resource: {"resource": slug, "announcement": what the page says}.
CODING_CHANGED = "coding-changed"


def watch_changed(
    response: HttpResponse, resource: Resource, status: str, announcement: str
) -> HttpResponse:
    changed = {"resource": resource.slug, "status": status, "announcement": announcement}
    return trigger_client_event(response, WATCH_CHANGED, changed)


def coding_changed(response: HttpResponse, resource: Resource, announcement: str) -> HttpResponse:
    changed = {"resource": resource.slug, "announcement": announcement}
    return trigger_client_event(response, CODING_CHANGED, changed)
