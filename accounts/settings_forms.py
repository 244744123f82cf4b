"""Forms of the settings page: the learner's profile and the deletion of their account."""

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from curriculum import structure
from curriculum.models import Architecture, GpuCard
from lib.forms import day_input, renderer
from lib.time_zone import zone_or_default
from progress.models import Profile

# The id of the settings page's <datalist> of zone names (templates/accounts/settings.jinja).
ZONE_LIST = "time-zones"


def shown_time_zone(time_zone: str | None) -> str:
    """The zone the profile form shows: the site's while the learner has chosen none."""
    return time_zone or settings.TIME_ZONE


class ProfileForm(forms.ModelForm):
    default_renderer = renderer

    gpu_card = forms.ModelChoiceField(
        queryset=GpuCard.objects.all(),
        required=False,
        label=_("My GPU"),
        help_text=_(
            "Cards are grouped by maker; type a few letters to jump to yours. "
            "The path's architecture session then leads to the talk for its generation."
        ),
    )
    architecture = forms.ModelChoiceField(
        queryset=Architecture.objects.all(),
        required=False,
        empty_label=_("I don't know"),
        label=_("My GPU architecture, if my card is not listed"),
        help_text=_("Used only with “Other or none” above; a listed card brings its own."),
    )

    class Meta:
        model = Profile
        fields = [
            "gpu_card",
            "architecture",
            "started_on",
            "language",
            "time_zone",
            "records_viewing",
        ]
        widgets = {
            "started_on": day_input(),
            # Typed, with every zone's name offered as the learner types (the page's datalist
            # ZONE_LIST): "Tokyo" finds Asia/Tokyo, where a select made them scroll 600 names.
            "time_zone": forms.TextInput(
                attrs={
                    "list": ZONE_LIST,
                    "autocomplete": "off",
                    "autocapitalize": "none",
                    "spellcheck": "false",
                }
            ),
        }
        labels = {
            "started_on": _("I started the path on"),
            "language": _("Interface language"),
            "time_zone": _("My time zone"),
            "records_viewing": _("Record what I play on the resource pages"),
        }
        help_texts = {
            "language": _("Applied now and every time you sign in."),
            "time_zone": _(
                "Your weeks, streaks and “today” follow it. Type a city, such as Tokyo, and "
                "choose its zone in the list."
            ),
            "records_viewing": _(
                "The seconds you play become sittings, a video played nearly to the end is marked "
                "watched, and the page remembers where you stopped. Off: you log sittings by hand."
            ),
        }

    def __init__(self, *args, curriculum=None, **kwargs):
        super().__init__(*args, **kwargs)
        curriculum = curriculum or structure.current()
        self.fields["language"].choices = [
            ("", _("The language of my browser")),
            *self.fields["language"].choices[1:],
        ]
        # The curriculum's architectures, not a query of the field's own.
        self.fields["architecture"].choices = [
            ("", self.fields["architecture"].empty_label),
            *((architecture.pk, str(architecture)) for architecture in curriculum.architectures),
        ]
        self.fields["gpu_card"].choices = [
            ("", _("Other or none")),
            *[
                (maker, [(card.pk, card.name) for card in cards])
                for maker, cards in curriculum.cards_by_maker()
            ],
        ]

        self.initial["time_zone"] = shown_time_zone(self.initial.get("time_zone"))

    def clean(self):
        cleaned = super().clean()
        card = cleaned.get("gpu_card")
        if card is not None:
            cleaned["architecture"] = card.architecture
        return cleaned

    # Two hooks of ModelForm's model validation (Django's private API, stable since 1.x), so that
    # the start day is judged as the learner sees it: a day left as it was is never judged again
    # (a start day saved "tomorrow" by an older sign-up must not block every other setting), and
    # a day changed is "in the future" or not in the zone being saved, not the one being left.
    def _get_validation_exclusions(self):
        exclusions = super()._get_validation_exclusions()
        if "started_on" not in self.changed_data:
            exclusions.add("started_on")
        return exclusions

    def _post_clean(self):
        with timezone.override(zone_or_default(self.cleaned_data.get("time_zone") or "")):
            super()._post_clean()


class DeleteAccountForm(forms.Form):
    default_renderer = renderer

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
