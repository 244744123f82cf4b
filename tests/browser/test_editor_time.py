"""A learner makes an editor key in the browser, their editor sends heartbeats, and the time shows
on the dashboard and the coding log, where they tie the project to what it practises."""

import base64
import json
import re
import time
import urllib.request

from playwright.sync_api import expect

from progress import actions
from tests.browser.conftest import new_page, serious_accessibility_violations
from tests.factories import ResourceFactory, UserFactory


def send_heartbeats(cfg, minutes):
    """POST a bulk as wakatime-cli does, to the api_url and with the key of the cfg block."""
    url = re.search(r"api_url = (\S+)", cfg).group(1) + "/users/current/heartbeats.bulk"
    key = re.search(r"api_key = (\S+)", cfg).group(1)
    start = time.time() - 2 * 3600
    beats = [
        {"entity": "/home/hopper/kernels/reduce.cu", "type": "file", "category": "coding",
         "time": start + 60 * minute, "project": "kernels", "language": "CUDA", "is_write": True,
         "user_agent": "wakatime/v1.102.1 vscode-wakatime/24.6.2"}
        for minute in range(0, minutes + 1, 2)
    ]  # fmt: skip
    # In bulks of 25 at most, as the client sends its queue (a larger bulk is refused).
    for first in range(0, len(beats), 25):
        request = urllib.request.Request(
            url,
            data=json.dumps(beats[first : first + 25]).encode(),
            headers={
                "Authorization": "Basic " + base64.b64encode(key.encode()).decode(),
                "Content-Type": "application/json",
            },
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status in (201, 202)


def test_editor_time_reaches_the_balance_and_ties_to_a_resource(
    page, sign_in, live_server, transactional_db
):
    user = UserFactory(username="hopper")
    kernel = ResourceFactory(slug="gpu-mode-9", title="Reductions", duration_minutes=60)
    actions.mark_watched(user=user, resource=kernel)
    sign_in(user)

    page.goto("/settings/")
    page.get_by_role("link", name=re.compile("Temps de code depuis votre éditeur")).click()
    page.get_by_role("button", name=re.compile("Créer une clé d.éditeur")).click()
    expect(page.locator("#editor-key-created")).to_contain_text(re.compile("affichée? qu.une fois"))
    cfg = page.locator("#wakatime-cfg").inner_text()
    assert cfg.startswith(f"[settings]\napi_url = {live_server.url}/editor/v1\napi_key = ")
    assert serious_accessibility_violations(page) == []

    send_heartbeats(cfg, minutes=90)
    page.goto("/")
    expect(page.locator("#balance")).to_contain_text("encore 1 h 30 de code")

    page.goto("/coding/")
    expect(page.locator("#editor-projects-title")).to_be_visible()
    page.get_by_role("link", name=re.compile("Modifier kernels")).click()
    page.get_by_label("Ressource").select_option(label="Reductions")
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.locator(".editor-projects")).to_contain_text("compte pour")
    expect(page.locator(".coding-sessions-table")).to_contain_text("Reductions")


def test_the_editor_page_fits_a_phone(browser, request, live_server, transactional_db):
    from tests.factories import PASSWORD

    user = UserFactory(username="hopper")
    page = new_page(
        browser, request, base_url=live_server.url, viewport={"width": 390, "height": 740}
    )
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Nom d.utilisateur")).fill(user.username)
    page.get_by_label(re.compile("Mot de passe")).fill(PASSWORD)
    page.get_by_role("button", name=re.compile("Se connecter")).last.click()
    page.goto("/settings/editor/")
    page.get_by_role("button", name=re.compile("Créer une clé d.éditeur")).click()
    expect(page.locator("#wakatime-cfg")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
