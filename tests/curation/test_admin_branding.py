"""The admin is branded for Parcours' curators, in French and in English, never as Django's."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

BRAND = {
    "fr": ("Parcours · curation", "Programme et apprenants"),
    "en": ("Parcours · curation", "Curriculum and learners"),
}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_sign_in_page_shows_the_curation_brand_and_not_django(client, language):
    """The admin's sign-in page is headed and titled for Parcours' curators."""
    response = client.get(reverse("admin:login"), headers={"accept-language": language})
    page = response.content.decode()
    header, _ = BRAND[language]
    assert response.status_code == 200
    assert f'<div id="site-name"><a href="{reverse("admin:index")}">{header}</a></div>' in page
    assert "| Parcours curation</title>" in page
    assert "Django" not in page


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_admin_index_shows_the_curation_brand_and_not_django(client, curator, language):
    """The admin's first page is headed for curators, in the language asked for."""
    client.force_login(curator)
    response = client.get(reverse("admin:index"), headers={"accept-language": language})
    page = response.content.decode()
    header, index_title = BRAND[language]
    assert response.status_code == 200
    assert f">{header}</a></div>" in page
    assert f"<h1>{index_title}</h1>" in page
    assert f"<title>{index_title} | Parcours curation</title>" in page
    assert "Django" not in page
