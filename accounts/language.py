"""The interface language kept on the learner's profile, applied through Django's language cookie.

LocaleMiddleware reads the cookie on every request. We set it when the learner saves their
settings, and when they sign in (the sign-in signal notes the profile's language on the
request; the middleware below writes the cookie on that response).
"""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from progress.models import Profile


def set_language_cookie(response, language):
    """Set (or, for an empty language, delete) Django's language cookie, as set_language does."""
    if not language:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@receiver(user_logged_in)
def note_profile_language(sender, request, user, **kwargs):
    language = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    if request is not None and language:
        request.profile_language = language


class ProfileLanguageMiddleware:
    """Write the language cookie on the response to a sign-in, from the learner's profile."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        language = getattr(request, "profile_language", "")
        if language:
            set_language_cookie(response, language)
        return response
