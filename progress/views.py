from django.contrib import messages
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from progress.forms import SignUpForm


@require_GET
def home(request):
    return render(request, "progress/home.html")


def safe_next_url(request):
    """The `next` URL the visitor came with, if it stays on this site; otherwise home."""
    next_url = request.POST.get("next") or request.GET.get("next", "")
    if url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return reverse("home")


@require_http_methods(["GET", "POST"])
def signup(request):
    next_url = safe_next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url)
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the same username or e-mail between our check and the save.
            form.add_error(
                None, _("This username or e-mail address was just taken. Please choose another.")
            )
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request, _("Welcome to Parcours, %(username)s!") % {"username": user.get_username()}
            )
            return redirect(next_url)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
