"""Who calls the API: a personal access token (Bearer), or the signed-in learner's session with CSRF."""

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf

from api.models import AccessToken, split_token
from lib.rate_limit import seconds_to_wait
from lib.time_zone import zone_or_default


class ApiRequest(HttpRequest):
    """A request behind READ or WRITE: ninja sets `auth` to what the scheme that let it in
    returned, the learner (TokenAuth also sets `access_token`, SessionAuth does not)."""

    auth: User


class ApiError(Exception):
    """An error answered as {"error": code, "message": ...} with its HTTP status."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        fields: dict[str, list[str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.fields = fields or {}


def unauthorized(message: str) -> ApiError:
    return ApiError(401, "unauthorized", message, headers={"WWW-Authenticate": "Bearer"})


class TokenAuth(HttpBearer):
    """A personal access token; with write=True, only a read-and-write token will do."""

    def __init__(self, *, write: bool) -> None:
        super().__init__()
        self.write = write

    def authenticate(self, request, token):
        access = find_token(token)
        if not access.can_write and self.write:
            raise ApiError(
                403, "forbidden", _("This token may only read: create a read-and-write token.")
            )
        check_rate(access)
        access.touch()
        request.access_token = access
        activate_time_zone_of(access.user)
        return access.user


def find_token(clear: str) -> AccessToken:
    """The usable token for this clear text, or a 401 that says why."""
    prefix = split_token(clear)
    access = (
        AccessToken.objects.select_related("user__profile").filter(prefix=prefix).first()
        if prefix
        else None
    )
    if access is None or not access.matches(clear) or not access.user.is_active:
        raise unauthorized(_("This token is not valid. Create one on the site's tokens page."))
    if access.is_revoked:
        raise unauthorized(_("This token was revoked."))
    if access.is_expired():
        raise unauthorized(
            _("This token expired on %(day)s.")
            % {"day": timezone.localtime(access.expires_at).date().isoformat()}
        )
    return access


def activate_time_zone_of(user: User) -> None:
    """The learner's "today" for this request, as pages have it (progress/time_zone.py)."""
    profile = getattr(user, "profile", None)  # fetched with the token; None when it has none
    timezone.activate(zone_or_default(profile.time_zone if profile else ""))


def check_rate(access: AccessToken) -> None:
    """Count one request in the token's current window of the shared cache; 429 past the limit."""
    retry_after = seconds_to_wait(
        f"api-rate:{access.pk}", limit=settings.API_RATE_LIMIT, period=settings.API_RATE_PERIOD
    )
    if retry_after is not None:
        raise ApiError(
            429,
            "rate_limited",
            _("Too many requests with this token: try again in %(seconds)s s.")
            % {"seconds": retry_after},
            headers={"Retry-After": str(retry_after)},
        )


class SessionAuth(APIKeyCookie):
    """The signed-in learner's browser session; writes need the CSRF token, as every POST does."""

    param_name = settings.SESSION_COOKIE_NAME

    def _get_key(self, request):
        if not request.user.is_authenticated:
            return None
        if check_csrf(request):
            raise ApiError(
                403, "csrf", _("CSRF check failed: send the X-CSRFToken header, or use a token.")
            )
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request, key):
        return request.user if request.user.is_authenticated else None


READ = [TokenAuth(write=False), SessionAuth()]
WRITE = [TokenAuth(write=True), SessionAuth()]
