"""The settings page's view model: the learner's profile form, the architecture session for
their GPU, the reminders, the deletion of the account (templates/accounts/settings.jinja).

The curriculum's revision token, the learner's profile and the reminders' state are read together,
in one query; the advice for every GPU choice is built once per curriculum revision and language
(Curriculum.built).
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Subquery

from accounts.settings_forms import ZONE_LIST, DeleteAccountForm, ProfileForm
from curriculum import structure
from curriculum.models import Revision, SessionAdvice
from lib.http import AuthenticatedHttpRequest
from lib.time_zone import time_zone_names
from progress.models import Profile
from reminders.section import RemindersSection, reminders_section, with_reminders


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
    profile_form: ProfileForm  # the saved profile, or as it was sent with its errors
    advice: GpuAdvice
    reminders: RemindersSection
    delete_form: DeleteAccountForm
    zone_list: str  # the id of the datalist the time-zone field offers its names from
    time_zones: tuple[str, ...]


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


def learner_with_settings(request: AuthenticatedHttpRequest):
    """The signed-in learner with their profile, their reminders and the curriculum's revision
    token, in one query."""
    token = Revision.objects.order_by("pk").values("token")[:1]
    return (
        with_reminders(get_user_model().objects.select_related("profile"))
        .annotate(revision_token=Subquery(token))
        .get(pk=request.user.pk)
    )


def settings_page(
    request: AuthenticatedHttpRequest,
    *,
    profile_form: ProfileForm | None = None,
    delete_form: DeleteAccountForm | None = None,
) -> SettingsPage:
    """The page, with a refused form's errors when one is given."""
    learner = learner_with_settings(request)
    curriculum = structure.at_revision(learner.revision_token)
    # The saved profile, even beside a refused form (whose instance holds what was refused);
    # created for an account that has none (createsuperuser makes none).
    profile = getattr(learner, "profile", None) or Profile.objects.for_learner(learner)
    return SettingsPage(
        profile_form=(
            ProfileForm(instance=profile, curriculum=curriculum)
            if profile_form is None
            else profile_form
        ),
        advice=advice_for(curriculum, profile),
        reminders=reminders_section(request, learner),
        delete_form=DeleteAccountForm(user=request.user) if delete_form is None else delete_form,
        zone_list=ZONE_LIST,
        time_zones=time_zone_names(),
    )
