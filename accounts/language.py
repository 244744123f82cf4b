"""The interface language kept on the learner's profile, applied through Django's language cookie.

LocaleMiddleware reads the cookie on every request. We set it when the learner saves their
settings, and when they sign in (the sign-in signal notes the profile's language on the
request; the middleware below writes the cookie on that response).

While the learner lets their browser choose (the profile's language is empty), the language the
browser asks for is kept on the profile too (`browser_language`), for what is sent outside a
browser: e-mails, the calendar feed, the editor's status bar. It is written at sign-up, at each
sign-in, and on the first request of a session signed in before it was noted there: one query per
session, none on the pages' own counts (tests/config/test_query_counts.py).
"""

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import translation

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


SESSION_BROWSER_LANGUAGE = "browser_language"


def note_browser_language(request, user_id):
    """Keep the language this request is in as the learner's browser's; noted in the session."""
    language = translation.get_language()
    Profile.objects.note_browser_language(user_id, language)
    request.session[SESSION_BROWSER_LANGUAGE] = language


@receiver(user_logged_in)
def note_profile_language(sender, request, user, **kwargs):
    language = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    if request is not None and language:
        request.profile_language = language
    if request is not None and hasattr(request, "session"):
        note_browser_language(request, user.pk)


class ProfileLanguageMiddleware:
    """Write the language cookie on the response to a sign-in, from the learner's profile; note
    the browser's language of a signed-in learner."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        self.note_browser_language_once(request)
        response = self.get_response(request)
        language = getattr(request, "profile_language", "")
        if language:
            set_language_cookie(response, language)
        return response

    def note_browser_language_once(self, request):
        # Without a session cookie nobody is signed in: leave the session untouched, so that a
        # page that reads no cookie keeps its own caching headers (no Vary: Cookie).
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return
        user_id = request.session.get(SESSION_KEY)
        if user_id is not None and SESSION_BROWSER_LANGUAGE not in request.session:
            note_browser_language(request, user_id)
