import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_speaks_french_by_default(client):
    """French is the guide's language and the default interface language."""
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Aller au contenu" in html


def test_home_follows_the_browser_language(client):
    """An English browser gets the English interface."""
    response = client.get("/", headers={"accept-language": "en"})
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "Skip to content" in html


def test_the_language_switcher_changes_lang_and_navigation(client):
    """Posting to set_language switches <html lang> and the navigation's words, both ways."""
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"}, follow=True)
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert ">Sign in<" in html

    response = client.post(reverse("set_language"), {"language": "fr", "next": "/"}, follow=True)
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert ">Se connecter<" in html


def test_pages_load_htmx_from_our_static_files_and_send_csrf_with_htmx(client):
    """htmx comes from /static/, never a CDN, and every htmx request carries the CSRF token."""
    html = client.get("/").content.decode()
    assert 'src="/static/django_htmx/htmx-2.min.js"' in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert "https://" not in html.split("<body")[0]


MAIN_PAGES = [
    "/",
    "/resources/",
    "/resources/how-gpu-computing-works/",
    "/guide/",
    "/path/",
    "/coding/",
    "/settings/",
    "/stats/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password_reset/",
    "/admin/login/",
]
SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.IGNORECASE)


@pytest.fixture
def visitor(request, client):
    """The page's visitor: signed out, or signed in as a learner."""
    from tests.factories import ResourceFactory, UserFactory

    ResourceFactory(slug="how-gpu-computing-works")
    if request.param == "learner":
        client.force_login(UserFactory(username="ada"))
    return client


@pytest.mark.parametrize("visitor", ["anonymous", "learner"], indirect=True)
@pytest.mark.parametrize("url", MAIN_PAGES)
def test_every_main_page_sends_the_security_headers(visitor, url):
    """A CSP without 'unsafe-inline' scripts or styles, nosniff, same-origin referrer, no framing."""
    response = visitor.get(url, follow=True)
    assert response.status_code == 200
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in response.headers["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self'"
    assert "unsafe" not in policy["script-src"] + policy["style-src"]
    assert policy["frame-ancestors"] == "'none'"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("visitor", ["anonymous", "learner"], indirect=True)
@pytest.mark.parametrize("url", MAIN_PAGES)
def test_no_main_page_needs_inline_script_or_style(visitor, url):
    """Every script tag loads a file from the site; no style attribute the CSP would block."""
    html = visitor.get(url, follow=True).content.decode()
    for tag in SCRIPT_TAG.findall(html):
        assert ' src="/static/' in tag, tag
    assert " style=" not in html
    assert " onclick=" not in html.lower()
