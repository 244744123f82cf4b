"""Writes that change who is in a group, each in one transaction.

Every function is keyword-only; the views check who may call them (a member, the owner).
"""

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from groups.models import (
    MAX_GROUPS_PER_LEARNER,
    MAX_MEMBERS,
    MAX_OPEN_LINKS_PER_GROUP,
    MAX_PENDING_INVITATIONS_PER_GROUP,
    Invitation,
    Membership,
    ShareLink,
    StudyGroup,
)
from lib.tokens import digest, new_token


class GroupError(Exception):
    """A change that was refused, with a sentence that says why; nothing was written."""


@transaction.atomic
def create_group(*, owner: User, name: str, description: str = "", display_name: str) -> StudyGroup:
    """A new group with its creator as owner and only member."""
    refuse_past_the_groups_cap(owner)
    group = StudyGroup.objects.create(
        name=name, description=description, slug=StudyGroup.slug_for(name)
    )
    Membership.objects.create(
        group=group, user=owner, role=Membership.Role.OWNER, display_name=display_name
    )
    return group


def refuse_past_the_groups_cap(user: User) -> None:
    """Refuse a learner who already owns or has joined MAX_GROUPS_PER_LEARNER groups."""
    if Membership.objects.filter(user=user).count() >= MAX_GROUPS_PER_LEARNER:
        raise GroupError(
            _(
                "You are in %(count)s groups already, the most one learner may be in: leave one first."
            )
            % {"count": MAX_GROUPS_PER_LEARNER}
        )


@transaction.atomic
def create_link(*, group: StudyGroup, days: int, max_uses: int) -> tuple[Invitation, str]:
    """A new invitation link and its token, which is shown once and never stored."""
    group = locked_group(group.pk)  # two links made at once are counted one after the other
    if group.invitations.open_links().count() >= MAX_OPEN_LINKS_PER_GROUP:
        raise GroupError(
            _("This group has %(count)s open links already: revoke one first.")
            % {"count": MAX_OPEN_LINKS_PER_GROUP}
        )
    token = new_token()
    invitation = Invitation.objects.create(
        group=group,
        token_hash=digest(token),
        max_uses=max_uses,
        expires_at=Invitation.expiry(days),
    )
    return invitation, token


def invite_by_username(*, group: StudyGroup, invitee: User, days: int = 14) -> Invitation:
    """An invitation addressed to one learner, who accepts or declines it on their groups page."""
    if group.memberships.filter(user=invitee).exists():
        raise GroupError(_("This learner is already a member."))
    if group.invitations.pending().count() >= MAX_PENDING_INVITATIONS_PER_GROUP:
        raise GroupError(
            _("%(count)s invitations of this group wait for an answer already: revoke one first.")
            % {"count": MAX_PENDING_INVITATIONS_PER_GROUP}
        )
    try:
        with transaction.atomic():
            return Invitation.objects.create(
                group=group, invitee=invitee, expires_at=Invitation.expiry(days)
            )
    except IntegrityError:
        raise GroupError(_("This learner is already invited.")) from None


def locked_group(pk: int) -> StudyGroup:
    """The group, locked until the transaction ends: every change of membership takes this lock
    first, so that concurrent joins, hand-overs and a deletion run one after another."""
    group = StudyGroup.objects.select_for_update().filter(pk=pk).first()
    if group is None:
        raise GroupError(_("This group no longer exists."))
    return group


def still_owner(owner: Membership) -> None:
    """Under the group's lock: refuse when a concurrent hand-over took the ownership away."""
    if not Membership.objects.filter(pk=owner.pk, role=Membership.Role.OWNER).exists():
        raise GroupError(_("You no longer own this group."))


def refusal(invitation: Invitation) -> str | None:
    """Why this invitation cannot be used now, or None when it can."""
    state = invitation.state()
    if state == Invitation.State.REVOKED:
        return _("This invitation was revoked by the group's owner.")
    if state == Invitation.State.EXPIRED:
        return _("This invitation has expired. Ask the group's owner for a new one.")
    if state == Invitation.State.USED_UP:
        return _("This invitation has been used as many times as it allows.")
    return None


@transaction.atomic
def join(*, user: User, invitation: Invitation, display_name: str, shares: str) -> Membership:
    """Join the invitation's group; the group and the invitation are locked while counting."""
    group = locked_group(invitation.group_id)
    current = Invitation.objects.select_for_update().filter(pk=invitation.pk).first()
    if current is None:  # accepted or declined by a request that got there first
        raise GroupError(_("This invitation was answered already or withdrawn."))
    if group.memberships.filter(user=user).exists():
        raise GroupError(_("You are already a member of this group."))
    if current.invitee_id not in (None, user.pk):
        raise GroupError(_("This invitation is for someone else."))
    if reason := refusal(current):
        raise GroupError(reason)
    if group.memberships.count() >= MAX_MEMBERS:
        raise GroupError(
            _("This group is full: it has %(count)s members already.") % {"count": MAX_MEMBERS}
        )
    refuse_past_the_groups_cap(user)
    membership = Membership.objects.create(
        group=group, user=user, display_name=display_name, shares=shares
    )
    if current.is_link:
        current.uses += 1
        current.save(update_fields=["uses"])
    else:
        current.delete()
    return membership


@transaction.atomic
def leave(*, membership: Membership) -> Membership | None:
    """Take the learner out of the group; an owner hands the group to the longest member.

    Returns the new owner's membership, or None. A group left by its only member is deleted.
    """
    group = StudyGroup.objects.select_for_update().get(pk=membership.group_id)
    membership.delete()
    if membership.role != Membership.Role.OWNER:
        return None
    heir = group.memberships.by_seniority().first()
    if heir is None:
        group.delete()
        return None
    heir.role = Membership.Role.OWNER
    heir.save(update_fields=["role"])
    return heir


@transaction.atomic
def hand_over(*, owner: Membership, heir: Membership) -> None:
    """Make another member the owner; the previous owner stays a member."""
    if heir.group_id != owner.group_id or heir.pk == owner.pk:
        raise GroupError(_("Choose another member of this group."))
    locked_group(owner.group_id)
    still_owner(owner)
    if not Membership.objects.filter(pk=heir.pk).exists():
        raise GroupError(_("Choose another member of this group."))
    owner.role = Membership.Role.MEMBER
    owner.save(update_fields=["role"])
    heir.role = Membership.Role.OWNER
    heir.save(update_fields=["role"])


@transaction.atomic
def remove_member(*, owner: Membership, member: Membership) -> None:
    """The owner takes a member out of the group."""
    if member.group_id != owner.group_id or member.pk == owner.pk:
        raise GroupError(_("Choose another member of this group."))
    locked_group(owner.group_id)
    still_owner(owner)
    member.delete()


@transaction.atomic
def delete_group(*, owner: Membership) -> None:
    """The owner deletes the group, its memberships and invitations; joins wait, then are refused."""
    group = locked_group(owner.group_id)
    still_owner(owner)
    group.delete()


def leave_every_group(user: User) -> None:
    """Before an account is deleted: out of every group, ownership handed to the longest member."""
    for membership in Membership.objects.filter(user=user):
        leave(membership=membership)


def share(*, user: User, display_name: str) -> tuple[ShareLink, str]:
    """Turn sharing on, or give a new link: the previous link stops working at once."""
    token = new_token()
    link, _created = ShareLink.objects.update_or_create(
        user=user,
        defaults={
            "token_hash": digest(token),
            "display_name": display_name,
            "created_at": timezone.now(),
        },
    )
    return link, token


def stop_sharing(*, user: User) -> None:
    ShareLink.objects.filter(user=user).delete()
