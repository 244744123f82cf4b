"""Limits on guessing: what django-axes counts, and how many password-reset mails go out.

Sign-ins (docs/security.md): axes locks one username from one address after AXES_FAILURE_LIMIT
failures; SignInHandler adds a second rule on the address alone, across usernames. Both count
in the database, so every app server sees the same numbers.

Password-reset mails: at most RESET_MAILS_PER_ACCOUNT per account and RESET_REQUESTS_PER_ADDRESS
requests per address in RESET_WINDOW, counted in the "throttle" cache. Beyond them the form
answers as usual ("if an account uses this address...") and sends nothing.
"""

import logging

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import caches
from django.db.models import Sum

from lib.forms import renderer

log = logging.getLogger(__name__)

USERNAME_MAX_LENGTH = get_user_model()._meta.get_field("username").max_length
RESET_MAILS_PER_ACCOUNT = 3
RESET_REQUESTS_PER_ADDRESS = 10
RESET_WINDOW = 60 * 60  # seconds


def username_for_throttling(request, credentials):
    """The username typed, in lower case (sign-in ignores case), cut to the longest a user can have.

    Axes stores it in a 255-character column: a longer one (a 10,000-character username posted
    to the admin's sign-in page) would otherwise fail to save on PostgreSQL and answer 500.
    """
    source = credentials if credentials else getattr(request, "data", request.POST)
    username = source.get("username")
    return username[:USERNAME_MAX_LENGTH].lower() if username else username


class SignInHandler(AxesDatabaseHandler):
    """Axes' database handler, plus a lockout of the address itself after many failures on any usernames."""

    def get_failures(self, request, credentials=None):
        failures = super().get_failures(request, credentials)
        if address_failures(request) >= settings.SIGNIN_ADDRESS_FAILURE_LIMIT:
            request.axes_address_locked_out = True
            return max(failures, get_failure_limit(request, credentials))
        return failures


def address_failures(request):
    """Failed sign-ins from the request's address within the lockout window, whatever the username."""
    attempts = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address, attempt_time__gte=get_cool_off_threshold(request)
    )
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


def within_limit(key, limit):
    """Count one more event under key in this window; whether it is still within the limit."""
    cache = caches["throttle"]
    cache.add(key, 0, RESET_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add() and incr()
        cache.set(key, 1, RESET_WINDOW)
        count = 1
    return count <= limit


def reset_mail_key(user_pk):
    return f"throttle:reset-mail:account:{user_pk}"


def forget_reset_mails(user):
    """Drop the account's count of reset mails: nothing keyed on a deleted learner stays."""
    caches["throttle"].delete(reset_mail_key(user.pk))


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending nothing beyond the per-address and per-account limits."""

    default_renderer = renderer

    def save(self, *args, request=None, **kwargs):
        address = get_client_ip_address(request) if request is not None else None
        if not within_limit(f"throttle:reset-mail:address:{address}", RESET_REQUESTS_PER_ADDRESS):
            log.warning("Password reset refused: too many requests from this address.")
            return
        super().save(*args, request=request, **kwargs)

    def get_users(self, email):
        for user in super().get_users(email):
            if within_limit(reset_mail_key(user.pk), RESET_MAILS_PER_ACCOUNT):
                yield user
            else:
                log.warning("Password reset mail not sent: too many for account %s.", user.pk)
