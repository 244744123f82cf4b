"""GPU cards: loaded from the fixture, edited in admin, resolved to the session to watch."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from curriculum import structure
from curriculum.models import GpuCard, SessionAdvice
from tests.factories import ArchitectureFactory, ResourceFactory

Reason = SessionAdvice.Reason


def advice_for(slug):
    card = GpuCard.objects.get(slug=slug)
    return structure.current().session_advice(card_id=card.pk)


def test_the_seed_names_the_common_cards_with_their_architecture(seed):
    """RTX 3080 is Ampere, RTX 4090 Ada, H100 Hopper, MI300X CDNA; Apple's has none."""
    cards = {card.slug: card for card in GpuCard.objects.select_related("architecture")}
    assert len(cards) == 20
    assert cards["rtx-3080"].architecture.slug == "ampere"
    assert cards["rtx-4090"].architecture.slug == "ada"
    assert cards["h100"].architecture.slug == "hopper"
    assert cards["mi300x"].architecture.slug == "amd-cdna"
    assert cards["apple-m-series"].architecture is None


def test_loading_twice_keeps_one_row_per_card_and_the_curators_edits(seed):
    """The loader is idempotent: a second run creates nothing and keeps an admin edit."""
    GpuCard.objects.filter(slug="rtx-4090").update(name="RTX 4090 (edited)")
    out = io.StringIO()
    call_command("load_curriculum", stdout=out)
    assert "0 created, 0 updated" in out.getvalue()
    assert GpuCard.objects.count() == 20
    assert GpuCard.objects.get(slug="rtx-4090").name == "RTX 4090 (edited)"


def test_a_card_naming_an_unknown_architecture_stops_the_load(db, tmp_path):
    """Bad data names the entry and the field, and loads nothing."""
    path = tmp_path / "bad.yaml"
    path.write_text(
        "gpu_cards:\n  - {slug: x1, name: X1, maker: NVIDIA, architecture: volta}\n",
        encoding="utf-8",
    )
    with pytest.raises(Exception, match=r"gpu_cards\[0\] 'x1': field 'architecture'"):
        call_command("load_curriculum", str(path), stdout=io.StringIO())
    assert not GpuCard.objects.exists()


def test_a_card_of_a_generation_with_a_session_gets_that_session(seed):
    """H100 is Hopper: the Hopper session, for its own reason."""
    advice = advice_for("h100")
    assert (advice.reason, advice.session.slug) == (Reason.OWN, "gtc-architecture-hopper")


def test_an_rtx_4090_gets_the_nearest_generations_session(seed):
    """Ada has no session in the seed: Hopper's, the nearest generation, and it says newer."""
    advice = advice_for("rtx-4090")
    assert advice.reason == Reason.NEWER
    assert advice.architecture.slug == "ada"
    assert advice.session_architecture.slug == "hopper"
    assert advice.session.slug == "gtc-architecture-hopper"


def test_a_newer_card_than_any_session_gets_the_older_nearest(db):
    """With only an older generation presented, the advice says the session is older."""
    old, new = ArchitectureFactory(order=1), ArchitectureFactory(order=5)
    ResourceFactory(kind="talk", presents_architecture=True, architectures=[old])
    card = GpuCard.objects.create(slug="n", name="N", maker="NVIDIA", architecture=new)
    advice = structure.current().session_advice(card_id=card.pk)
    assert (advice.reason, advice.session_architecture) == (Reason.OLDER, old)


def test_an_amd_card_is_told_the_cuda_sessions_do_not_apply_and_what_the_guide_suggests(seed):
    """MI300X is CDNA: no CUDA session, the guide's pointers are AMD ROCm and the Iris lecture."""
    advice = advice_for("mi300x")
    assert advice.reason == Reason.NONE_FOR_VENDOR
    assert advice.session is None
    assert {resource.slug for resource in advice.pointers} == {"amd-rocm", "gpu-mode-78"}
    assert not advice.runs_cuda


def test_an_apple_card_is_told_the_guide_has_no_session_for_it(seed):
    """Apple's GPUs fit no architecture of the guide: no session, no pretence."""
    advice = advice_for("apple-m-series")
    assert (advice.reason, advice.session, advice.pointers) == (Reason.NOT_CUDA, None, ())


def test_an_nvidia_card_with_no_architecture_lists_every_session(seed):
    """A curator added a card without its generation: every session is offered."""
    card = GpuCard.objects.create(slug="new", name="RTX 9999", maker="NVIDIA")
    advice = structure.current().session_advice(card_id=card.pk)
    assert advice.reason == Reason.UNKNOWN_ARCHITECTURE
    assert [r.slug for r in advice.pointers] == [
        "gtc-architecture-hopper",
        "gtc-architecture-blackwell",
        "gtc-architecture-rubin",
    ]


def test_an_unknown_card_id_is_no_card(seed):
    """A stale id resolves to “no GPU given”, never to an error."""
    advice = structure.current().session_advice(card_id=999_999)
    assert advice.reason == Reason.NO_GPU


def test_a_curator_adds_a_card_in_admin(client, curator, seed):
    """The card is saved with its architecture and offered in the learner's settings."""
    client.force_login(curator)
    ada = seed_architecture("ada")
    response = client.post(
        reverse("admin:curriculum_gpucard_add"),
        {"slug": "rtx-4070-ti", "name": "GeForce RTX 4070 Ti", "maker": "NVIDIA",
         "architecture": ada.pk, "order": 21},
    )  # fmt: skip
    assert response.status_code == 302
    assert GpuCard.objects.get(slug="rtx-4070-ti").architecture == ada
    settings_page = client.get("/settings/").content.decode()
    assert "GeForce RTX 4070 Ti" in settings_page


def test_the_admin_lists_and_searches_cards(client, curator, seed):
    """Curators find a card by name or maker."""
    client.force_login(curator)
    response = client.get(reverse("admin:curriculum_gpucard_changelist"), {"q": "Instinct"})
    html = response.content.decode()
    assert "Instinct MI300X" in html
    assert "GeForce RTX 4090" not in html


def seed_architecture(slug):
    from curriculum.models import Architecture

    return Architecture.objects.get(slug=slug)
