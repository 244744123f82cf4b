"""The API's one NinjaAPI: its docs page, and every error answered in one JSON shape."""

from collections.abc import Sequence

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Swagger
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.operation import Operation

from api.auth import ApiError
from api.views import learner, notes, practice, resources, sessions


class ParcoursApi(NinjaAPI):
    def get_openapi_operation_id(self, operation: Operation) -> str:
        """The view's own name (list_resources, log_sitting): what generated clients call it."""
        return operation.view_func.__name__


api = ParcoursApi(
    title="Parcours API",
    version="1",
    description="Log coding sessions and watching from the terminal. "
    "Authenticate with `Authorization: Bearer <token>`; create tokens at /settings/tokens/.",
    urls_namespace="api",
    # Served from ninja's static files ("ninja" is installed): no CDN, no inline script.
    docs=Swagger(settings={"validatorUrl": None}),
)
for area in (learner, resources, sessions, notes, practice):
    api.add_router("", area.router)


def error_response(
    request: HttpRequest,
    status: int,
    code: str,
    message: str,
    fields: dict[str, list[str]] | None = None,
    headers: dict[str, str] | None = None,
) -> HttpResponse:
    body = {"error": code, "message": message, "fields": fields or {}}
    response = api.create_response(request, body, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


@api.exception_handler(ApiError)
def api_error(request: HttpRequest, error: ApiError) -> HttpResponse:
    return error_response(
        request, error.status, error.code, error.message, error.fields, error.headers
    )


@api.exception_handler(AuthenticationError)
def authentication_error(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    message = _("Sign in, or send a personal access token: Authorization: Bearer <token>.")
    return error_response(
        request, 401, "unauthorized", message, headers={"WWW-Authenticate": "Bearer"}
    )


def field_name(location: Sequence[int | str]) -> str:
    """The field a pydantic error is about: the last name in its location."""
    names = [str(part) for part in location if not isinstance(part, int)]
    ignored = {"body", "query", "path", "payload", "filters"}
    names = [name for name in names if name not in ignored]
    return names[-1] if names else "__all__"


def type_messages() -> dict[str, str]:
    """Our words for the type errors a learner can make; pydantic's own for the rest."""
    return {
        "missing": _("This field is required."),
        "int_parsing": _("Enter a whole number."),
        "int_type": _("Enter a whole number."),
        "int_from_float": _("Enter a whole number."),
        "date_parsing": _("Enter a day as YYYY-MM-DD."),
        "date_from_datetime_parsing": _("Enter a day as YYYY-MM-DD."),
        "date_type": _("Enter a day as YYYY-MM-DD."),
        "day_too_early": _("The day cannot be before 2000."),
        "greater_than_equal": _("Enter a number of at least %(ge)s."),
        "less_than_equal": _("Enter a number of at most %(le)s."),
        "uuid_parsing": _("Enter a UUID, e.g. 0b3e2c4a-5f1e-4d7a-9a3c-2e1f0d9c8b7a."),
        "uuid_type": _("Enter a UUID, e.g. 0b3e2c4a-5f1e-4d7a-9a3c-2e1f0d9c8b7a."),
        "string_type": _("Enter text."),
        "json_invalid": _("The body is not valid JSON."),
        "text_nul": _("Remove the NUL character: text cannot hold it."),
        "text_surrogate": _("Remove the lone UTF-16 surrogate: it is not a character."),
        "string_pattern_mismatch": _("Enter a slug: letters, digits, hyphens and underscores."),
    }


@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, error: ValidationError) -> HttpResponse:
    words = type_messages()
    fields: dict[str, list[str]] = {}
    for item in error.errors:
        message = words.get(item.get("type", ""), str(item.get("msg", "")))
        if item.get("ctx") and "%(" in message:
            message = message % item["ctx"]
        fields.setdefault(field_name(item.get("loc", ())), []).append(str(message))
    name, messages = next(iter(fields.items()))
    return error_response(request, 422, "invalid", f"{name}: {messages[0]}", fields)


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    """Ninja's own refusals: the only one it makes here is a 400 for a body it cannot parse."""
    if error.status_code == 400:
        return error_response(request, 400, "bad_request", _("The body is not valid JSON."))
    return error_response(request, error.status_code, "bad_request", str(error))
