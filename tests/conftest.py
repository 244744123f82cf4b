import os

import pytest
from django.test import override_settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# One profile for every property test: the number of examples is the run's to choose (CI sets
# HYPOTHESIS_EXAMPLES in .ci/run; a quick local run takes the default). No deadline: a request on a
# loaded machine may take a second. The examples of a test share its function-scoped fixtures
# (pytest-django's database and client), which these tests are written for.
hypothesis_settings.register_profile(
    "parcours",
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "10")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
hypothesis_settings.load_profile("parcours")


SANDBOX_FILES = {"test_sandbox.py", "test_check_task.py", "test_submit.py"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Tests of the shared Redis server empty or read its database: under `make test`'s workers
    (pytest-xdist, --dist loadgroup) they all run in the same one, never two at once."""
    for item in items:
        if "redis_cache" in item.fixturenames or item.get_closest_marker("redis"):
            item.add_marker(pytest.mark.xdist_group("redis"))
        # The sandbox tests count the checks left running on the machine: no other check at once.
        if item.path.parent.name == "practice" and item.path.name in SANDBOX_FILES:
            item.add_marker(pytest.mark.xdist_group("sandbox"))
    if getattr(config.option, "loadgroup", False):
        name_the_groups(items)


def name_the_groups(items):
    """What --dist loadgroup groups by: pytest-xdist 3.8 writes `id@group` to `item._nodeid`, which
    pytest 9 no longer reads (a node's id is `item._id`), so without this every xdist_group was
    spread over the workers like any test."""
    from _pytest.nodeid import coerce_node_id

    for item in items:
        groups = {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
        if groups and "@" not in item.nodeid:
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(sorted(groups))}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """TEST_TIMELINE=path writes, per xdist worker (path.gw0, ...), a line per test: its start and
    end (seconds since the epoch) and id, to see whether a worker idles at the end of the run."""
    path = os.environ.get("TEST_TIMELINE")
    if not path:
        return (yield)
    import time

    started = time.time()
    try:
        return (yield)
    finally:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(f"{path}.{worker}", "a", encoding="utf-8") as timeline:
            timeline.write(f"{started:.3f}\t{time.time():.3f}\t{item.nodeid}\n")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, made cheaper to empty and to commit to on PostgreSQL (see below)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            name = connection.ops.quote_name(connection.settings_dict["NAME"])
            cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
        connection.close()  # the next connection, and every server's, commits without waiting


@pytest.fixture(autouse=True, scope="session")
def empty_tables_with_delete():
    """A transactional test (live server, races, commands) ends by emptying every table. Django's
    TRUNCATE rewrites 45 tables' files: ~0.4 s per test against ~0.02 s for DELETE of their few
    rows, under the same deferred foreign keys and statement triggers. Durability is not under test
    either: synchronous_commit is off for the test database (django_db_setup above)."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences:
            return truncate(self, style, tables, reset_sequences=True, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED"] + [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))}"
            for table in tables
        ]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = truncate


@pytest.fixture(autouse=True, scope="session")
def live_server_answers_without_delay():
    """The live server writes a response's headers and body in two sends; with Nagle's algorithm on,
    the second waits for the client's delayed ACK: 40 ms per request (Schemathesis's ~1,000, every
    page and fetch of the browser journeys). TCP_NODELAY, as production servers set it."""
    from django.test.testcases import QuietWSGIRequestHandler

    QuietWSGIRequestHandler.disable_nagle_algorithm = True
    yield
    del QuietWSGIRequestHandler.disable_nagle_algorithm


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


@pytest.fixture(autouse=True)
def data_written_in_french():
    """Each test starts in French, the seed's language, whatever an earlier request activated:
    a factory's `title=` fills the active language's column (curriculum/translation.py)."""
    from django.conf import settings
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE):
        yield


def curriculum_tables():
    """The models load_curriculum writes: every curriculum table but the revision token's."""
    from django.apps import apps

    from curriculum.models import Revision

    config = apps.get_app_config("curriculum")
    return [
        model for model in config.get_models(include_auto_created=True) if model is not Revision
    ]


@pytest.fixture(scope="session")
def seed_rows(django_db_setup, django_db_blocker):
    """The seed's rows, table by table: load_curriculum runs once per session (then rolled back)
    and each test that wants the seed inserts these rows, a few statements instead of a load."""
    import io

    from django.core.management import call_command
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_curriculum", stdout=io.StringIO())
        rows = [(model, stored_values(model)) for model in curriculum_tables()]
        transaction.set_rollback(True)
    return rows


def stored_values(model):
    """The model's rows, column by column; a translated text is in its `_fr` and `_en` columns
    (curriculum/translation.py), not under its own name."""
    from curriculum.loader import translated_fields

    translated = set(translated_fields(model))
    names = [field.attname for field in model._meta.concrete_fields if field.name not in translated]
    return list(model.objects.values(*names))


def insert_seed(rows):
    """Write the seed's rows, keys included, as load_curriculum left them; the sequences follow."""
    from django.core.management.color import no_style
    from django.db import connection, transaction

    # One transaction: foreign keys are checked at its end, whatever the order of the tables.
    with transaction.atomic(), connection.cursor() as cursor:
        for model, values in rows:
            model.objects.bulk_create([model(**row) for row in values])
        for sql in connection.ops.sequence_reset_sql(no_style(), [model for model, _ in rows]):
            cursor.execute(sql)


@pytest.fixture
def seed(db, seed_rows):
    """The whole seed chapter, as make run loads it (rolled back after the test)."""
    insert_seed(seed_rows)


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


# Every key the tests write to Redis starts with this (the cache's KEY_PREFIX): a database holding
# another key is someone else's, and is left alone.
TEST_KEY_PREFIX = "parcours-tests"


@pytest.fixture(scope="session")
def test_redis_url():
    """A redis-server of this test session on a free port (Debian's redis-server, when installed);
    otherwise TEST_REDIS_URL (default: database 15 of the local server), refused if it holds keys
    the tests did not write."""
    from tests.redis_servers import REDIS_SERVER, redis_server

    if REDIS_SERVER and "TEST_REDIS_URL" not in os.environ:
        with redis_server() as url:
            yield url
        return
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    import redis

    try:
        keys = redis.Redis.from_url(url, socket_connect_timeout=1).keys("*")
    except redis.exceptions.ConnectionError:
        pytest.skip(f"needs a Redis server at {url} (or redis-server installed)")
    foreign = [key for key in keys if not key.startswith(TEST_KEY_PREFIX.encode() + b":")]
    if foreign:
        pytest.fail(
            f"{url} holds {len(foreign)} keys the tests did not write (e.g. {foreign[0]!r}): "
            "the tests would empty it. Set TEST_REDIS_URL to an empty database.",
            pytrace=False,
        )
    yield url


@pytest.fixture
def redis_cache(settings, test_redis_url):
    """Redis as the cache, as with REDIS_URL in production; the tests' keys deleted around the test.

    The server is the session's own (test_redis_url), or TEST_REDIS_URL's if it holds only keys
    of the tests.
    """
    from django.core.cache import cache

    settings.CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.ResilientRedisCache",
            "LOCATION": test_redis_url,
            "KEY_PREFIX": TEST_KEY_PREFIX,
        },
        # In this process's memory, Redis or not (config/settings.py).
        "fragments": settings.CACHES["fragments"],
    }
    forget_test_keys(cache)
    yield cache
    forget_test_keys(cache)


def forget_test_keys(cache):
    """Delete the tests' keys only (not FLUSHDB): the database may be shared."""
    client = cache._cache.get_client(write=True)
    for key in client.scan_iter(match=f"{TEST_KEY_PREFIX}:*"):
        client.delete(key)


@pytest.fixture(autouse=True)
def fresh_caches():
    """Counts kept in this process's caches (reset mails, API rate) start at zero in every test,
    and the templates' fragments are written anew."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for alias in ("default", "throttle", "fragments"):
        if isinstance(caches[alias], LocMemCache):
            caches[alias].clear()
