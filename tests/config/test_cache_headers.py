"""Personal responses carry Cache-Control: private, no-store; only what is the same for all may be cached."""

import pytest
from django.urls import reverse

from tests.factories import CodingSessionFactory, ResourceFactory

pytestmark = pytest.mark.django_db

PERSONAL = "private, no-store"


@pytest.fixture
def resource(learner):
    resource = ResourceFactory(slug="lecture-1")
    CodingSessionFactory(user=learner, resource=resource)
    return resource


def signed_in_urls(resource):
    return [
        "/",
        "/path/",
        reverse("curriculum:resource_list"),
        reverse("curriculum:resource_detail", args=[resource.slug]),
        reverse("curriculum:guide"),
        reverse("progress:coding_log"),
        reverse("progress:stats"),
        reverse("accounts:settings"),
        reverse("progress:note", args=[resource.slug]),
        reverse("password_change"),
    ]


def test_every_signed_in_page_is_private_and_not_stored(learner_client, resource):
    """Dashboard, path, catalogue, resource, guide, coding log, stats, settings, note, password."""
    headers = {url: learner_client.get(url)["Cache-Control"] for url in signed_in_urls(resource)}
    assert headers == dict.fromkeys(signed_in_urls(resource), PERSONAL)


def test_both_exports_are_private_and_not_stored(learner_client, resource):
    """A download of everything the learner entered is never kept by a cache."""
    for name in ("accounts:export_json", "accounts:export_csv"):
        response = learner_client.get(reverse(name))
        assert response.status_code == 200
        assert response["Cache-Control"] == PERSONAL


def test_htmx_fragments_and_redirects_after_a_post_are_private_too(learner_client, resource):
    """A swapped fragment and the redirect after a form carry the learner's state as well."""
    fragment = learner_client.post(
        reverse("progress:mark_watched", args=[resource.slug]), headers={"hx-request": "true"}
    )
    redirect = learner_client.post(reverse("progress:mark_not_watched", args=[resource.slug]))
    assert (fragment.status_code, redirect.status_code) == (200, 302)
    assert fragment["Cache-Control"] == redirect["Cache-Control"] == PERSONAL


def test_signed_out_pages_carry_a_csrf_token_so_they_are_not_stored(client, resource):
    """Signed out, every page still holds this browser's CSRF token (language switcher, htmx)."""
    for url in ["/", reverse("curriculum:resource_list"), reverse("curriculum:guide"), "/path/"]:
        response = client.get(url)
        assert 'name="csrfmiddlewaretoken"' in response.content.decode()
        assert response["Cache-Control"] == PERSONAL, url


def test_the_sign_in_page_is_not_stored(client):
    """The sign-in form's token belongs to one browser (Django's own never_cache header says so)."""
    header = client.get(reverse("login"))["Cache-Control"]
    assert {"private", "no-store"} <= {part.strip() for part in header.split(",")}


def test_health_probes_keep_their_own_no_store_header(client):
    """never_cache's header already forbids storing: it is left as it is."""
    assert "no-store" in client.get("/healthz")["Cache-Control"]
    assert "private" in client.get("/healthz")["Cache-Control"]


@pytest.mark.urls("tests.config.urls_cache_headers")
def test_a_page_without_token_or_session_keeps_its_public_header(client):
    """A signed-out response that reads no cookie may be cached as its view says."""
    response = client.get("/test-public/")
    assert response["Cache-Control"] == "public, max-age=60"
    assert not response.cookies


@pytest.mark.urls("tests.config.urls_cache_headers")
def test_the_same_page_signed_in_becomes_private(learner_client):
    """Signed in, even a view that says public is not stored: the middleware has the last word."""
    assert learner_client.get("/test-public/")["Cache-Control"] == PERSONAL
