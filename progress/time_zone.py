"""The learner's own time zone: weeks, streaks and "today" are computed in it on every request.

The zone is saved on the profile and kept in the session, so that the middleware below
activates it without a query: the session is written when the learner signs in and when they
save their settings; a session from before the zone was kept there reads the profile once.
"""

from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

SESSION_TIME_ZONE = "time_zone"


@cache
def time_zone_names() -> list[str]:
    """Every IANA zone name the system knows, sorted."""
    return sorted(available_timezones())


@cache
def _known_names() -> frozenset[str]:
    return frozenset(time_zone_names())


def is_time_zone(name: str) -> bool:
    return name in _known_names()


def validate_time_zone(name):
    if name and not is_time_zone(name):
        raise ValidationError(_("“%(name)s” is not a time zone."), params={"name": name})


def zone_or_default(name: str) -> ZoneInfo:
    """The zone named, or the site's (TIME_ZONE) for an empty or unknown name."""
    return ZoneInfo(name) if name and is_time_zone(name) else ZoneInfo(settings.TIME_ZONE)


def remember_time_zone(request, name: str) -> None:
    """Keep the learner's zone in their session and apply it to the rest of this request."""
    request.session[SESSION_TIME_ZONE] = name
    timezone.activate(zone_or_default(name))


@receiver(user_logged_in)
def remember_profile_time_zone(sender, request, user, **kwargs):
    if request is None or not hasattr(request, "session"):
        return
    from progress.models import Profile

    name = Profile.objects.filter(user=user).values_list("time_zone", flat=True).first()
    # The session only: the middleware activates the zone on each request, this one included.
    request.session[SESSION_TIME_ZONE] = name or ""


class LearnerTimeZoneMiddleware:
    """Activate the signed-in learner's time zone (the site's for everyone else)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = self.session_time_zone(request)
        if name:
            timezone.activate(zone_or_default(name))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def session_time_zone(self, request):
        # Without a session cookie there is no zone to read: leave the session untouched, so that
        # a page that reads no cookie keeps its own caching headers (no Vary: Cookie).
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return ""
        name = request.session.get(SESSION_TIME_ZONE)
        if name is None and SESSION_KEY in request.session:
            from progress.models import Profile

            user_id = request.session[SESSION_KEY]
            name = Profile.objects.filter(user_id=user_id).values_list("time_zone", flat=True)
            name = name.first() or ""
            request.session[SESSION_TIME_ZONE] = name
        return name or ""
