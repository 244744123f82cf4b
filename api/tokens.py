"""The tokens page (/settings/tokens/): create a personal access token, shown once; revoke one."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from api.forms import TokenForm
from api.models import MAX_TOKENS_PER_LEARNER, AccessToken
from lib.http import AuthenticatedHttpRequest
from lib.urls import url_with


@dataclass(frozen=True, slots=True)
class TokenRow:
    """A token as the page lists it, every date written out."""

    pk: int
    name: str
    prefix: str
    scope: str
    usable: bool
    created: str
    used: str  # "" for never used
    revoked: str  # "" for not revoked
    expires: str  # "" for never
    revoke_url: str


@dataclass(frozen=True, slots=True)
class Created:
    """A token just made: its clear text exists only in this response."""

    name: str
    clear: str


@dataclass(frozen=True, slots=True)
class TokensPage:
    created: Created | None
    form: TokenForm  # blank, or as it was sent with its errors
    tokens: tuple[TokenRow, ...]
    api_url: str
    docs_url: str


def when(moment, format_name: str = "DATETIME_FORMAT") -> str:
    """A moment in the learner's time zone, written long ("5 December 2026, 13:11"); "" for none."""
    return date_format(timezone.localtime(moment), format_name) if moment else ""


def token_row(token: AccessToken, now) -> TokenRow:
    return TokenRow(
        pk=token.pk,
        name=token.name,
        prefix=token.shown_prefix,
        scope=token.get_scope_display(),
        usable=not token.is_revoked and not token.is_expired(now),
        created=when(token.created_at),
        used=when(token.last_used_at),
        revoked=when(token.revoked_at) if token.is_revoked else "",
        expires=when(token.expires_at, "DATE_FORMAT"),
        revoke_url=url_with("tokens:revoke", token.pk),
    )


@login_required
@require_http_methods(["GET", "POST"])
def token_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    created = None
    usable = AccessToken.objects.for_learner(request.user).usable()
    if request.method == "POST" and form.is_valid() and usable.count() >= MAX_TOKENS_PER_LEARNER:
        form.add_error(
            None,
            _("You have %(count)s usable tokens, the most one learner may have: revoke one first.")
            % {"count": MAX_TOKENS_PER_LEARNER},
        )
    if request.method == "POST" and form.is_valid():
        token, clear = AccessToken.objects.create_for(
            user=request.user,
            name=form.cleaned_data["name"],
            scope=form.cleaned_data["scope"],
            expires_at=form.expires_at(),
        )
        # Rendered, not redirected: the clear token exists only in this response.
        created = Created(name=token.name, clear=clear)
        form = TokenForm()
    now = timezone.now()
    page = TokensPage(
        created=created,
        form=form,
        tokens=tuple(token_row(t, now) for t in AccessToken.objects.for_learner(request.user)),
        api_url=request.build_absolute_uri(reverse("api:api-root")),
        docs_url=reverse("api:openapi-view"),
    )
    status = 400 if form.errors else 200
    response = render(request, "api/tokens.jinja", {"page": page}, status=status, using="jinja2")
    if created:
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def revoke_token(request, pk):
    token = get_object_or_404(AccessToken, pk=pk, user=request.user)
    token.revoke()
    messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("tokens:list")
