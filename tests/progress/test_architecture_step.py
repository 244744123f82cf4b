"""The path's architecture step follows the learner's card: its own session, the nearest
generation's with why, or plainly none for a card that does not run CUDA."""

import re

from curriculum.models import GpuCard, Step
from progress.models import Profile

EN = {"accept-language": "en"}


def pick(learner, slug):
    card = GpuCard.objects.get(slug=slug)
    Profile.objects.filter(user=learner).update(gpu_card=card, architecture=card.architecture)


def architecture_step(html):
    """The path's step that shows the learner's architecture session, as HTML."""
    step = Step.objects.get(kind=Step.Kind.ARCHITECTURE_TALK)
    return re.search(rf'<li class="step [^"]*" id="step-{step.pk}".*?</li>', html, re.S).group(0)


def text_of(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def path_page(client):
    return client.get("/path/", headers=EN).content.decode()


def test_an_rtx_4090_leads_to_hoppers_session_with_the_reason(learner, learner_client, seed):
    """Ada Lovelace has no session in the guide: the step shows Hopper's and says why."""
    Profile.objects.for_learner(learner)
    pick(learner, "rtx-4090")
    text = text_of(architecture_step(path_page(learner_client)))
    assert "Hopper" in text
    assert "The guide lists no session for Ada Lovelace" in text
    assert "the nearest generation that has one" in text
    assert "Tell Parcours which GPU you have" not in text


def test_an_h100_leads_to_its_own_session_without_a_caveat(learner, learner_client, seed):
    Profile.objects.for_learner(learner)
    pick(learner, "h100")
    text = text_of(architecture_step(path_page(learner_client)))
    assert "Hopper" in text
    assert "The guide lists no session for" not in text


def test_a_card_that_does_not_run_cuda_is_told_so_plainly(learner, learner_client, seed):
    """An Apple card: no session to resolve, and no prompt to pick a GPU it already picked."""
    Profile.objects.for_learner(learner)
    apple = GpuCard.objects.filter(maker="Apple").first()
    pick(learner, apple.slug)
    text = text_of(architecture_step(path_page(learner_client)))
    assert "they do not apply directly to yours" in text
    assert "Tell Parcours which GPU you have" not in text


def test_without_a_gpu_the_step_asks_for_one(learner, learner_client, seed):
    text = text_of(architecture_step(path_page(learner_client)))
    assert "Tell Parcours which GPU you have" in text


def test_the_session_with_no_known_video_links_to_a_search_labelled_as_such(
    learner, learner_client, seed
):
    """The GTC sessions have no checked video address: the step leads to the session's page, which
    offers a search of NVIDIA's archive, said to be a search, never a link that pretends to be the
    video."""
    Profile.objects.for_learner(learner)
    pick(learner, "h100")
    step = architecture_step(path_page(learner_client))
    page = re.search(r'<h4 class="step__title"><a href="([^"]+)"', step).group(1)
    step = learner_client.get(page, headers=EN).content.decode()
    [search] = re.findall(r'<p class="search-link">(.*?)</p>', step, re.S)
    assert re.search(r'href="https://www\.nvidia\.com/en-us/on-demand/search/\?[^"]*Hopper', search)
    assert "Search the NVIDIA On-Demand archive" in search
    assert "it is not the video" in search
