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
    assert response.content == b"ok"
    assert not response.cookies


def test_readyz_answers_ok_on_sqlite():
    """The embedded default, SQLite, is ready too."""
    result = run_django(
        READYZ_STATUS, DEBUG="1", ALLOWED_HOSTS="testserver", DATABASE_URL="sqlite:///:memory:"
    )
    assert result.stdout.strip() == "200 ok", result.stderr


def test_readyz_answers_503_when_the_database_is_unreachable():
    """Nothing listens on port 9: readiness fails with 503 instead of a 500 page."""
    result = run_django(
        READYZ_STATUS,
        DEBUG="1",
        ALLOWED_HOSTS="testserver",
        DATABASE_URL="postgres://postgres@127.0.0.1:9/nowhere?connect_timeout=2",
    )
    assert result.stdout.strip() == "503 database unavailable", result.stderr


def test_probes_are_exempt_from_the_https_redirect(client, settings):
    """A load balancer probing over plain HTTP gets an answer, not a redirect."""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/some-page/").status_code == 301


def test_probes_refuse_post(client):
    """The probes only answer GET."""
    assert client.post("/healthz").status_code == 405
