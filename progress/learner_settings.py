"""Views of /settings/: the learner's profile and language, the export of their data, deleting the account."""

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from curriculum import structure
from progress.account_deletion import forget_learner
from progress.export import export_document, export_zip
from progress.language import set_language_cookie
from progress.models import Profile
from progress.settings_forms import DeleteAccountForm, ProfileForm


def render_settings(request, profile_form=None, delete_form=None, status=200):
    profile = Profile.objects.for_learner(request.user)
    curriculum = structure.current()
    context = {
        "profile_form": profile_form or ProfileForm(instance=profile, curriculum=curriculum),
        "delete_form": delete_form or DeleteAccountForm(user=request.user),
        "gpu_advice": curriculum.session_advice(
            card_id=profile.gpu_card_id, architecture_id=profile.architecture_id
        ),
    }
    return render(request, "progress/settings.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    if request.method == "GET":
        return render_settings(request)
    form = ProfileForm(request.POST, instance=Profile.objects.for_learner(request.user))
    if not form.is_valid():
        return render_settings(request, profile_form=form)
    profile = form.save()
    if profile.language:
        translation.activate(profile.language)
    messages.success(request, _("Your settings are saved."))
    response = redirect("progress:settings")
    set_language_cookie(response, profile.language)
    return response


def attachment(content, content_type, extension):
    response = HttpResponse(content, content_type=content_type)
    filename = f"parcours-export-{timezone.localdate():%Y-%m-%d}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def export_json(request):
    document = json.dumps(export_document(request.user), ensure_ascii=False, indent=2)
    return attachment(document, "application/json; charset=utf-8", "json")


@login_required
@require_GET
def export_csv(request):
    return attachment(export_zip(request.user), "application/zip", "zip")


@login_required
@require_POST
def delete_account(request):
    form = DeleteAccountForm(request.POST, user=request.user)
    if not form.is_valid():
        return render_settings(request, delete_form=form, status=400)
    user = request.user
    logout(request)
    with transaction.atomic():
        forget_learner(user)
        user.delete()
    messages.success(request, _("Your account and everything you entered are deleted."))
    return redirect("home")
