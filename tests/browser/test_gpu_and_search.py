"""Browser journeys: a learner names their card and learns which GTC session to watch; a lecture
with no known video offers a search of its channel, labelled as a search."""

import re
from io import StringIO

from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import expect

from tests.factories import UserFactory


def load_curriculum():
    call_command("load_curriculum", stdout=StringIO())


def test_a_learner_picks_an_rtx_4090_and_sees_which_gtc_session_to_watch(
    page, sign_in, transactional_db
):
    """In French: the card from its maker's group, saved, then the nearest generation's session."""
    load_curriculum()
    sign_in(UserFactory(username="ada"))
    page.goto("/settings/")
    select = page.get_by_label(re.compile(r"^Mon GPU"))
    expect(page.locator("#id_gpu_card optgroup[label='NVIDIA']")).to_have_count(1)
    select.select_option(label="GeForce RTX 4090")
    page.get_by_role("button", name="Enregistrer mes réglages").click()
    advice = page.locator("#gpu-advice")
    expect(advice).to_contain_text("Votre carte : GeForce RTX 4090")
    expect(advice).to_contain_text("Regardez celle sur Hopper, la génération la plus proche")
    search = advice.get_by_role("link", name="Chercher dans l’archive NVIDIA On-Demand")
    expect(search).to_have_attribute(
        "href", re.compile(r"on-demand/search/.*q=Hopper\+architecture")
    )
    advice.get_by_role("link", name="Présentation d'architecture à la GTC : Hopper").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hopper")


def test_a_lecture_without_a_known_video_shows_a_search_labelled_as_such(
    page, live_server, transactional_db
):
    """In English: the catalogue card of GPU MODE #57 searches the channel, and says so."""
    load_curriculum()
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    page.goto("/resources/?q=CuTE")
    card = page.locator("#resource-gpu-mode-57")
    link = card.get_by_role("link", name=re.compile("^Search the GPU MODE channel"))
    expect(link).to_have_attribute("href", "https://www.youtube.com/@GPUMODE/search?query=CuTE")
    expect(card).to_contain_text("this is a search, not the video")
    expect(card.get_by_role("link", name=re.compile("^Watch"))).to_have_count(0)
