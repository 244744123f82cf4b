"""The account forms: sign-up, sign-in, and admin's form for a user."""

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserChangeForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from lib.forms import renderer
from lib.time_zone import is_time_zone

User = get_user_model()


def clean_unique_email(form):
    """The form's e-mail address, refused when another account has it in any case."""
    email = User.objects.normalize_email(form.cleaned_data["email"])
    others = User.objects.exclude(pk=form.instance.pk) if form.instance.pk else User.objects
    if email and others.filter(email__iexact=email).exists():
        raise forms.ValidationError(
            _("An account with this e-mail address already exists."), code="unique"
        )
    return email


class SignUpForm(UserCreationForm):
    """A learner's new account: a username and an e-mail address no one else has, in any case."""

    default_renderer = renderer

    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        help_text=_("Used only to send you a link if you forget your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    # The site's zone without JavaScript; static/js/time_zone.js puts the browser's in.
    time_zone = forms.CharField(
        required=False,
        widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""}),
        initial=settings.TIME_ZONE,
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    clean_email = clean_unique_email

    def clean_time_zone(self):
        """The browser's zone when the list knows it, else the site's: never an error."""
        name = self.cleaned_data["time_zone"]
        return name if is_time_zone(name) else settings.TIME_ZONE


class AccountChangeForm(UserChangeForm):
    """Admin's form for an account: usernames and e-mails stay unique in any case, as at sign-up."""

    clean_email = clean_unique_email

    def clean_username(self):
        username = self.cleaned_data["username"]
        if User.objects.exclude(pk=self.instance.pk).filter(username__iexact=username).exists():
            raise forms.ValidationError(
                _("A user with that username already exists."), code="unique"
            )
        return username


class SignInForm(AuthenticationForm):
    """Django's sign-in form, which also refuses an over-long username with a length error."""

    default_renderer = renderer

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # AuthenticationForm sets max_length after the field is built, so it adds no validator.
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))
