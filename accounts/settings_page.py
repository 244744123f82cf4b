"""The settings page's view model: the learner's profile form, the architecture session for
their GPU, the reminders, the deletion of the account (templates/accounts/settings.jinja).

The curriculum's revision token, the learner's profile and the reminders' state are read together,
in one statement; the advice for every GPU choice is built once per curriculum revision and
language (Curriculum.built).
"""

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import translation
from markupsafe import Markup

from accounts.settings_forms import DeleteAccountForm, ProfileForm, shown_time_zone
from curriculum import structure
from curriculum.models import Revision, SessionAdvice
from lib.form_fields import (
    NO_CHOICE,
    FieldGroup,
    chosen_in,
    field_group,
    field_groups,
    non_field_errors,
)
from lib.http import AuthenticatedHttpRequest
from lib.prepared import prepared_rows
from lib.raw_rows import day_of
from progress.models import Profile
from reminders.section import (
    STATE_COLUMNS,
    STATE_JOINS,
    RemindersSection,
    reminders_section,
    state_from,
)

PROFILE = (
    "id",
    "gpu_card_id",
    "architecture_id",
    "started_on",
    "language",
    "time_zone",
    "records_viewing",
)
# One row whatever the learner has: their profile's columns are NULL while they have none.
SQL = f"""
SELECT (SELECT token FROM {Revision._meta.db_table}
         WHERE id = (SELECT MIN(id) FROM {Revision._meta.db_table})),
       {", ".join(f"profile.{name}" for name in PROFILE)},
       {STATE_COLUMNS}
  FROM (SELECT %(user)s AS id) AS learner
  LEFT JOIN {Profile._meta.db_table} AS profile ON profile.user_id = learner.id {STATE_JOINS}
"""


@dataclass(frozen=True, slots=True)
class Link:
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class GpuAdvice:
    """Which architecture session to watch for a GPU, and why: the template words each reason."""

    reason: str
    card: str  # the card's name, "" for none
    maker: str
    architecture: str  # "NVIDIA Hopper", "" for none
    architecture_name: str  # "Hopper"
    nearest: str  # the name of the generation whose session is advised
    session: Link | None
    watch_url: str
    search: Link | None  # while no video address is known, a search of the series' site
    pointers: tuple[Link, ...]


@dataclass(frozen=True, slots=True)
class SettingsPage:
    profile_fields: tuple[FieldGroup, ...]
    profile_errors: tuple[str, ...]
    advice: GpuAdvice
    reminders: RemindersSection
    delete_fields: tuple[FieldGroup, ...]
    delete_errors: tuple[str, ...]


def gpu_advice(advice: SessionAdvice) -> GpuAdvice:
    card, architecture, session = advice.card, advice.architecture, advice.session
    search = session.search_link if session is not None and not session.watch_link else None
    return GpuAdvice(
        reason=advice.reason,
        card=card.name if card else "",
        maker=card.maker if card else "",
        architecture=str(architecture) if architecture else "",
        architecture_name=architecture.name if architecture else "",
        nearest=advice.session_architecture.name if advice.session_architecture else "",
        session=Link(session.title, session.get_absolute_url()) if session else None,
        watch_url=session.watch_link if session else "",
        search=Link(search.label, search.url) if search else None,
        pointers=tuple(Link(r.title, r.get_absolute_url()) for r in advice.pointers),
    )


def advice_by_choice(curriculum) -> dict[tuple[str, int | None], GpuAdvice]:
    """The advice for each card, each architecture without a card, and no GPU at all."""
    advice: dict[tuple[str, int | None], GpuAdvice] = {
        ("none", None): gpu_advice(curriculum.session_advice())
    }
    for card in curriculum.gpu_cards:
        advice["card", card.pk] = gpu_advice(curriculum.session_advice(card_id=card.pk))
    for architecture in curriculum.architectures:
        choice = curriculum.session_advice(architecture_id=architecture.pk)
        advice["architecture", architecture.pk] = gpu_advice(choice)
    return advice


def advice_for(curriculum, profile: Profile) -> GpuAdvice:
    advices = curriculum.built(advice_by_choice)
    if profile.gpu_card_id in curriculum.cards_by_pk:
        return advices["card", profile.gpu_card_id]
    return advices.get(("architecture", profile.architecture_id), advices["none", None])


@dataclass(frozen=True, slots=True)
class LearnerState:
    token: str | None  # the curriculum's revision token
    profile: Mapping[str, Any] | None  # the profile's columns, None while the learner has none
    reminders: Mapping[str, Any]  # reminders.section.STATE


def learner_state(user: AbstractBaseUser) -> LearnerState:
    """The revision token, the learner's profile and the reminders' state, in one statement."""
    [(token, *columns)] = prepared_rows(SQL, {"user": user.pk})
    profile = dict(zip(PROFILE, columns[: len(PROFILE)], strict=True))
    return LearnerState(
        token=token,
        profile=profile if profile["id"] is not None else None,
        reminders=state_from(tuple(columns[len(PROFILE) :])),
    )


def profile_of(user: AbstractBaseUser, columns: Mapping[str, Any] | None) -> Profile:
    """The profile as read with the state, without a query; created if the learner has none."""
    if columns is None:
        return Profile.objects.for_learner(user)
    started_on, records_viewing = day_of(columns["started_on"]), bool(columns["records_viewing"])
    values = {**columns, "started_on": started_on, "records_viewing": records_viewing}
    return Profile(user_id=user.pk, **values)


# The profile form is the same for every learner of a curriculum revision and language but for
# its values: its fields are written once with no option chosen, this start day and the recording
# box unticked (and ticked, apart), and each request puts the learner's in.
DAY_SLOT = datetime.date(1901, 2, 3)
SELECTS = ("gpu_card", "architecture", "language", "time_zone")


@dataclass(frozen=True, slots=True)
class BlankProfileFields:
    fields: dict[str, FieldGroup]
    records_ticked: FieldGroup


def blank_profile_fields(curriculum) -> BlankProfileFields:
    initial = {**dict.fromkeys(SELECTS, NO_CHOICE), "started_on": DAY_SLOT}
    unticked = ProfileForm(initial={**initial, "records_viewing": False}, curriculum=curriculum)
    ticked = ProfileForm(initial={**initial, "records_viewing": True}, curriculum=curriculum)
    fields = {field.name: field_group(field) for field in unticked}
    if fields["started_on"].widget.count(f'value="{DAY_SLOT.isoformat()}"') != 2:
        raise ValueError("The profile form must print its start day twice (its hidden initial).")
    return BlankProfileFields(fields, records_ticked=field_group(ticked["records_viewing"]))


def profile_fields(curriculum, profile: Profile) -> tuple[FieldGroup, ...]:
    """The profile form's fields as ProfileForm(instance=profile) prints them."""
    blank = curriculum.built(blank_profile_fields)
    started_on = blank.fields["started_on"]
    day = f'value="{DAY_SLOT.isoformat()}"', f'value="{profile.started_on.isoformat()}"'
    return (
        chosen_in(blank.fields["gpu_card"], profile.gpu_card_id),
        chosen_in(blank.fields["architecture"], profile.architecture_id),
        replace(started_on, widget=Markup(str.replace(started_on.widget, *day))),
        chosen_in(blank.fields["language"], profile.language),
        chosen_in(blank.fields["time_zone"], shown_time_zone(profile.time_zone)),
        blank.records_ticked if profile.records_viewing else blank.fields["records_viewing"],
    )


# The deletion form shows no value (a password is never written back): it is written once per
# language.
_DELETE_FIELDS: dict[str | None, tuple[FieldGroup, ...]] = {}


def blank_delete_fields() -> tuple[FieldGroup, ...]:
    language = translation.get_language()
    groups = _DELETE_FIELDS.get(language)
    if groups is None:
        groups = _DELETE_FIELDS[language] = field_groups(DeleteAccountForm(user=None))
    return groups


def settings_page(
    request: AuthenticatedHttpRequest,
    *,
    profile_form: ProfileForm | None = None,
    delete_form: DeleteAccountForm | None = None,
) -> SettingsPage:
    """The page, with a refused form's errors when one is given."""
    state = learner_state(request.user)
    curriculum = structure.at_revision(state.token)
    # The saved profile, even beside a refused form (whose instance holds what was refused).
    profile = profile_of(request.user, state.profile)
    return SettingsPage(
        profile_fields=(
            field_groups(profile_form) if profile_form else profile_fields(curriculum, profile)
        ),
        profile_errors=non_field_errors(profile_form) if profile_form else (),
        advice=advice_for(curriculum, profile),
        reminders=reminders_section(request, state.reminders),
        delete_fields=field_groups(delete_form) if delete_form else blank_delete_fields(),
        delete_errors=non_field_errors(delete_form) if delete_form else (),
    )
