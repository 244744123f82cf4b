"""Who sends heartbeats: the editor key, as WakaTime's clients send it (Basic, or Bearer)."""

import binascii
from base64 import b64decode
from functools import wraps

from django.conf import settings
from django.http import JsonResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from editor.models import EditorKey
from lib.rate_limit import seconds_to_wait
from lib.time_zone import zone_or_default


class KeyRefused(Exception):
    """A request the key does not allow: answered with its status, JSON and headers."""

    def __init__(self, status: int, message: str, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}

    def response(self):
        response = JsonResponse({"error": self.message}, status=self.status)
        for name, value in self.headers.items():
            response[name] = value
        return response


def key_sent(header: str) -> str:
    """The key in an Authorization header: `Basic base64(key)` as wakatime-cli and `wakatime`
    send it (or base64 of `key:` / `user:key`), or `Bearer key`."""
    scheme, _space, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "bearer":
        return value
    if scheme.lower() != "basic":
        return ""
    try:
        decoded = b64decode(value, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return ""
    user, _colon, password = decoded.partition(":")
    return password or user


def editor_key_of(request) -> EditorKey:
    """The key the request carries, counted against its rate limit; KeyRefused says why not."""
    key = EditorKey.objects.find(key_sent(request.headers.get("Authorization", "")))
    if key is None:
        raise KeyRefused(
            401,
            _("This editor key is not valid: create one in your settings (Editor)."),
            headers={"WWW-Authenticate": 'Basic realm="Parcours"'},
        )
    _charge(key, 1)
    key.touch()
    return key


def _charge(key: EditorKey, cost: int) -> None:
    """Count cost against the key's budget: EDITOR_RATE_LIMIT heartbeats in each window of
    EDITOR_RATE_PERIOD seconds, a request without heartbeats counting as one."""
    retry_after = seconds_to_wait(
        f"editor-rate:{key.pk}",
        limit=settings.EDITOR_RATE_LIMIT,
        period=settings.EDITOR_RATE_PERIOD,
        cost=cost,
    )
    if retry_after is not None:
        raise KeyRefused(
            429,
            _("Too many heartbeats with this editor key: try again in %(seconds)s s.")
            % {"seconds": retry_after},
            headers={"Retry-After": str(retry_after)},
        )


def rate_refusal(key: EditorKey, *, heartbeats: int):
    """None when the key's budget holds a request of this many heartbeats (the request itself was
    counted as one when the key was read), else the 429 to answer."""
    try:
        if heartbeats > 1:
            _charge(key, heartbeats - 1)
    except KeyRefused as refused:
        return refused.response()
    return None


def with_editor_key(view):
    """Call view(request, key) with the learner's zone active, or answer why the key is refused."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            key = editor_key_of(request)
        except KeyRefused as refused:
            return refused.response()
        # The learner's zone and language, as their pages have them: a plugin sends neither.
        profile = getattr(key.user, "profile", None)
        zone = zone_or_default(profile.time_zone if profile else "")
        language = profile.language_outside_browser() if profile else translation.get_language()
        with timezone.override(zone), translation.override(language):
            return view(request, key, *args, **kwargs)

    return wrapper
