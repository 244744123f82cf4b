"""Personal access tokens: how the command-line client and scripts call the API as a learner."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lib.models import Revocable, TokenQuerySet, UsedToken
from lib.tokens import digest

# A token reads "pat_" + 12 hex characters (its prefix, kept in clear for lookup) + "_" + secret.
TOKEN_START = "pat_"
PREFIX_LENGTH = 12


def split_token(token: str) -> str | None:
    """The prefix of a well-formed token, or None."""
    if not token.startswith(TOKEN_START):
        return None
    prefix, underscore, secret = token[len(TOKEN_START) :].partition("_")
    if len(prefix) != PREFIX_LENGTH or not underscore or not secret:
        return None
    return prefix


# Usable tokens one learner may hold: each has its own rate budget, and a learner needs one per
# machine or script, far fewer than this (docs/api-and-cli.md).
MAX_TOKENS_PER_LEARNER = 20


class AccessTokenQuerySet(TokenQuerySet):
    def for_learner(self, user):
        """The tokens of one learner, newest first."""
        return self.filter(user=user).order_by("-created_at", "-pk")

    def usable(self, now=None):
        """Tokens that are neither revoked nor expired."""
        now = now or timezone.now()
        return self.filter(revoked_at__isnull=True).filter(
            Q(expires_at__isnull=True) | Q(expires_at__gt=now)
        )

    def create_for(self, *, user, name: str, scope: str, expires_at=None):
        """A new token and its clear text, which is shown once and never stored."""
        prefix = secrets.token_hex(PREFIX_LENGTH // 2)
        clear = f"{TOKEN_START}{prefix}_{secrets.token_urlsafe(32)}"
        token = self.create(
            user=user,
            name=name,
            scope=scope,
            expires_at=expires_at,
            prefix=prefix,
            token_hash=digest(clear),
        )
        return token, clear


class AccessToken(UsedToken, Revocable):
    """A learner's personal access token for the API: named, scoped, revocable, stored hashed."""

    class Scope(models.TextChoices):
        READ = "read", _("read")
        WRITE = "write", _("read and write")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="access_tokens",
        verbose_name=_("learner"),
    )
    name = models.CharField(
        _("name"), max_length=100, help_text=_("Where the token is used, e.g. “laptop”.")
    )
    prefix = models.CharField(_("prefix"), max_length=PREFIX_LENGTH, unique=True, editable=False)
    scope = models.CharField(_("scope"), max_length=5, choices=Scope.choices, default=Scope.WRITE)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)

    objects = AccessTokenQuerySet.as_manager()

    class Meta:
        verbose_name = _("personal access token")
        verbose_name_plural = _("personal access tokens")
        constraints = [
            models.CheckConstraint(
                condition=Q(scope__in=["read", "write"]), name="accesstoken_scope_known"
            )
        ]

    def __str__(self):
        return f"{self.user} · {self.name}"

    @property
    def shown_prefix(self):
        """The start of the token, enough for the learner to tell their tokens apart."""
        return f"{TOKEN_START}{self.prefix}…"

    def is_expired(self, now=None):
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())

    @property
    def can_write(self):
        return self.scope == self.Scope.WRITE
