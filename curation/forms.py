"""The curators' filter of learners."""

from datetime import date

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from lib.forms import renderer


class CohortForm(forms.Form):
    """The curators' filter: learners who signed up in one month, or everyone; in one group, or any."""

    default_renderer = renderer

    cohort = forms.ChoiceField(label=_("Signed up in"), required=False)
    group = forms.ChoiceField(label=_("Member of"), required=False)

    def __init__(self, data, *, months, groups=()):
        super().__init__(data)
        self.fields["cohort"].choices = [("", _("Any month"))] + [
            (month.strftime("%Y-%m"), date_format(month, "YEAR_MONTH_FORMAT")) for month in months
        ]
        self.groups = {group.slug: group for group in groups}
        self.fields["group"].choices = [("", _("Any group or none"))] + [
            (group.slug, group.name) for group in groups
        ]

    def chosen_group(self):
        """The chosen study group, or None for everyone (also when the choice is bad)."""
        if not self.is_valid():
            return None
        return self.groups.get(self.cleaned_data["group"])

    def month(self):
        """The first day of the chosen month, or None for everyone (also when the choice is bad)."""
        if not self.is_valid() or not self.cleaned_data["cohort"]:
            return None
        return date.fromisoformat(self.cleaned_data["cohort"] + "-01")
