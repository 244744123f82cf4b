"""What the API's areas share: the slug in paths, refusals, and the lookups that answer 404."""

from typing import Annotated

from django.db.models import QuerySet
from django.forms import BaseForm
from django.utils.translation import gettext as _
from ninja import Path

from api.auth import ApiError
from api.schemas import SLUG_PATTERN
from curriculum.models import Resource
from progress.actions import ProgressError

Slug = Annotated[
    str, Path(pattern=SLUG_PATTERN, description="The resource's slug, e.g. gpu-mode-9.")
]


def not_found(message: str) -> ApiError:
    return ApiError(404, "not_found", message)


def invalid(fields: dict[str, list[str]]) -> ApiError:
    """A 422 naming every field in error, its message starting with the first one."""
    name, messages = next(iter(fields.items()))
    prefix = "" if name == "__all__" else f"{name}: "
    return ApiError(422, "invalid", f"{prefix}{messages[0]}", fields=fields)


def refused(error: ProgressError, field: str | None = None) -> ApiError:
    if field:
        return invalid({field: [str(error)]})
    return ApiError(422, "invalid", str(error))


def valid_form[F: BaseForm](form: F) -> F:
    if not form.is_valid():
        # Iterating an ErrorList gives its messages (str() of a lazy one in this request's language).
        raise invalid(
            {name: [str(message) for message in messages] for name, messages in form.errors.items()}
        )
    return form


def resource_or_404(slug: str, queryset: QuerySet[Resource] | None = None) -> Resource:
    queryset = queryset if queryset is not None else Resource.objects.select_related("series")
    resource = queryset.filter(slug=slug).first()
    if resource is None:
        raise not_found(_("No resource has the slug “%(slug)s”.") % {"slug": slug})
    return resource
