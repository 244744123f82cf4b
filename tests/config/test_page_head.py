"""Every page says what the site is (a meta description in its language) and names its icon;
/favicon.ico answers with the icon; secrets shown once are marked for the copy button."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def meta_description(response):
    return re.search(r'<meta name="description" content="([^"]+)">', response.content.decode())[1]


@pytest.mark.parametrize("path", ["/", "/resources/", "/guide/", "/accounts/login/"])
def test_pages_have_a_description_and_an_icon_in_both_languages(client, path):
    french = client.get(path, headers={"accept-language": "fr"})
    english = client.get(path, headers={"accept-language": "en"})
    assert meta_description(french).startswith("Parcours : suivez un parcours vidéo")
    assert meta_description(english).startswith("Parcours: follow a GPU programming video path")
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in french.text


def test_favicon_ico_leads_to_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/favicon.svg"
    assert client.post("/favicon.ico").status_code == 405


def test_the_share_link_and_the_api_token_are_marked_for_copying(learner_client):
    share = learner_client.post(reverse("groups:share_settings"), {"display_name": "Ada L."})
    assert re.search(r'<input id="share-link"[^>]* readonly [^>]*data-copy ', share.text)
    assert 'data-copy-label="Copier"' in share.text
    token = learner_client.post(
        "/settings/tokens/", {"name": "laptop", "scope": "write", "expires_in": "90"}
    )
    assert re.search(r'<input id="new-token"[^>]* readonly [^>]*data-copy ', token.text)
