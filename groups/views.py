"""Study groups: the learner's groups, a group's board, its management by the owner, joining.

Every group address answers 404 to anyone who is not a member (and owner pages to anyone who is
not the owner), as if the group did not exist: its name and members stay private.
"""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from groups import actions
from groups.actions import GroupError
from groups.board import DEFAULT_SORT, SORTS, board_page
from groups.forms import (
    GroupForm,
    LinkForm,
    MembershipForm,
    UsernameInvitationForm,
    default_display_name,
)
from groups.models import Invitation, Membership
from lib.http import AuthenticatedHttpRequest, HtmxHttpRequest, is_signed_in


def membership_of(request: AuthenticatedHttpRequest, slug: str) -> Membership:
    """The viewer's membership of the group at slug, or 404."""
    return get_object_or_404(
        Membership.objects.select_related("group"), group__slug=slug, user=request.user
    )


def ownership_of(request: AuthenticatedHttpRequest, slug: str) -> Membership:
    """The viewer's membership of the group at slug if they own it, or 404."""
    return get_object_or_404(
        Membership.objects.select_related("group"),
        group__slug=slug,
        user=request.user,
        role=Membership.Role.OWNER,
    )


def render_list(
    request: AuthenticatedHttpRequest, form: GroupForm | None = None, status: int = 200
) -> HttpResponse:
    memberships = (
        Membership.objects.filter(user=request.user)
        .select_related("group")
        .annotate(members=Count("group__memberships"))
        .order_by("group__name", "group__pk")
    )
    invitations = Invitation.objects.for_invitee(request.user).select_related("group")
    context = {
        "memberships": memberships,
        "invitations": invitations,
        "form": form or GroupForm(initial={"display_name": default_display_name(request.user)}),
    }
    return render(request, "groups/list.jinja", context, status=status)


@login_required
@require_GET
def group_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render_list(request)


@login_required
@require_POST
def group_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = GroupForm(request.POST)
    if not form.is_valid():
        return render_list(request, form=form, status=400)
    try:
        group = actions.create_group(
            owner=request.user,
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            display_name=form.cleaned_data["display_name"],
        )
    except GroupError as error:
        form.add_error(None, str(error))
        return render_list(request, form=form, status=400)
    messages.success(request, _("The group “%(name)s” is created.") % {"name": group.name})
    return redirect("groups:manage", slug=group.slug)


# The board


def render_board(
    request: AuthenticatedHttpRequest,
    slug: str,
    form: MembershipForm | None = None,
    status: int = 200,
) -> HttpResponse:
    sort = request.GET.get("sort", DEFAULT_SORT)
    sort = sort if sort in SORTS else DEFAULT_SORT
    page = board_page(slug, request.user.pk, sort=sort, form=form)
    return render(request, "groups/board.jinja", {"page": page}, status=status, using="jinja2")


@login_required
@require_GET
def board(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return render_board(request, slug)


@login_required
@require_POST
def update_membership(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    membership = membership_of(request, slug)
    form = MembershipForm(request.POST, instance=membership)
    if not form.is_valid():
        return render_board(request, slug, form=form, status=400)
    form.save()
    messages.success(request, _("Your choices for this group are saved."))
    return redirect("groups:board", slug=slug)


@login_required
@require_POST
def leave_group(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    membership = membership_of(request, slug)
    heir = actions.leave(membership=membership)
    text = _("You left “%(name)s”: the board no longer shows you.")
    if heir is not None:
        text += " " + _("%(heir)s now owns it.") % {"heir": heir.display_name}
    messages.success(request, text % {"name": membership.group.name})
    return redirect("groups:list")


# The owner's page


def render_manage(
    request: AuthenticatedHttpRequest,
    ownership: Membership,
    *,
    created: dict[str, object] | None = None,
    link_form: LinkForm | None = None,
    invite_form: UsernameInvitationForm | None = None,
    status: int = 200,
) -> HttpResponse:
    group = ownership.group
    context = {
        "group": group,
        "me": ownership,
        "created": created,
        "links": list(group.invitations.links()),
        "pending": list(group.invitations.filter(invitee__isnull=False).select_related("invitee")),
        "members": list(group.memberships.for_board()),
        "link_form": link_form or LinkForm(),
        "invite_form": invite_form or UsernameInvitationForm(),
        "base": reverse("groups:manage", args=[group.slug]).removesuffix("manage/"),
    }
    response = render(request, "groups/manage.jinja", context, status=status)
    if created:
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def manage(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return render_manage(request, ownership_of(request, slug))


@login_required
@require_POST
def create_link(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    ownership = ownership_of(request, slug)
    form = LinkForm(request.POST)
    if not form.is_valid():
        return render_manage(request, ownership, link_form=form, status=400)
    try:
        invitation, token = actions.create_link(
            group=ownership.group,
            days=form.cleaned_data["days"],
            max_uses=form.cleaned_data["max_uses"],
        )
    except GroupError as error:
        form.add_error(None, str(error))
        return render_manage(request, ownership, link_form=form, status=400)
    # Rendered, not redirected: the link exists only in this response.
    created = {
        "invitation": invitation,
        "url": request.build_absolute_uri(reverse("groups:join", args=[token])),
    }
    return render_manage(request, ownership, created=created)


@login_required
@require_POST
def invite(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    ownership = ownership_of(request, slug)
    form = UsernameInvitationForm(request.POST)
    if form.is_valid():
        try:
            actions.invite_by_username(group=ownership.group, invitee=form.invitee)
        except GroupError as error:
            form.add_error("username", str(error))
    if not form.is_valid():
        return render_manage(request, ownership, invite_form=form, status=400)
    messages.success(
        request,
        _("%(username)s is invited: they accept on their groups page.")
        % {"username": form.invitee.get_username()},
    )
    return redirect("groups:manage", slug=slug)


@login_required
@require_POST
def revoke(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    ownership = ownership_of(request, slug)
    invitation = get_object_or_404(Invitation, pk=pk, group=ownership.group)
    if invitation.is_link:
        invitation.revoke()
    else:
        invitation.delete()
    messages.success(request, _("The invitation is revoked."))
    return redirect("groups:manage", slug=slug)


def after_refusal(ownership: Membership) -> HttpResponse:
    """Where an owner's refused action sends them: back to manage, to the board when a concurrent
    hand-over made them a plain member, to their groups when the group is gone."""
    role = Membership.objects.filter(pk=ownership.pk).values_list("role", flat=True).first()
    if role is None:
        return redirect("groups:list")
    page = "groups:manage" if role == Membership.Role.OWNER else "groups:board"
    return redirect(page, slug=ownership.group.slug)


def act_on_member(
    request: AuthenticatedHttpRequest,
    slug: str,
    pk: int,
    *,
    action: Callable[[Membership, Membership], object],
    done: str,
    then: str,
) -> HttpResponse:
    """An owner's action on another member; its refusal is said on the owner's page, its
    success (done, naming the member) on the page then."""
    ownership = ownership_of(request, slug)
    member = get_object_or_404(Membership, pk=pk, group=ownership.group)
    try:
        action(ownership, member)
    except GroupError as error:
        messages.error(request, str(error))
        return after_refusal(ownership)
    messages.success(request, done % {"name": member.display_name})
    return redirect(then, slug=slug)


@login_required
@require_POST
def remove_member(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    return act_on_member(
        request,
        slug,
        pk,
        action=lambda owner, member: actions.remove_member(owner=owner, member=member),
        done=_("%(name)s left the group."),
        then="groups:manage",
    )


@login_required
@require_POST
def make_owner(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    return act_on_member(
        request,
        slug,
        pk,
        action=lambda owner, heir: actions.hand_over(owner=owner, heir=heir),
        done=_("%(name)s now owns the group."),
        then="groups:board",
    )


@login_required
@require_POST
def delete_group(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    ownership = ownership_of(request, slug)
    if not request.POST.get("confirm"):
        messages.error(request, _("Tick the box to confirm: nothing was deleted."))
        return redirect("groups:manage", slug=slug)
    name = ownership.group.name
    try:
        actions.delete_group(owner=ownership)
    except GroupError as error:
        messages.error(request, str(error))
        return after_refusal(ownership)
    messages.success(request, _("The group “%(name)s” is deleted.") % {"name": name})
    return redirect("groups:list")


# Joining


def render_join(
    request: HtmxHttpRequest,
    invitation: Invitation,
    form: MembershipForm | None = None,
    status: int = 200,
) -> HttpResponse:
    group = invitation.group
    context = {
        "invitation": invitation,
        "group": group,
        "members": group.memberships.count(),
        "form": form
        or MembershipForm(initial={"display_name": default_display_name(request.user)}),
        "action": request.path,
    }
    return render(request, "groups/join.jinja", context, status=status)


def _join(request: AuthenticatedHttpRequest, invitation: Invitation) -> HttpResponse:
    """The join page, the join itself, or why the invitation cannot be used."""
    if invitation.group.memberships.filter(user=request.user).exists():
        messages.info(request, _("You are already a member of this group."))
        return redirect("groups:board", slug=invitation.group.slug)
    if reason := actions.refusal(invitation):
        return render(
            request,
            "groups/refused.jinja",
            {"reason": reason, "state": invitation.state()},
            status=410,
        )
    if request.method == "GET":
        return render_join(request, invitation)
    form = MembershipForm(request.POST)
    if not form.is_valid():
        return render_join(request, invitation, form=form, status=400)
    try:
        membership = actions.join(
            user=request.user,
            invitation=invitation,
            display_name=form.cleaned_data["display_name"],
            shares=form.cleaned_data["shares"],
        )
    except GroupError as error:
        # Another request got there first: this learner's own (a double click), or the last place.
        if invitation.group.memberships.filter(user=request.user).exists():
            return redirect("groups:board", slug=invitation.group.slug)
        return render(request, "groups/refused.jinja", {"reason": str(error)}, status=410)
    messages.success(request, _("Welcome to “%(name)s”.") % {"name": membership.group.name})
    return redirect("groups:board", slug=membership.group.slug)


def render_invited(request: HtmxHttpRequest, invitation: Invitation) -> HttpResponse:
    """What a signed-out visitor with an invitation link sees: the group, who invites them, and
    the way to sign up or sign in that comes back here."""
    if reason := actions.refusal(invitation):
        refused = {"reason": reason, "state": invitation.state()}
        return render(request, "groups/refused.jinja", refused, status=410)
    context = {
        "group": invitation.group,
        "inviter": invitation.group.memberships.owner_name(),
        "next": request.path,
    }
    return render(request, "groups/invited.jinja", context)


@require_http_methods(["GET", "POST"])
def join_link(request: HtmxHttpRequest, token: str) -> HttpResponse:
    invitation = Invitation.objects.links().with_token(token).select_related("group").first()
    if invitation is None:
        raise Http404
    if not is_signed_in(request):
        if request.method == "POST":
            return redirect_to_login(request.path)
        return render_invited(request, invitation)
    return _join(request, invitation)


@login_required
@require_http_methods(["GET", "POST"])
def invitation(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    invitation = get_object_or_404(
        Invitation.objects.select_related("group"), pk=pk, invitee=request.user
    )
    return _join(request, invitation)


@login_required
@require_POST
def decline(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    invitation = get_object_or_404(Invitation, pk=pk, invitee=request.user)
    invitation.delete()
    messages.success(request, _("The invitation is declined."))
    return redirect("groups:list")
