"""A learner creates a token in the browser, logs code with the CLI, and sees the balance move."""

import re
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect

from progress import actions
from tests.factories import ResourceFactory, UserFactory

CLI = Path(__file__).resolve().parents[2] / "cli" / "parcours.py"


def parcours(*arguments, config, stdin=""):
    return subprocess.run(
        [sys.executable, str(CLI), *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        env={"XDG_CONFIG_HOME": str(config), "LANG": "C", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


def test_a_token_made_in_the_browser_lets_the_cli_move_the_dashboards_balance(
    page, sign_in, live_server, transactional_db, tmp_path
):
    user = UserFactory(username="hopper")
    kernel = ResourceFactory(slug="gpu-mode-9", title="Reductions", duration_minutes=60)
    actions.mark_watched(user=user, resource=kernel)
    sign_in(user)
    page.goto("/")
    balance = page.locator("#balance")
    expect(balance).to_contain_text("encore 3 h de code")

    page.goto("/settings/")
    page.get_by_role("link", name=re.compile("Jetons d.accès personnels pour l.API")).click()
    page.get_by_label("Nom").fill("laptop")
    page.get_by_label("lecture et écriture").check()
    page.get_by_role("button", name="Créer le jeton").click()
    expect(page.locator("#token-created")).to_contain_text(re.compile("affiché qu.une fois"))
    token = page.locator("#new-token").input_value()

    login = parcours("login", "--url", live_server.url, config=tmp_path, stdin=token + "\n")
    assert login.returncode == 0, login.stderr
    logged = parcours("log", "90", "--resource", "gpu-mode-9", "reduction kernel", config=tmp_path)
    assert logged.returncode == 0, logged.stderr

    page.goto("/")
    expect(balance).to_contain_text("encore 1 h 30 de code")
    page.goto("/settings/tokens/")
    expect(page.locator(".token-list")).to_contain_text("dernière utilisation")
    expect(page.locator("#new-token")).to_have_count(0)


def test_the_api_docs_render_offline_under_the_sites_content_security_policy(
    page, live_server, transactional_db
):
    """Swagger UI comes from the site's static files: nothing blocked, nothing fetched elsewhere."""
    blocked, foreign = [], []

    def on_console(message):
        if "Content Security Policy" in message.text:
            blocked.append(message.text)

    def on_request(request):
        if not request.url.startswith((live_server.url + "/", "data:")):
            foreign.append(request.url)

    page.on("console", on_console)
    page.on("request", on_request)
    page.goto("/api/v1/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Parcours API")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    assert blocked == []
    assert foreign == []
