"""With a Redis that answers every write with an error (full under `noeviction`, or a read-only
replica after a failover), the site degrades as with Redis away, and /readyz says so."""

import pytest
import redis
from django.urls import reverse

from api.models import AccessToken
from editor.models import EditorKey
from tests.factories import ResourceFactory
from tests.redis_servers import REDIS_SERVER, free_port, redis_server

pytestmark = pytest.mark.skipif(not REDIS_SERVER, reason="needs Debian's redis-server")


@pytest.fixture(scope="module")
def full_redis():
    """A Redis holding 2 MB under a 1 MB cap with `noeviction`: "OOM command not allowed"."""
    with redis_server("--maxmemory-policy", "noeviction") as url:
        client = redis.Redis.from_url(url)
        for number in range(20):
            client.set(f"filler:{number}", b"x" * 100_000)
        client.config_set("maxmemory", "1mb")
        with pytest.raises(redis.exceptions.OutOfMemoryError):
            client.set("probe", 1)
        yield url


@pytest.fixture(scope="module")
def read_only_redis():
    """A replica of a primary that is not there: every write answers "READONLY"."""
    options = ["--replicaof", "127.0.0.1", str(free_port()), "--replica-read-only", "yes"]
    with redis_server(*options) as url:
        with pytest.raises(redis.exceptions.ReadOnlyError):
            redis.Redis.from_url(url).set("probe", 1)
        yield url


@pytest.fixture(params=["full", "read-only"])
def refusing_redis(request, settings):
    """The site's caches, the default and the throttle one, on a Redis that refuses writes."""
    url = request.getfixturevalue("full_redis" if request.param == "full" else "read_only_redis")
    settings.REDIS_URL = url
    cache = {
        "BACKEND": "config.redis_cache.ResilientRedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    settings.CACHES = {"default": cache, "throttle": {**cache}}
    return request.param


def test_readyz_answers_503_naming_redis_when_it_refuses_writes(client, db, refusing_redis):
    response = client.get("/readyz")
    assert response.status_code == 503
    lines = response.content.decode().splitlines()
    assert lines[0] == "not ready"
    assert lines[1].startswith("database: ok (")
    assert lines[2].startswith("redis: down (")


def test_the_api_answers_while_redis_refuses_writes(client, learner, refusing_redis, caplog):
    """The rate limit lets the call through, as with Redis away, and a warning names Redis."""
    _token, clear = AccessToken.objects.create_for(user=learner, name="cli", scope="write")
    response = client.get("/api/v1/me", headers={"Authorization": f"Bearer {clear}"})
    assert response.status_code == 200
    assert response.json()["username"] == learner.username
    assert "Redis unreachable or refusing" in caplog.text


def test_the_editor_status_bar_answers_while_redis_refuses_writes(client, learner, refusing_redis):
    from tests.editor.conftest import STATUS_BAR, basic

    key = EditorKey.objects.issue(user=learner)
    response = client.get(STATUS_BAR, headers=basic(key))
    assert response.status_code == 200
    assert "data" in response.json()


def test_a_player_beat_lands_while_redis_refuses_writes(learner_client, learner, refusing_redis):
    from progress.models import Viewing

    resource = ResourceFactory(
        slug="lecture", duration_minutes=60, watch_url="https://youtu.be/09wntC6BT5o"
    )
    beat = {"viewing": "0b6c6a0e-3f0e-4a57-9a3b-1c1f6d1e2a3b", "duration": 3600, "ranges": []}
    response = learner_client.post(
        "/resources/lecture/viewing/", beat, content_type="application/json"
    )
    assert response.status_code == 200
    assert Viewing.objects.filter(user=learner, resource=resource).exists()


def test_a_password_reset_is_sent_while_redis_refuses_writes(
    client, learner, refusing_redis, mailoutbox
):
    response = client.post(reverse("password_reset"), {"email": learner.email})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert len(mailoutbox) == 1
