"""With REDIS_URL set and Redis gone, the site still signs in, serves pages and records clicks."""

import time

import pytest
from django.core.cache import cache

from progress.models import Watch
from tests.factories import PASSWORD, ResourceFactory, UserFactory

PAGES = ["/", "/path/", "/resources/", "/resources/?q=CUDA", "/guide/", "/coding/", "/stats/"]


def point_redis_at(settings, port):
    url = f"redis://127.0.0.1:{port}/1"
    settings.REDIS_URL = url
    settings.CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.ResilientRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


@pytest.fixture(params=["closed", "hanging"])
def redis_down(request, settings, closed_port, hanging_port):
    """Redis at a port that refuses connections, or at one that accepts and never answers."""
    point_redis_at(settings, closed_port if request.param == "closed" else hanging_port)
    return request.param


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_a_learner_signs_in_browses_and_marks_watched_while_redis_is_down(
    client, db, redis_down, caplog
):
    """Every request answers within a couple of seconds; the warning names Redis."""
    user = UserFactory(username="ada")
    resource = ResourceFactory(slug="talk", title="Talk")

    response, seconds = timed(
        lambda: client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    )
    assert response.status_code == 302, response.content
    assert seconds < 2
    for url in [*PAGES, f"/resources/{resource.slug}/"]:
        response, seconds = timed(lambda url=url: client.get(url))
        assert response.status_code == 200, url
        assert seconds < 2, url
    response, seconds = timed(
        lambda: client.post(f"/resources/{resource.slug}/watched/", {"next": "/"})
    )
    assert response.status_code == 302
    assert seconds < 2
    assert Watch.objects.get(user=user, resource=resource).is_finished


def test_the_cache_degrades_to_misses_while_redis_is_down(db, redis_down, caplog):
    """Reads miss, writes are dropped, a count starts again, and a warning is logged."""
    started = time.monotonic()
    cache.set("a", 1)
    assert cache.get("a", "missing") == "missing"
    assert cache.add("b", 1) is False
    assert cache.incr("c") == 1
    assert cache.get_many(["a", "b"]) == {}
    assert time.monotonic() - started < 2
    assert "Redis unreachable" in caplog.text


def test_readyz_answers_503_naming_redis_while_it_is_down(client, db, redis_down):
    response, seconds = timed(lambda: client.get("/readyz"))
    assert response.status_code == 503
    lines = response.content.decode().splitlines()
    assert lines[0] == "not ready"
    assert lines[1].startswith("database: ok (")
    assert lines[2].startswith("redis: down (")
    assert seconds < 2


def test_readyz_checks_redis_when_it_answers(client, db, settings, redis_cache):
    """Redis answers PING and takes a write: ready."""
    settings.REDIS_URL = settings.CACHES["default"]["LOCATION"]
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.content.decode().splitlines()[2].startswith("redis: ok (")
    cache.set("parcours-test", 1, 5)
    assert cache.get("parcours-test") == 1
