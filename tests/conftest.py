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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Tests of the shared Redis server empty or read its database: under `make test`'s workers
    (pytest-xdist, --dist loadgroup) they all run in the same one, never two at once."""
    for item in items:
        if "redis_cache" in item.fixturenames or item.get_closest_marker("redis"):
            item.add_marker(pytest.mark.xdist_group("redis"))
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
