"""The site's own 404, 403, 500 and 429 pages, in both languages, leaking nothing (DEBUG off)."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.config.urls_error_pages")]

EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}
LEAKS = ["Traceback", "secret-", "/srv/parcours", "settings.py", "RuntimeError", "Django"]


def assert_leaks_nothing(html):
    for leak in LEAKS:
        assert leak not in html


def test_the_suite_runs_with_debug_off():
    """The pages under test are the ones production shows."""
    assert settings.DEBUG is False


@pytest.mark.parametrize(
    ("headers", "title", "lang"),
    [(EN, "Page not found", "en"), (FR, "Page introuvable", "fr")],
)
def test_an_unknown_address_gets_the_sites_404_page(client, headers, title, lang):
    """A full page of the site in the visitor's language; the address is only the switcher's return."""
    address = "/no-such-page/%3Cscript%3Ealert(1)%3C/script%3E/"
    response = client.get(address, headers=headers)
    html = response.content.decode()
    assert response.status_code == 404
    assert f'<html lang="{lang}">' in html and f"<h1>{title}</h1>" in html
    assert html.count("no-such-page") == 1
    assert f'name="next" type="hidden" value="{address}"' in html
    assert "<script>alert" not in html
    assert_leaks_nothing(html)


def test_an_unknown_resource_gets_the_same_404_page(client):
    """A 404 raised by a view looks the same as an unknown address."""
    response = client.get(reverse("progress:resource_detail", args=["nope-nope"]), headers=EN)
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.content.decode()
    assert response.content.decode().count("nope-nope") == 1  # the language switcher's return


@pytest.mark.parametrize(("headers", "title"), [(EN, "Access refused"), (FR, "Accès refusé")])
def test_a_refused_page_gets_the_sites_403_page(learner_client, headers, title):
    """A learner opening the curators' page gets a 403 page of the site, without the reason."""
    response = learner_client.get(reverse("curation:curator_progress"), headers=headers)
    assert response.status_code == 403
    assert f"<h1>{title}</h1>" in response.content.decode()
    response = learner_client.get("/test-refuse/", headers=headers)
    assert response.status_code == 403
    assert_leaks_nothing(response.content.decode())


@pytest.mark.parametrize(
    ("headers", "title"), [(EN, "The form has expired"), (FR, "Le formulaire a expiré")]
)
def test_a_post_without_its_csrf_token_gets_the_sites_403_page(learner, headers, title):
    """A form sent without the browser's token is refused with a page that says what to do."""
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("login"), {"username": "ada", "password": PASSWORD}, headers=headers
    )
    html = response.content.decode()
    assert response.status_code == 403
    assert f"<h1>{title}</h1>" in html
    assert "CSRF cookie not set" not in html and "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    ("headers", "title", "lang"),
    [(EN, "Something went wrong", "en"), (FR, "Une erreur est survenue", "fr")],
)
def test_a_view_that_raises_gets_the_sites_500_page(client, headers, title, lang):
    """The exception's text, the code's paths and any traceback stay in the logs."""
    client.raise_request_exception = False
    response = client.get("/test-crash/", headers=headers)
    html = response.content.decode()
    assert response.status_code == 500
    assert f'<html lang="{lang}">' in html and f"<h1>{title}</h1>" in html
    assert 'href="/"' in html
    assert_leaks_nothing(html)


@pytest.mark.parametrize(
    ("headers", "title"),
    [(EN, "Too many failed sign-in attempts"), (FR, "Trop de tentatives de connexion échouées")],
)
def test_a_lockout_answers_429_with_the_sites_page(client, learner, headers, title):
    """The lockout page is the site's 429 page, saying why, in the visitor's language."""
    for _ in range(5):
        response = client.post(
            reverse("login"), {"username": "ada", "password": "wrong"}, headers=headers
        )
    assert response.status_code == 429
    assert f"<h1>{title}</h1>" in response.content.decode()
    assert_leaks_nothing(response.content.decode())
