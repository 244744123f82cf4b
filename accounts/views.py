"""Views of accounts: signing up; /settings/ with the learner's profile and language, the export of their data, deleting the account."""

import json

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.deletion import forget_learner
from accounts.export import export_document, export_zip
from accounts.forms import SignUpForm
from accounts.language import set_language_cookie
from accounts.settings_forms import DeleteAccountForm, ProfileForm
from accounts.settings_page import settings_page
from lib.http import AuthenticatedHttpRequest, HtmxHttpRequest
from lib.next_url import safe_next_url
from lib.time_zone import zone_or_default
from progress.models import Profile
from progress.time_zone import remember_time_zone


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    next_url = safe_next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url)
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
                zone = form.cleaned_data["time_zone"]
                # The learner's today, not the server's: in Toronto at 23:00 it is still today.
                started_on = timezone.localdate(timezone=zone_or_default(zone))
                Profile.objects.get_or_create(
                    user=user,
                    defaults={
                        "time_zone": zone,
                        "started_on": started_on,
                        "browser_language": translation.get_language(),
                    },
                )
        except IntegrityError:
            # Someone took the same username or e-mail between our check and the save.
            form.add_error(
                None, _("This username or e-mail address was just taken. Please choose another.")
            )
        else:
            login(request, user, backend="accounts.backends.CaseInsensitiveModelBackend")
            messages.success(
                request, _("Welcome to Parcours, %(username)s!") % {"username": user.get_username()}
            )
            return redirect(next_url)
    return render(request, "registration/signup.jinja", {"form": form, "next": next_url})


def render_settings(
    request: AuthenticatedHttpRequest,
    profile_form: ProfileForm | None = None,
    delete_form: DeleteAccountForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The settings page, or again with a refused form's errors."""
    page = settings_page(request, profile_form=profile_form, delete_form=delete_form)
    return render(request, "accounts/settings.jinja", {"page": page}, status=status, using="jinja2")


@login_required
@require_http_methods(["GET", "POST"])
def settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "GET":
        return render_settings(request)
    form = ProfileForm(request.POST, instance=Profile.objects.for_learner(request.user))
    if not form.is_valid():
        return render_settings(request, profile_form=form)
    profile = form.save()
    remember_time_zone(request, profile.time_zone)
    if profile.language:
        translation.activate(profile.language)
    messages.success(request, _("Your settings are saved."))
    response = redirect("accounts:settings")
    set_language_cookie(response, profile.language)
    return response


def attachment(content: str | bytes, content_type: str, extension: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    filename = f"parcours-export-{timezone.localdate():%Y-%m-%d}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def export_json(request: AuthenticatedHttpRequest) -> HttpResponse:
    document = json.dumps(export_document(request.user), ensure_ascii=False, indent=2)
    return attachment(document, "application/json; charset=utf-8", "json")


@login_required
@require_GET
def export_csv(request: AuthenticatedHttpRequest) -> HttpResponse:
    return attachment(export_zip(request.user), "application/zip", "zip")


@login_required
@require_POST
def delete_account(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST, user=request.user)
    if not form.is_valid():
        return render_settings(request, delete_form=form, status=400)
    user = request.user
    logout(request)
    with transaction.atomic():
        forget_learner(user)
        user.delete()
    messages.success(request, _("Your account and everything you entered are deleted."))
    return redirect("progress:home")
