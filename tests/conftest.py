import pytest
from django.test import override_settings


@pytest.fixture(autouse=True, scope="session")
def plain_static_files_and_http():
    """Tests serve static files from the apps (no collectstatic) over plain HTTP, hash fast."""
    with override_settings(
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
        SECURE_SSL_REDIRECT=False,
        # Hashing is not under test: a fast hasher keeps the suite quick.
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    ):
        yield


@pytest.fixture
def learner(db):
    """A signed-up learner (password: tests.factories.PASSWORD)."""
    from tests.factories import UserFactory

    return UserFactory(username="ada")


@pytest.fixture
def other_learner(db):
    """Another learner, whose data the first must never see or change."""
    from tests.factories import UserFactory

    return UserFactory(username="grace")


@pytest.fixture
def curator(db):
    """A staff user who keeps the curriculum in admin."""
    from tests.factories import UserFactory

    return UserFactory(username="curator", is_staff=True, is_superuser=True)


@pytest.fixture
def learner_client(client, learner):
    """A test client signed in as the learner."""
    client.force_login(learner)
    return client


@pytest.fixture
def shared_cache(settings):
    """Redis as the cache and the sessions' first stop, as in production; emptied around the test.

    TEST_REDIS_URL names the server (default: a spare database of the local one).
    """
    import os
    import socket
    from urllib.parse import urlsplit

    from django.core.cache import cache

    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    address = urlsplit(url)
    try:
        socket.create_connection((address.hostname, address.port or 6379), timeout=1).close()
    except OSError:
        pytest.skip(f"needs a Redis server at {url}")
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    cache.clear()
    yield cache
    cache.clear()


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    """Password-reset counts (a cache in this process during tests) start at zero in every test."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["throttle"], LocMemCache):
        caches["throttle"].clear()
