"""Studying together: groups of learners with a shared board, their invitations, and share links.

Private by default: a learner's progress is seen only by the members of the groups they joined,
and through the share link they made, until they revoke it.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from lib.models import Revocable, Token, TokenQuerySet

# The board is one page: no group grows beyond it.
MAX_MEMBERS = 50
# Caps far above what a learner uses (docs/groups.md), so that no one fills the tables, or another
# learner's groups page, by looping on a form: groups a learner owns or has joined, open invitation
# links of a group, and invitations by username of a group waiting for an answer.
MAX_GROUPS_PER_LEARNER = 20
MAX_OPEN_LINKS_PER_GROUP = 20
MAX_PENDING_INVITATIONS_PER_GROUP = 50


class StudyGroupQuerySet(models.QuerySet):
    def for_member(self, user):
        """The groups the learner belongs to."""
        return self.filter(memberships__user=user)


class StudyGroup(models.Model):
    """Learners who study together and see each other's progress on the group's board."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(
        _("slug"), max_length=60, unique=True, help_text=_("The group's address: /groups/<slug>/.")
    )
    description = models.TextField(_("description"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = StudyGroupQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("study group")
        verbose_name_plural = _("study groups")

    def __str__(self):
        return self.name

    def members_among(self, users):
        """Those of these users who belong to the group."""
        return users.filter(study_memberships__group=self)

    @staticmethod
    def slug_for(name: str) -> str:
        """The name as a slug, with a random ending so that two groups may share a name."""
        return f"{slugify(name)[:48].strip('-') or 'group'}-{secrets.token_hex(3)}"


class MembershipQuerySet(models.QuerySet):
    def of_group(self, slug):
        """The members of the group at slug with the group, the owner first, then by seniority."""
        return (
            self.filter(group__slug=slug)
            .select_related("group")
            .order_by("-role", "joined_at", "pk")
        )

    def for_board(self):
        """Members with their accounts and profiles (their time zones), the owner first, then by
        seniority."""
        return self.select_related("user__profile").order_by("-role", "joined_at", "pk")

    def owner_name(self) -> str:
        """The name the owner shows in the group ("" for a group without one)."""
        return self.filter(role="owner").values_list("display_name", flat=True).first() or ""

    def by_seniority(self):
        """Members from the one who joined first."""
        return self.order_by("joined_at", "pk")


class Membership(models.Model):
    """One learner in one group, with what they show there."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        MEMBER = "member", _("member")

    class Shares(models.TextChoices):
        # Named by what the other members see of the member on the board (groups/board.py).
        PROGRESS = "progress", _("my steps on the path and my last activity")
        CODING = (
            "coding",
            _(
                "that, and my week: hours watched and coded, the 1:3 balance, my coding streak and "
                "my sessions"
            ),
        )

    group = models.ForeignKey(
        StudyGroup, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("group")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="study_memberships",
        verbose_name=_("learner"),
    )
    role = models.CharField(_("role"), max_length=6, choices=Role.choices, default=Role.MEMBER)
    display_name = models.CharField(
        _("name shown in the group"),
        max_length=60,
        help_text=_("What the other members read on the board."),
    )
    shares = models.CharField(
        _("shows"),
        max_length=8,
        choices=Shares.choices,
        default=Shares.PROGRESS,
        help_text=_("Notes are never shown."),
    )
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="membership_once_per_group"),
            models.UniqueConstraint(
                fields=["group"], condition=Q(role="owner"), name="membership_one_owner"
            ),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "member"]), name="membership_role_known"
            ),
            models.CheckConstraint(
                condition=Q(shares__in=["progress", "coding"]), name="membership_shares_known"
            ),
        ]
        indexes = [models.Index(fields=["user"], name="membership_user")]

    def __str__(self):
        return f"{self.display_name} · {self.group}"

    @property
    def is_owner(self):
        return self.role == self.Role.OWNER

    @property
    def shares_coding(self):
        return self.shares == self.Shares.CODING


class InvitationQuerySet(TokenQuerySet):
    def links(self):
        """Invitations by link, newest first."""
        return self.filter(invitee__isnull=True).order_by("-created_at", "-pk")

    def for_invitee(self, user):
        """Invitations addressed to this learner by username that are still open."""
        return self.filter(invitee=user, revoked_at__isnull=True, expires_at__gt=timezone.now())

    def open_links(self):
        """Invitation links that still let someone in: not revoked, expired or used up."""
        return self.links().filter(
            revoked_at__isnull=True, expires_at__gt=timezone.now(), uses__lt=models.F("max_uses")
        )

    def pending(self):
        """Invitations by username still waiting for an answer."""
        return self.filter(
            invitee__isnull=False, revoked_at__isnull=True, expires_at__gt=timezone.now()
        )


class Invitation(Token, Revocable):
    """A way into a group: a link anyone signed in may open, or a learner named by username."""

    class State(models.TextChoices):
        OPEN = "open", _("open")
        EXPIRED = "expired", _("expired")
        REVOKED = "revoked", _("revoked")
        USED_UP = "used_up", _("used up")

    group = models.ForeignKey(
        StudyGroup, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("group")
    )
    # An invitation by username has no token: the base's column, nullable here.
    token_hash = models.CharField(  # type: ignore[assignment]
        _("token digest"), max_length=64, unique=True, null=True, blank=True, editable=False
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="group_invitations",
        verbose_name=_("invited learner"),
        help_text=_("Empty for an invitation by link."),
    )
    max_uses = models.PositiveSmallIntegerField(
        _("joins allowed"), default=1, help_text=_("How many learners may join with it.")
    )
    uses = models.PositiveSmallIntegerField(_("joins so far"), default=0)
    expires_at = models.DateTimeField(_("expires at"))

    objects = InvitationQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.CheckConstraint(
                condition=Q(token_hash__isnull=False, invitee__isnull=True)
                | Q(token_hash__isnull=True, invitee__isnull=False),
                name="invitation_link_or_username",
            ),
            models.UniqueConstraint(
                fields=["group", "invitee"],
                condition=Q(invitee__isnull=False),
                name="invitation_once_per_invitee",
            ),
            models.CheckConstraint(
                condition=Q(max_uses__gte=1, max_uses__lte=MAX_MEMBERS),
                name="invitation_max_uses_within_group_size",
            ),
        ]

    def __str__(self):
        return f"{self.group} · {self.invitee or _('link')}"

    @classmethod
    def expiry(cls, days: int):
        return timezone.now() + timedelta(days=days)

    def state(self, now=None) -> str:
        now = now or timezone.now()
        if self.revoked_at is not None:
            return self.State.REVOKED
        if self.expires_at <= now:
            return self.State.EXPIRED
        if self.uses >= self.max_uses:
            return self.State.USED_UP
        return self.State.OPEN

    @property
    def is_open(self):
        return self.state() == self.State.OPEN

    @property
    def is_link(self):
        return self.invitee_id is None


class ShareLink(Token):
    """A learner's public, read-only page of their progress, for whoever has the link."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="share_link",
        verbose_name=_("learner"),
    )
    display_name = models.CharField(
        _("name shown"), max_length=60, help_text=_("The only name on the shared page.")
    )

    objects = TokenQuerySet["ShareLink"].as_manager()

    class Meta:
        verbose_name = _("share link")
        verbose_name_plural = _("share links")

    def __str__(self):
        return self.display_name
