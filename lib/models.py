"""The abstract models of the secrets a learner holds: invitation, share and calendar-feed links,
API tokens, editor keys. Each app's table keeps its own columns; these say them once."""

import hmac
from datetime import timedelta
from typing import TypeVar

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lib.tokens import digest

# last_used_at is written at most this often: a script or an editor plugin calls every minute or two.
LAST_USED_PRECISION = timedelta(minutes=1)


# Covariant, as Django's QuerySet's own model type is.
M = TypeVar("M", bound=models.Model, covariant=True)


class TokenQuerySet(models.QuerySet[M]):
    def with_token(self, token: str) -> "TokenQuerySet[M]":
        """The rows this token opens, looked up by its digest."""
        return self.filter(token_hash=digest(token))


class Token(models.Model):
    """A secret shown once to its learner and stored only as its digest (lib/tokens.py)."""

    token_hash = models.CharField(_("token digest"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        abstract = True

    def matches(self, token: str) -> bool:
        """Whether token is this secret, compared in constant time."""
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, digest(token))


class UsedToken(Token):
    """A secret a client sends with each request, which records when it was last used."""

    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        abstract = True

    def touch(self, now=None):
        """Record a use, writing at most once per LAST_USED_PRECISION."""
        now = now or timezone.now()
        if self.last_used_at is None or now - self.last_used_at >= LAST_USED_PRECISION:
            type(self)._default_manager.filter(pk=self.pk).update(last_used_at=now)
            self.last_used_at = now


class Revocable(models.Model):
    """A secret revoked by a date rather than deleted, so that its page can say it was revoked."""

    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_revoked(self):
        return self.revoked_at is not None

    def revoke(self):
        """Revoke it for good; revoking twice keeps the first date."""
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])
