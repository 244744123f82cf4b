"""Who may call the API: tokens (scopes, revocation, expiry, rate limit) and browser sessions."""

from datetime import timedelta

import pytest
from django.utils import timezone

from api.models import AccessToken
from progress.models import CodingSession
from tests.api.conftest import bearer
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db

SESSION = {"minutes": 30, "built": "A scan", "resource": "scan"}


@pytest.fixture
def scan(db):
    return ResourceFactory(slug="scan")


def test_a_call_without_credentials_gets_a_json_401(client):
    """No token and no session: 401, in JSON, saying how to authenticate."""
    response = client.get("/api/v1/summary")
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"
    assert "Bearer" in response.json()["message"]
    assert response["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize(
    "token", ["nonsense", "pat_000000000000_wrong", "pat_short_x", "Bearer pat_"]
)
def test_a_wrong_token_gets_a_401(client, write_token, token):
    """A token that matches no stored hash is refused, whatever its shape."""
    response = client.get("/api/v1/summary", headers=bearer(token))
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


def test_a_token_with_a_known_prefix_but_a_wrong_secret_gets_a_401(client, write_token):
    """The prefix finds the row; the secret must still match its hash."""
    response = client.get("/api/v1/summary", headers=bearer(write_token[:-3] + "xyz"))
    assert response.status_code == 401


def test_the_token_is_stored_hashed(write_token):
    """Only the sha256 of the token is kept, with a short prefix for the lookup."""
    token = AccessToken.objects.get()
    assert write_token not in (token.token_hash, token.prefix)
    assert write_token.startswith(f"pat_{token.prefix}_")
    assert len(token.token_hash) == 64


def test_a_revoked_token_gets_a_401_and_writes_nothing(client, write_token, scan):
    AccessToken.objects.get().revoke()
    response = client.post(
        "/api/v1/sessions", SESSION, content_type="application/json", headers=bearer(write_token)
    )
    assert response.status_code == 401
    assert (
        "revoked" in response.json()["message"].lower() or "révoqué" in response.json()["message"]
    )
    assert not CodingSession.objects.exists()


def test_an_expired_token_gets_a_401(client, write_token):
    AccessToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client.get("/api/v1/summary", headers=bearer(write_token))
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


def test_a_token_before_its_expiry_works(client, write_token):
    AccessToken.objects.update(expires_at=timezone.now() + timedelta(days=1))
    assert client.get("/api/v1/summary", headers=bearer(write_token)).status_code == 200


def test_a_read_token_reads(client, read_token):
    assert client.get("/api/v1/sessions", headers=bearer(read_token)).status_code == 200


def test_a_read_token_cannot_write_and_gets_a_403(client, read_token, scan):
    response = client.post(
        "/api/v1/sessions", SESSION, content_type="application/json", headers=bearer(read_token)
    )
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
    assert not CodingSession.objects.exists()


def test_a_token_call_needs_no_csrf_token(write_token, scan):
    """Token calls come from scripts, not browsers: no CSRF check."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/api/v1/sessions", SESSION, content_type="application/json", headers=bearer(write_token)
    )
    assert response.status_code == 201
    assert CodingSession.objects.count() == 1


def test_a_browser_session_reads_without_a_token(learner):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    response = client.get("/api/v1/me")
    assert response.status_code == 200
    assert response.json() == {"username": "ada", "token": None}


def test_a_browser_session_write_without_csrf_gets_a_403(learner, scan):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    response = client.post("/api/v1/sessions", SESSION, content_type="application/json")
    assert response.status_code == 403
    assert response.json()["error"] == "csrf"
    assert not CodingSession.objects.exists()


def test_a_browser_session_write_with_csrf_is_saved(learner, scan):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    client.get("/settings/tokens/")
    csrf = client.cookies["csrftoken"].value
    response = client.post(
        "/api/v1/sessions", SESSION, content_type="application/json", headers={"X-CSRFToken": csrf}
    )
    assert response.status_code == 201
    assert CodingSession.objects.get().user == learner


def test_last_used_is_written_at_most_once_a_minute(client, write_token, django_assert_num_queries):
    """The first call records the use; the next within the minute costs no write."""
    client.get("/api/v1/me", headers=bearer(write_token))
    first = AccessToken.objects.get().last_used_at
    assert first is not None
    with django_assert_num_queries(1):  # the token and its learner, nothing written
        client.get("/api/v1/me", headers=bearer(write_token))
    assert AccessToken.objects.get().last_used_at == first
    AccessToken.objects.update(last_used_at=first - timedelta(minutes=2))
    client.get("/api/v1/me", headers=bearer(write_token))
    assert AccessToken.objects.get().last_used_at > first


def test_past_the_rate_limit_a_token_gets_a_429_with_retry_after(
    client, write_token, read_token, redis_cache, settings
):
    """Three calls a minute: the fourth waits, and another token keeps its own count."""
    settings.API_RATE_LIMIT = 3
    settings.API_RATE_PERIOD = 60
    for _call in range(3):
        assert client.get("/api/v1/me", headers=bearer(write_token)).status_code == 200
    response = client.get("/api/v1/me", headers=bearer(write_token))
    assert response.status_code == 429
    assert response.json()["error"] == "rate_limited"
    assert 1 <= int(response["Retry-After"]) <= 60
    assert client.get("/api/v1/me", headers=bearer(read_token)).status_code == 200
    token = AccessToken.objects.get(scope="write")
    assert any(f"api-rate:{token.pk}:" in key.decode() for key in redis_keys(redis_cache))


def redis_keys(cache):
    return cache._cache.get_client().keys("*")
