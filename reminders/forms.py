from django import forms
from django.utils.translation import gettext_lazy as _

from lib.forms import renderer
from reminders.models import DigestSubscription


class DigestForm(forms.Form):
    default_renderer = renderer

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


class NudgeForm(forms.Form):
    default_renderer = renderer

    hour = forms.TypedChoiceField(
        label=_("Daily nudge by e-mail"),
        choices=[("", _("No daily nudge")), *((hour, f"{hour:02d}:00") for hour in range(24))],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_(
            "One short mail at that hour of your time zone, only on days when code is owed and none is logged yet."
        ),
    )


class CodeTimeForm(forms.Form):
    """When the calendar's code time goes: the days of the week and the hour it starts."""

    default_renderer = renderer

    days = forms.TypedMultipleChoiceField(
        label=_("Code time on"),
        choices=DigestSubscription.Weekday.choices,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one day for code time.")},
    )
    code_at = forms.TimeField(
        label=_("Starting at"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("Each chosen day gets its share of the week's code, from this hour."),
    )

    @classmethod
    def for_feed(cls, feed, *args, **kwargs):
        initial = {"days": feed.code_days, "code_at": feed.code_at} if feed else {}
        return cls(*args, initial=initial, **kwargs)

    def weekdays_mask(self) -> int:
        """The chosen days as CalendarFeed.code_weekdays stores them."""
        return sum(1 << day for day in set(self.cleaned_data["days"]))
