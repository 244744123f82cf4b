"""The learner's own time zone: weeks, streaks and "today" are computed in it on every request.

The zone is saved on the profile and kept in the session, so that the middleware below
activates it without a query: the session is written when the learner signs in and when they
save their settings; a session from before the zone was kept there reads the profile once.
"""

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import timezone

# The migration that added Profile.time_zone names its validator at this path.
from lib.time_zone import validate_time_zone as validate_time_zone
from lib.time_zone import zone_or_default
from progress.models import Profile

SESSION_TIME_ZONE = "time_zone"


def remember_time_zone(request, name: str) -> None:
    """Keep the learner's zone in their session and apply it to the rest of this request."""
    request.session[SESSION_TIME_ZONE] = name
    timezone.activate(zone_or_default(name))


@receiver(user_logged_in)
def remember_profile_time_zone(sender, request, user, **kwargs):
    if request is None or not hasattr(request, "session"):
        return
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
            user_id = request.session[SESSION_KEY]
            name = Profile.objects.filter(user_id=user_id).values_list("time_zone", flat=True)
            name = name.first() or ""
            request.session[SESSION_TIME_ZONE] = name
        return name or ""
