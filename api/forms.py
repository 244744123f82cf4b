from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from api.models import AccessToken
from lib.forms import renderer

EXPIRY_DAYS = [
    ("30", _("in 30 days")),
    ("90", _("in 90 days")),
    ("365", _("in a year")),
    ("", _("never")),
]


class TokenForm(forms.ModelForm):
    """A new personal access token: a name, a scope, and when it stops working."""

    default_renderer = renderer

    expires_in = forms.ChoiceField(
        label=_("Expires"),
        choices=EXPIRY_DAYS,
        required=False,
        initial="90",
        widget=forms.RadioSelect,
    )

    class Meta:
        model = AccessToken
        fields = ["name", "scope"]
        widgets = {"scope": forms.RadioSelect}
        help_texts = {"name": _("Where you will use it, e.g. “laptop” or “git hook”.")}

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "token_%s")
        super().__init__(*args, **kwargs)
        self.fields["scope"].choices = AccessToken.Scope.choices

    def expires_at(self):
        days = self.cleaned_data.get("expires_in")
        return timezone.now() + timedelta(days=int(days)) if days else None
