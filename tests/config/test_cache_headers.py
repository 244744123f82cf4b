"""Personal responses carry Cache-Control: private, no-store; only what is the same for all may be cached."""

import pytest
from django.urls import reverse

from api.models import AccessToken
from progress.models import CodingSession
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
        reverse("progress:catalogue"),
        reverse("progress:resource_detail", args=[resource.slug]),
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


def token_calls(resource):
    """API calls with a token, reads and a write, and the answers they get."""
    session = CodingSession.objects.get(resource=resource)
    return [
        ("get", "/api/v1/me", 200),
        ("get", "/api/v1/summary", 200),
        ("get", "/api/v1/export", 200),
        ("get", "/api/v1/resources", 200),
        ("get", f"/api/v1/resources/{resource.slug}", 200),
        ("get", "/api/v1/sessions", 200),
        ("get", f"/api/v1/sessions/{session.pk}", 200),
        ("get", "/api/v1/resources/no-such-resource", 404),
        ("post", f"/api/v1/resources/{resource.slug}/watched", 200),
    ]


def test_api_answers_to_a_token_are_private_and_not_stored(client, learner, resource):
    """No session cookie, yet each answer is the token holder's: export, reads, errors, writes."""
    _token, clear = AccessToken.objects.create_for(user=learner, name="laptop", scope="write")
    headers = {"Authorization": f"Bearer {clear}"}
    seen = {}
    for method, url, status in token_calls(resource):
        response = getattr(client, method)(url, headers=headers)
        assert response.status_code == status, (url, response.content)
        seen[url] = response["Cache-Control"]
    assert seen == dict.fromkeys(seen, PERSONAL)


def test_a_refused_token_is_not_stored_either(client, resource):
    """The 401 answers a request that carried credentials: no cache keeps it for another."""
    response = client.get("/api/v1/me", headers={"Authorization": "Bearer pt_not-a-token"})
    assert response.status_code == 401
    assert response["Cache-Control"] == PERSONAL


def test_signed_out_pages_carry_a_csrf_token_so_they_are_not_stored(client, resource):
    """Signed out, every page still holds this browser's CSRF token (language switcher, htmx)."""
    for url in ["/", reverse("progress:catalogue"), reverse("curriculum:guide"), "/path/"]:
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
