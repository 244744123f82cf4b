from django import forms
from django.utils.translation import gettext_lazy as _

from reminders.models import DigestSubscription


class DigestForm(forms.Form):
    weekday = forms.TypedChoiceField(
        label=_("Weekly digest by e-mail"),
        choices=[("", _("No digest")), *DigestSubscription.Weekday.choices],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_(
            "Last week watched and coded, the 1:3 rule, what is next: on that day, in the morning of your time zone."
        ),
    )
