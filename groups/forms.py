from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from groups.models import MAX_MEMBERS, Membership, ShareLink, StudyGroup
from lib.forms import renderer


def default_display_name(user) -> str:
    """What a learner is called until they choose: their first name, else their username."""
    return (user.first_name or user.get_username())[:60]


class GroupForm(forms.ModelForm):
    default_renderer = renderer

    display_name = forms.CharField(
        label=_("My name in this group"),
        max_length=60,
        help_text=_("What the other members read on the board."),
    )

    class Meta:
        model = StudyGroup
        fields = ["name", "description"]
        labels = {"name": _("Name of the group"), "description": _("Description (optional)")}
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}


class MembershipForm(forms.ModelForm):
    """What a member is called in a group and what they show there."""

    default_renderer = renderer

    class Meta:
        model = Membership
        fields = ["display_name", "shares"]
        labels = {"display_name": _("My name in this group"), "shares": _("The other members see")}
        widgets = {"shares": forms.RadioSelect}

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if not name:
            raise forms.ValidationError(_("Give a name the other members will read."))
        return name


class LinkForm(forms.Form):
    """An invitation link: how long it works and how many may join with it."""

    default_renderer = renderer

    DAYS = [(1, _("1 day")), (7, _("7 days")), (30, _("30 days"))]

    days = forms.TypedChoiceField(
        label=_("Works for"), choices=DAYS, coerce=int, initial=7, widget=forms.Select
    )
    max_uses = forms.IntegerField(
        label=_("Learners who may join with it"),
        min_value=1,
        max_value=MAX_MEMBERS,
        initial=5,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["max_uses"].help_text = _(
            "At most %(count)s: a group has no more members than that."
        ) % {"count": MAX_MEMBERS}


class UsernameInvitationForm(forms.Form):
    default_renderer = renderer

    username = forms.CharField(label=_("Username of the learner"), max_length=150)

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        invitee = get_user_model().objects.filter(username__iexact=username).first()
        if invitee is None:
            raise forms.ValidationError(_("No learner has this username."))
        self.invitee = invitee
        return username


class ShareForm(forms.ModelForm):
    default_renderer = renderer

    class Meta:
        model = ShareLink
        fields = ["display_name"]
        labels = {"display_name": _("Name shown on the page")}
        help_texts = {"display_name": _("Neither your username nor your e-mail address is shown.")}

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if name.casefold() in {self.user.get_username().casefold(), self.user.email.casefold()}:
            raise forms.ValidationError(
                _("Choose another name than your username or e-mail address: the page is public.")
            )
        return name
