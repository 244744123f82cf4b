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
def closed_port():
    """A local port nothing listens on: connecting is refused at once."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def hanging_port():
    """A local port that accepts connections (the kernel's backlog) and never answers."""
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(64)
        yield server.getsockname()[1]


@pytest.fixture
def redis_cache(settings):
    """Redis as the cache, as with REDIS_URL in production; emptied around the test.

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
        "default": {"BACKEND": "config.redis_cache.ResilientRedisCache", "LOCATION": url}
    }
    cache.clear()
    yield cache
    cache.clear()


@pytest.fixture(autouse=True)
def fresh_caches():
    """Counts kept in this process's caches (reset mails, API rate) start at zero in every test."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for alias in ("default", "throttle"):
        if isinstance(caches[alias], LocMemCache):
            caches[alias].clear()
