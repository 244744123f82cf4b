"""The settings offer GPU cards by maker and say plainly which architecture session to watch."""

import html as markup
import re

import pytest

from curriculum.models import GpuCard
from progress.models import Profile

EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}
URL = "/settings/"


def card_pk(slug):
    return GpuCard.objects.get(slug=slug).pk


def save(client, headers=EN, **fields):
    data = {"gpu_card": "", "architecture": "", "started_on": "2025-01-06", "language": ""}
    return client.post(URL, {**data, **fields}, headers=headers, follow=True)


def advice(html):
    """The text of the GPU advice section, tags removed."""
    section = re.search(r'<section class="card gpu-advice.*?</section>', html, re.S).group(0)
    return re.sub(r"\s+", " ", markup.unescape(re.sub(r"<[^>]+>", " ", section)))


def test_the_cards_are_grouped_by_maker_with_other_or_none_first(learner_client, seed):
    """A select with an optgroup per maker, after “Other or none”."""
    html = learner_client.get(URL, headers=EN).content.decode()
    select = re.search(r'<select name="gpu_card".*?</select>', html, re.S).group(0)
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups == ["NVIDIA", "AMD", "Apple"]
    assert select.index("Other or none") < select.index("GeForce RTX 3060")
    assert '<label for="id_gpu_card">My GPU' in html


def test_picking_an_rtx_4090_says_to_watch_hoppers_session_and_why(learner, learner_client, seed):
    """Ada has no session: Hopper's, the nearest generation, with the reason."""
    response = save(learner_client, gpu_card=card_pk("rtx-4090"))
    text = advice(response.content.decode())
    assert "Your card: GeForce RTX 4090, of the NVIDIA Ada Lovelace generation." in text
    assert "no architecture session for Ada Lovelace" in text
    assert "Watch the one on Hopper, the nearest generation that has one" in text
    assert "Architecture presentation at GTC: Hopper" in text
    assert "Search the NVIDIA On-Demand archive" in text
    profile = Profile.objects.get(user=learner)
    assert (profile.gpu_card.slug, profile.architecture.slug) == ("rtx-4090", "ada")


def test_the_advice_reads_in_french(learner_client, seed):
    """The same advice in French."""
    response = save(learner_client, headers=FR, gpu_card=card_pk("rtx-4090"))
    text = advice(response.content.decode())
    assert "Votre carte : GeForce RTX 4090" in text
    assert "la génération la plus proche" in text


def test_an_h100_gets_its_own_generations_session(learner_client, seed):
    """Hopper is presented: its session, no nearest-generation caveat."""
    text = advice(save(learner_client, gpu_card=card_pk("h100")).content.decode())
    assert "Watch the session that presents Hopper" in text
    assert "nearest" not in text


def test_an_mi300x_is_told_the_cuda_sessions_do_not_apply(learner_client, seed):
    """AMD: said plainly, with the guide's AMD pointers."""
    text = advice(save(learner_client, gpu_card=card_pk("mi300x")).content.decode())
    assert "do not apply directly to AMD CDNA" in text
    assert "AMD ROCm" in text


def test_an_apple_card_is_told_the_guide_names_no_session(learner, learner_client, seed):
    """Apple's GPUs: no architecture, no session, said so."""
    text = advice(save(learner_client, gpu_card=card_pk("apple-m-series")).content.decode())
    assert "do not apply directly to this Apple card" in text
    assert "The guide names no session for this card." in text
    assert Profile.objects.get(user=learner).architecture is None


def test_a_card_with_no_architecture_recorded_lists_the_sessions(learner_client, seed):
    """A curator's card without its generation: said so, every session offered."""
    card = GpuCard.objects.create(slug="rtx-9999", name="RTX 9999", maker="NVIDIA")
    text = advice(save(learner_client, gpu_card=card.pk).content.decode())
    assert "The generation of this card is not recorded yet" in text
    assert "Architecture presentation at GTC: Rubin" in text


def test_other_or_none_keeps_the_architecture_chosen(learner, learner_client, seed):
    """Not listed: the architecture select says which GPU."""
    from curriculum.models import Architecture

    blackwell = Architecture.objects.get(slug="blackwell")
    text = advice(save(learner_client, architecture=blackwell.pk).content.decode())
    assert "Your architecture: NVIDIA Blackwell." in text
    profile = Profile.objects.get(user=learner)
    assert (profile.gpu_card, profile.architecture) == (None, blackwell)


def test_a_listed_card_brings_its_own_architecture(learner, learner_client, seed):
    """A card and a different architecture: the card wins."""
    from curriculum.models import Architecture

    other = Architecture.objects.get(slug="rubin")
    save(learner_client, gpu_card=card_pk("rtx-3080"), architecture=other.pk)
    assert Profile.objects.get(user=learner).architecture.slug == "ampere"


@pytest.mark.parametrize("tampered", ["999999", "rtx-4090", "-1"])
def test_a_tampered_card_id_is_refused_and_changes_nothing(learner, learner_client, seed, tampered):
    """An id that is no card: an error on the field, the profile as it was."""
    save(learner_client, gpu_card=card_pk("h100"))
    response = save(learner_client, gpu_card=tampered)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert Profile.objects.get(user=learner).gpu_card.slug == "h100"


def test_without_a_gpu_the_page_asks_for_one(learner_client, seed):
    """Nothing chosen yet: the advice asks for the card and lists the sessions."""
    text = advice(learner_client.get(URL, headers=EN).content.decode())
    assert "Say which card you have" in text
    assert "Architecture presentation at GTC: Blackwell" in text
