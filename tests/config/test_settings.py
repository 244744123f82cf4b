import pytest

from tests.config.helpers import run_django

SETUP = "import django; django.setup(); print('started')"


def test_production_without_secret_key_refuses_to_start_with_one_clear_line():
    """DEBUG off and no SECRET_KEY: the process exits naming the variable, no traceback."""
    result = run_django(SETUP)
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_malformed_database_url_names_the_variable():
    """A DATABASE_URL that cannot be parsed stops the process with one readable line."""
    result = run_django(SETUP, SECRET_KEY="x" * 50, DATABASE_URL="notaurl")
    assert result.returncode != 0
    assert "DATABASE_URL is malformed" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_boolean_names_the_variable():
    """DEBUG=maybe is refused rather than silently read as off."""
    result = run_django(SETUP, DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


def test_a_bad_whole_number_names_the_variable():
    """DIGEST_HOUR=eight is refused with one line, as docs/operations.md says, not read as 8."""
    result = run_django(SETUP, DEBUG="1", DIGEST_HOUR="eight")
    assert result.returncode != 0
    assert "DIGEST_HOUR must be a whole number (got 'eight')" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_debug_runs_without_secret_key_on_sqlite_by_default():
    """On a development machine nothing needs setting: SQLite in the project folder."""
    result = run_django(
        SETUP + "; from django.conf import settings; print(settings.DATABASES['default']['NAME'])",
        DEBUG="1",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "started",
        str(__import__("pathlib").Path(__file__).resolve().parents[2] / "db.sqlite3"),
    ]


def test_postgres_url_gets_persistent_connections_with_health_checks():
    """PostgreSQL connections are kept and checked before reuse."""
    result = run_django(
        SETUP + "; from django.conf import settings; d = settings.DATABASES['default'];"
        " print(d['ENGINE'], d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])",
        SECRET_KEY="x" * 50,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/parcours",
    )
    assert result.stdout.split() == ["started", "django.db.backends.postgresql", "600", "True"]


def test_production_settings_pass_the_deploy_check():
    """`check --deploy` finds nothing to warn about with production-like values."""
    result = run_django(
        "import sys; from django.core.management import execute_from_command_line;"
        " execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])",
        SECRET_KEY="a-long-random-production-secret-key-" + "k3J9x" * 10,
        ALLOWED_HOSTS="parcours.example",
        EMAIL_HOST="smtp.parcours.example",
        SITE_URL="https://parcours.example",
        DATABASE_URL="sqlite:///:memory:",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


HSTS_HEADER = (
    "import django; django.setup(); from django.test import Client;"
    " r = Client().get('/healthz', secure=True); print(r.headers.get('Strict-Transport-Security'))"
)


def test_https_on_sends_hsts_for_a_year_with_subdomains_and_preload():
    """In production (HTTPS on by default), browsers are told to use HTTPS only."""
    result = run_django(
        HSTS_HEADER,
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="testserver",
        DATABASE_URL="sqlite:///:memory:",
    )
    assert result.stdout.strip() == "max-age=31536000; includeSubDomains; preload", result.stderr


def test_https_off_sends_no_hsts():
    """A plain-HTTP rig (HTTPS=0) must not pin browsers to HTTPS."""
    result = run_django(
        HSTS_HEADER,
        SECRET_KEY="x" * 50,
        HTTPS="0",
        ALLOWED_HOSTS="testserver",
        DATABASE_URL="sqlite:///:memory:",
    )
    assert result.stdout.strip() == "None", result.stderr


def test_the_client_address_behind_a_proxy_is_configured_from_the_environment():
    """The lockout's address source and proxy count come from the environment."""
    result = run_django(
        SETUP + "; from django.conf import settings as s;"
        " print(s.AXES_IPWARE_META_PRECEDENCE_ORDER, s.AXES_IPWARE_PROXY_COUNT)",
        SECRET_KEY="x" * 50,
        AXES_IPWARE_META_PRECEDENCE_ORDER="HTTP_X_REAL_IP,REMOTE_ADDR",
        AXES_IPWARE_PROXY_COUNT="1",
    )
    assert result.stdout.splitlines() == ["started", "['HTTP_X_REAL_IP', 'REMOTE_ADDR'] 1"]


@pytest.mark.parametrize(
    ("redis_url", "cache", "sessions"),
    [
        # Sessions stay in the database, so that they outlive Redis being unreachable.
        ("redis://127.0.0.1:6379/0", "config.redis_cache.ResilientRedisCache", "db"),
        # No page is cached whole: each process may keep its own small cache.
        ("", "django.core.cache.backends.locmem.LocMemCache", "db"),
    ],
)
def test_redis_url_alone_turns_the_shared_cache_on(redis_url, cache, sessions):
    """Lockouts live in the database either way (axes' database handler, with the address rule)."""
    result = run_django(
        SETUP + "; from django.conf import settings as s; from axes.conf import settings as a;"
        " print(s.CACHES['default']['BACKEND'], s.SESSION_ENGINE, a.AXES_HANDLER)",
        SECRET_KEY="x" * 50,
        REDIS_URL=redis_url,
    )
    assert result.stdout.split()[1:] == [
        cache,
        f"django.contrib.sessions.backends.{sessions}",
        "accounts.throttling.SignInHandler",
    ]


# One writer holds the file for a moment; the other read first in its transaction, then writes.
TWO_WRITERS = """
import threading, time
import django
django.setup()
from django.db import connection, transaction
from django.contrib.sessions.models import Session
from django.core.management import call_command
call_command("migrate", "sessions", verbosity=0)
outcome = []

def first():
    with transaction.atomic():
        Session.objects.create(session_key="first", session_data="", expire_date="2030-01-01")
        time.sleep(0.5)
    connection.close()

def second():
    time.sleep(0.1)
    try:
        with transaction.atomic():
            Session.objects.count()
            Session.objects.create(session_key="second", session_data="", expire_date="2030-01-01")
        outcome.append("written")
    except Exception as error:
        outcome.append(f"refused: {error}")
    connection.close()

threads = [threading.Thread(target=first), threading.Thread(target=second)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(outcome[0], Session.objects.count())
"""


def test_two_writers_on_the_sqlite_file_wait_their_turn(tmp_path):
    """`make run` serves from threads beside the task worker: a transaction that read before
    writing, while another writer holds the file, waits for it instead of failing with
    "database is locked" (40 of 100 sittings failed so, sent among dashboard reads 8 at a time)."""
    result = run_django(TWO_WRITERS, DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["written", "2"]
