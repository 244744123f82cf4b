import pytest

from tests.config.helpers import run_django

READYZ_STATUS = (
    "import django; django.setup(); from django.test import Client; "
    "r = Client().get('/readyz'); print(r.status_code, r.content.decode())"
)


@pytest.mark.django_db
def test_healthz_answers_ok_without_touching_the_database(client, django_assert_num_queries):
    """Liveness is a plain 200 "ok" that runs no query and sets no cookie."""
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert not response.cookies


@pytest.mark.django_db
def test_readyz_answers_ok_when_the_database_answers(client, django_assert_num_queries):
    """Readiness runs exactly one query against the configured database."""
    with django_assert_num_queries(1):
        response = client.get("/readyz")
    assert response.status_code == 200
    assert response.content.decode().splitlines()[0] == "ok"
    assert response.content.decode().splitlines()[1].startswith("database: ok (")
    assert not response.cookies


def test_readyz_names_a_slow_database_and_answers_503(client, db, monkeypatch):
    """A dependency slower than the threshold makes the server not ready, and says which."""
    monkeypatch.setattr("config.health.SLOW_MS", -1)
    response = client.get("/readyz")
    assert response.status_code == 503
    lines = response.content.decode().splitlines()
    assert lines[0] == "not ready"
    assert lines[1].startswith("database: slow (")


def test_readyz_answers_ok_on_sqlite():
    """The embedded default, SQLite, is ready too."""
    result = run_django(
        READYZ_STATUS, DEBUG="1", ALLOWED_HOSTS="testserver", DATABASE_URL="sqlite:///:memory:"
    )
    assert result.stdout.split()[:3] == ["200", "ok", "database:"], result.stderr
    assert "redis" not in result.stdout


def test_readyz_answers_503_when_the_database_is_unreachable():
    """Nothing listens on port 9: readiness fails with 503 naming the database, not a 500 page."""
    result = run_django(
        READYZ_STATUS,
        DEBUG="1",
        ALLOWED_HOSTS="testserver",
        DATABASE_URL="postgres://postgres@127.0.0.1:9/nowhere",
    )
    assert result.stdout.split()[:5] == ["503", "not", "ready", "database:", "down"], result.stderr


def test_a_postgresql_server_that_never_answers_fails_readiness_within_seconds(hanging_port):
    """The connect timeout (2 s here, tried with and without TLS) ends the wait well under
    gunicorn's 30 s, even on a loaded machine."""
    result = run_django(
        "import time; started = time.monotonic(); "
        + READYZ_STATUS
        + "; print(time.monotonic() - started)",
        DEBUG="1",
        ALLOWED_HOSTS="testserver",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{hanging_port}/nowhere",
        DATABASE_CONNECT_TIMEOUT="2",
    )
    words = result.stdout.split()
    assert words[:5] == ["503", "not", "ready", "database:", "down"], result.stderr
    assert float(words[-1]) < 15


def test_probes_are_exempt_from_the_https_redirect(client, settings):
    """A load balancer probing over plain HTTP gets an answer, not a redirect."""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/some-page/").status_code == 301
