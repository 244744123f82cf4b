"""The editor key: what WakaTime's editor plugins send to log coding time into Parcours.

WakaTime's clients refuse, before sending anything, a key that is not shaped as a version-4 UUID
(`wakatime` 13.x) or as `waka_` + one (`wakatime-cli`): so the key is a random UUID, not a
personal access token. One per learner, stored as its digest, good only for heartbeats and the
status bar.
"""

import re
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lib.models import TokenQuerySet, UsedToken
from lib.tokens import digest

KEY_SHAPE = re.compile(
    r"^(?:waka_)?([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$", re.I
)


def canonical_key(sent: str) -> str | None:
    """The key as issued (lower case, no `waka_`), or None when it is not shaped as one."""
    match = KEY_SHAPE.match(sent.strip())
    return match.group(1).lower() if match else None


class EditorKeyQuerySet(TokenQuerySet["EditorKey"]):
    def issue(self, *, user) -> str:
        """A new key for the learner, replacing their previous one; its clear text, shown once."""
        clear = str(uuid.uuid4())
        self.update_or_create(
            user=user,
            defaults={
                "token_hash": digest(clear),
                "created_at": timezone.now(),
                "last_used_at": None,
            },
        )
        return clear

    def find(self, sent: str):
        """The key this text is, with its learner and profile, or None."""
        clear = canonical_key(sent)
        if clear is None:
            return None
        keys = self.with_token(clear).filter(user__is_active=True)
        key = keys.select_related("user__profile").first()
        # Found by digest: the comparison only guards against a future lookup by prefix.
        return key if key and key.matches(clear) else None


class EditorKey(UsedToken):
    """A learner's editor key (revoking deletes it: the plugins then get 401)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="editor_key",
        verbose_name=_("learner"),
    )

    objects = EditorKeyQuerySet.as_manager()

    class Meta:
        verbose_name = _("editor key")
        verbose_name_plural = _("editor keys")

    def __str__(self):
        return str(self.user)
