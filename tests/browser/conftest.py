"""Browser journeys: Playwright drives Debian's Chromium against pytest-django's live server.

Playwright's sync API runs an event loop in this thread, which Django takes for an async
context; the live server's database work is synchronous all the same, so allow it here only.
"""

import os
import re
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).parent / "artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if Path(item.fspath).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install it (apt-get install chromium), point the "
            "CHROMIUM variable at one, or leave the browser journeys out with "
            "PYTEST_ARGS=\"-m 'not browser'\""
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    page = getattr(item, "_browser_page", None)
    if report.when == "call" and report.failed and page is not None:
        folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", item.nodeid)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / "page.png", full_page=True)
        (folder / "page.html").write_text(page.content(), encoding="utf-8")
        report.sections.append(("browser artifacts", f"screenshot and HTML in {folder}"))
    return report


def new_page(browser, request, **context_options):
    context = browser.new_context(locale="fr-FR", **context_options)
    context.set_default_timeout(5_000)
    page = context.new_page()
    request.node._browser_page = page
    request.addfinalizer(context.close)
    return page


@pytest.fixture
def page(browser, live_server, request):
    """A fresh French-speaking browser tab on the live server."""
    return new_page(browser, request, base_url=live_server.url)


@pytest.fixture
def page_without_javascript(browser, live_server, request):
    """A browser tab with JavaScript turned off: every form must still work."""
    return new_page(browser, request, base_url=live_server.url, java_script_enabled=False)


@pytest.fixture
def sign_in_with_the_form(page):
    """Sign a user in through the real sign-in form (the journeys of tests/browser/test_accounts.py)."""
    from tests.factories import PASSWORD

    def sign_in_as(user, password=PASSWORD):
        page.goto("/accounts/login/")
        page.get_by_label(re.compile("Nom d.utilisateur|Username")).fill(user.username)
        page.get_by_label(re.compile("Mot de passe|Password")).fill(password)
        page.get_by_role("button", name=re.compile("Se connecter|Sign in")).last.click()

    return sign_in_as


@pytest.fixture
def sign_in(page, live_server):
    """Sign a user in and open the dashboard, where the form leads: the browser is given a signed-in
    session's cookie (the form's two requests, in every journey, were the form's test many times)."""

    def sign_in_as(user):
        page.context.add_cookies(session_cookie(live_server, user))
        page.goto("/")

    return sign_in_as


AXE = Path(__file__).parent / "vendor" / "axe.min.js"


def serious_accessibility_violations(page):
    """Run axe-core on the page and keep the violations of impact serious or critical."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    violations = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]]}
        for v in violations
        if v["impact"] in {"serious", "critical"}
    ]


def language_cookie(live_server, language):
    """The cookie that makes the live server answer in this language."""
    from django.conf import settings

    return [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]


def session_cookie(live_server, user):
    """A signed-in session for user, as a cookie for the browser's context."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [{"name": settings.SESSION_COOKIE_NAME, "value": value, "url": live_server.url}]
