"""The catalogue with the learner's state of each resource, and watching: marks and sittings."""

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from ninja import Query, Router

from api import auth
from api.auth import ApiRequest
from api.schemas import (
    ResourceDetail,
    ResourceDetailOut,
    ResourceFilters,
    ResourceOut,
    SittingIn,
    errors,
)
from api.views.shared import Slug, refused, resource_or_404
from curriculum import structure
from curriculum.forms import ResourceFilterForm
from curriculum.models import Resource
from progress import actions
from progress.actions import ProgressError
from progress.balance import coding_for_resource
from progress.models import Note
from progress.path import ResourceState, states_for

router = Router()


def state_of(user: User, resource: Resource) -> ResourceState:
    return states_for(user, [resource])[resource.pk]


@router.get(
    "/resources",
    response={200: list[ResourceOut], **errors(422)},
    auth=auth.READ,
    tags=["resources"],
)
def list_resources(request: ApiRequest, filters: Query[ResourceFilters]) -> list[ResourceState]:
    """The catalogue with the learner's state of each resource; filters as on /resources/."""
    curriculum = structure.current()
    form = ResourceFilterForm(filters.dict(), curriculum=curriculum)
    resources = curriculum.catalogue(**form.criteria())
    states = states_for(request.auth, resources)
    return [states[resource.pk] for resource in resources]


@router.get(
    "/resources/{slug}",
    response={200: ResourceDetailOut, **errors(404, 422)},
    auth=auth.READ,
    tags=["resources"],
)
def get_resource(request: ApiRequest, slug: Slug) -> ResourceDetail:
    """One resource with its links, its place in the guide and the learner's state and note."""
    resource = resource_or_404(slug, Resource.objects.with_related())
    state = state_of(request.auth, resource)
    return ResourceDetail(
        resource=resource,
        watch=state.watch,
        coding=coding_for_resource(request.auth, resource),
        note=Note.objects.for_learner(request.auth).filter(resource=resource).first(),
    )


def change(
    request: ApiRequest, slug: str, action: Callable[..., object], **arguments: int
) -> ResourceState:
    """Run a watching action on the resource; its refusal is a 422, its answer the new state."""
    resource = resource_or_404(slug)
    try:
        action(user=request.auth, resource=resource, **arguments)
    except ProgressError as error:
        raise refused(error) from None
    return state_of(request.auth, resource)


# The keyword arguments of every watching operation but log_sitting, which also answers 400.
WATCHING: dict[str, Any] = {
    "response": {200: ResourceOut, **errors(403, 404, 422)},
    "auth": auth.WRITE,
    "tags": ["watching"],
}


@router.post("/resources/{slug}/watched", **WATCHING)
def mark_watched(request: ApiRequest, slug: Slug) -> ResourceState:
    """Mark a video, talk or course watched in one click; twice changes nothing."""
    return change(request, slug, actions.mark_watched)


@router.post("/resources/{slug}/not-watched", **WATCHING)
def mark_not_watched(request: ApiRequest, slug: Slug) -> ResourceState:
    """Undo “watched”: only the minutes logged in sittings stay."""
    return change(request, slug, actions.mark_not_watched)


@router.post("/resources/{slug}/followed", **WATCHING)
def mark_followed(request: ApiRequest, slug: Slug) -> ResourceState:
    """Mark a conference or channel followed."""
    return change(request, slug, actions.mark_followed)


@router.post("/resources/{slug}/not-followed", **WATCHING)
def mark_not_followed(request: ApiRequest, slug: Slug) -> ResourceState:
    """Stop following a conference or channel."""
    return change(request, slug, actions.mark_not_followed)


@router.post(
    "/resources/{slug}/sittings",
    response={200: ResourceOut, **errors(400, 403, 404, 422)},
    auth=auth.WRITE,
    tags=["watching"],
)
def log_sitting(request: ApiRequest, slug: Slug, payload: SittingIn) -> ResourceState:
    """Add the minutes of one sitting; reaching the duration finishes the resource."""
    try:
        minutes = actions.validate_sitting_minutes(payload.minutes)
    except ProgressError as error:
        raise refused(error, "minutes") from None
    return change(request, slug, actions.log_sitting, minutes=minutes)
