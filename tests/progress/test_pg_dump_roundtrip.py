"""pg_dump → a new database → pg_restore gives identical rows and a working site (PostgreSQL only)."""

import shutil
import subprocess
import uuid

import pytest
from django.db import connection

from tests.config.helpers import run_django
from tests.factories import (
    CodingSessionFactory,
    NoteFactory,
    ProfileFactory,
    UserFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql" or not shutil.which("pg_dump"):
        pytest.skip("needs PostgreSQL and its client tools (pg_dump, pg_restore)")
    settings = connection.settings_dict
    base = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT'] or 5432}"
    return base, settings["NAME"]


def all_rows(url):
    """Every row of every table of the public schema, sorted, as text."""
    import psycopg

    with psycopg.connect(url) as db:
        tables = [
            row[0]
            for row in db.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        ]
        return {
            table: sorted(map(str, db.execute(f'SELECT * FROM "{table}"').fetchall()))
            for table in tables
        }


def test_a_dump_restored_into_a_new_database_is_identical_and_serves(postgres, tmp_path):
    """Rows equal table by table; migrate finds nothing to do; a page renders from the copy."""
    base, source = postgres
    for n in range(3):
        user = UserFactory(username=f"learner{n}")
        ProfileFactory(user=user)
        watch = WatchFactory(user=user)
        CodingSessionFactory(user=user, resource=watch.resource, built="=1+1 «é»")
        NoteFactory(user=user, resource=watch.resource, text="line\nnext")
    dump, copy = tmp_path / "parcours.dump", f"parcours_restored_{uuid.uuid4().hex[:8]}"
    subprocess.run(
        ["pg_dump", "--format=custom", "--no-owner", f"--file={dump}", f"{base}/{source}"],
        check=True,
    )
    subprocess.run(
        [
            "createdb",
            "-h",
            connection.settings_dict["HOST"],
            "-U",
            connection.settings_dict["USER"],
            copy,
        ],
        check=True,
    )
    try:
        subprocess.run(
            ["pg_restore", "--no-owner", f"--dbname={base}/{copy}", str(dump)], check=True
        )
        assert all_rows(f"{base}/{copy}") == all_rows(f"{base}/{source}")
        environment = {"SECRET_KEY": "x" * 50, "DATABASE_URL": f"{base}/{copy}", "HTTPS": "0"}
        migrate = run_django(
            "import django; django.setup(); from django.core.management import call_command;"
            " call_command('migrate', check=True, plan=True)",
            **environment,
        )
        assert migrate.returncode == 0, migrate.stderr
        assert "No planned migration operations." in migrate.stdout
        page = run_django(
            "import django; django.setup(); from django.test import Client;"
            " from django.contrib.auth.models import User;"
            " c = Client(); c.force_login(User.objects.get(username='learner1'));"
            " r = c.get('/coding/'); print(r.status_code, '=1+1' in r.content.decode())",
            ALLOWED_HOSTS="testserver",
            **{**environment, "DEBUG": "1"},
        )
        assert page.stdout.split()[-2:] == ["200", "True"], page.stderr
    finally:
        subprocess.run(
            [
                "dropdb",
                "-h",
                connection.settings_dict["HOST"],
                "-U",
                connection.settings_dict["USER"],
                "--if-exists",
                copy,
            ],
            check=True,
        )
