"""The tokens page (/settings/tokens/): create a personal access token, shown once; revoke one."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from api.forms import TokenForm
from api.models import AccessToken


@dataclass
class TokenRow:
    """A token as the page lists it, with its revoke address worked out once."""

    token: AccessToken

    @property
    def revoke_url(self):
        return reverse("tokens:revoke", args=[self.token.pk])

    @property
    def is_usable(self):
        return not self.token.is_revoked and not self.token.is_expired()


@login_required
@require_http_methods(["GET", "POST"])
def token_list(request):
    form = TokenForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        token, clear = AccessToken.objects.create_for(
            user=request.user,
            name=form.cleaned_data["name"],
            scope=form.cleaned_data["scope"],
            expires_at=form.expires_at(),
        )
        # Rendered, not redirected: the clear token exists only in this response.
        created = {"token": token, "clear": clear}
        form = TokenForm()
    context = {
        "form": form,
        "created": created,
        "tokens": [TokenRow(token) for token in AccessToken.objects.for_learner(request.user)],
        "api_url": request.build_absolute_uri(reverse("api:api-root")),
        "docs_url": reverse("api:openapi-view"),
    }
    response = render(request, "api/tokens.html", context, status=400 if form.errors else 200)
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
