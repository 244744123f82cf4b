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


def test_pages_send_a_content_security_policy_without_inline_scripts(client):
    """The CSP allows our own scripts (and nonced ones), never 'unsafe-inline'."""
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in policy
    assert "unsafe-inline" not in policy
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
