"""Forms of the settings page: the learner's profile and the deletion of their account."""

from django import forms
from django.utils.translation import gettext_lazy as _

from curriculum.models import Architecture
from progress.models import Profile
from progress.validators import validate_learner_day


class ProfileForm(forms.ModelForm):
    architecture = forms.ModelChoiceField(
        queryset=Architecture.objects.all(),
        required=False,
        empty_label=_("I don't know"),
        label=_("My GPU architecture"),
        help_text=_("The path's architecture session then leads to the talk about your card."),
    )

    class Meta:
        model = Profile
        fields = ["architecture", "started_on", "language"]
        widgets = {"started_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        labels = {
            "started_on": _("I started the path on"),
            "language": _("Interface language"),
        }
        help_texts = {"language": _("Applied now and every time you sign in.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [
            ("", _("The language of my browser")),
            *self.fields["language"].choices[1:],
        ]

    def clean_started_on(self):
        day = self.cleaned_data["started_on"]
        validate_learner_day(day)
        return day


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Enter it again to confirm: everything you entered is deleted for good."),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password; nothing was deleted."))
        return password
