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
