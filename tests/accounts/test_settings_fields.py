"""The settings page's fields are written once (per curriculum revision and language) and filled
with each learner's values: they must be what Django's forms print for the same values."""

from datetime import date, time

import pytest
from django.utils import translation

from accounts.settings_forms import DeleteAccountForm, ProfileForm
from accounts.settings_page import blank_delete_fields, profile_fields
from curriculum import structure
from curriculum.models import Architecture, GpuCard
from lib.form_fields import chosen_in, field_groups
from progress.models import Profile
from reminders.forms import CodeTimeForm, DigestForm, NudgeForm
from reminders.models import CalendarFeed
from reminders.section import blank_choices, code_time_of, code_time_of_feed

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "fr"]


def profiles(learner):
    card, other_card = GpuCard.objects.order_by("pk")[:2]
    architecture = Architecture.objects.order_by("pk").last()
    return [
        Profile(user=learner, started_on=date(2026, 1, 5)),
        Profile(
            user=learner,
            gpu_card=card,
            architecture=card.architecture,
            started_on=date(2025, 3, 4),
            language="fr",
            time_zone="America/Montreal",
            records_viewing=False,
        ),
        Profile(user=learner, gpu_card=other_card, language="en", time_zone="Europe/Paris"),
        Profile(user=learner, architecture=architecture, time_zone="Etc/Unknown"),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_profile_fields_are_those_the_form_prints(seed, learner, language):
    """Every card, architecture, language, zone (chosen, the site's, unknown) and both states of
    the recording box."""
    curriculum = structure.current()
    with translation.override(language):
        for profile in profiles(learner):
            form = ProfileForm(instance=profile, curriculum=curriculum)
            assert profile_fields(curriculum, profile) == field_groups(form)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_reminders_choices_are_those_the_forms_print(language):
    """The digest's day and the nudge's hour, none or each one."""
    with translation.override(language):
        digest, nudge = blank_choices()
        for weekday in [None, *range(7)]:
            form = DigestForm(initial={"weekday": "" if weekday is None else weekday})
            assert (chosen_in(digest, weekday),) == field_groups(form)
        for hour in [None, *range(24)]:
            form = NudgeForm(initial={"hour": "" if hour is None else hour})
            assert (chosen_in(nudge, hour),) == field_groups(form)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_code_time_is_the_one_the_form_prints(language):
    """A day or every day, weekdays only, each hour of the day and a minute past."""
    with translation.override(language):
        for weekdays in (0b0000001, 0b1000000, 0b0011111, 0b1010101, 0b1111111):
            for at in (time(0, 0), time(1, 23), time(7, 5), time(20, 0), time(23, 59)):
                feed = CalendarFeed(code_weekdays=weekdays, code_at=at)
                assert code_time_of_feed(feed) == code_time_of(CodeTimeForm.for_feed(feed))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_deletion_field_is_the_one_the_form_prints(learner, language):
    """A password is never written back: the blank field is the form's."""
    with translation.override(language):
        assert blank_delete_fields() == field_groups(DeleteAccountForm(user=learner))
