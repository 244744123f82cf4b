"""EXPLAIN every query the benchmarked pages run for one learner: each must reach that learner's
rows through an index, never by a full scan of a per-learner table; and coding-session and watch rows
(hundreds per learner, the bulk of the database) only through an index that starts with the
learner: one on the resource alone reads every learner's rows of that resource.

The queries are the pages' own, recorded while a learner's client asks for each page (with no
cache, so that every query runs).
"""

import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

PER_LEARNER_TABLES = (
    "progress_codingsession",
    "progress_watch",
    "progress_watchevent",
    "progress_note",
)
BULK_TABLES = ("progress_codingsession", "progress_watch", "progress_watchevent")
PAGES = [
    "/",
    "/path/",
    "/resources/",
    "/resources/?q=CUTLASS",
    "/resources/gpu-mode-15/",
    "/guide/",
    "/coding/",
    "/stats/",
    "/settings/",
]


def page_queries(client, url):
    """The (sql, params) of every query the page runs."""
    queries = []

    def record(execute, sql, params, many, context):
        queries.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return queries


INDEX_USED = re.compile(r"(?:Index(?: Only)? Scan(?: Backward)? using|Bitmap Index Scan on) (\w+)")


def indexes_by_first_column():
    """{index name: its first column} for the tables of coding-session and watch rows."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT index.relname, attribute.attname
            FROM pg_index
            JOIN pg_class index ON index.oid = pg_index.indexrelid
            JOIN pg_class tab ON tab.oid = pg_index.indrelid
            JOIN pg_attribute attribute
              ON attribute.attrelid = tab.oid AND attribute.attnum = pg_index.indkey[0]
            WHERE tab.relname = ANY(%s)
            """,
            [list(BULK_TABLES)],
        )
        return dict(cursor.fetchall())


def wrong_accesses(sql, params, first_columns):
    """Full scans of per-learner tables, and bulk tables' indexes used that do not start with user_id."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    scans = [
        f"Seq Scan on {table}" for table in PER_LEARNER_TABLES if f"Seq Scan on {table}" in plan
    ]
    indexes = [
        f"index {name}"
        for name in INDEX_USED.findall(plan)
        if first_columns.get(name, "user_id") != "user_id"
    ]
    return scans + indexes


def board_of_a_member():
    """The benchmark group's board, asked by one of its members: the others get a 404."""
    from bench import BOARD_PATH, BOARD_SLUG
    from groups.models import Membership

    membership = Membership.objects.filter(group__slug=BOARD_SLUG).order_by("?").first()
    if membership is None:
        return []
    client = Client(HTTP_HOST=os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0])
    client.force_login(membership.user)
    return [(client, BOARD_PATH)]


def main():
    learner = get_user_model().objects.filter(is_staff=False).order_by("?").first()
    client = Client(HTTP_HOST=os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0])
    client.force_login(learner)
    first_columns = indexes_by_first_column()
    found = []
    for client, url in [(client, url) for url in PAGES] + board_of_a_member():
        queries = page_queries(client, url)
        wrong = sorted(
            {access for query in queries for access in wrong_accesses(*query, first_columns)}
        )
        verdict = ", ".join(wrong) if wrong else "every learner row through a learner index"
        print(f"EXPLAIN {url}: {len(queries)} queries, {verdict}")
        found += wrong
    if found:
        raise SystemExit(
            f"a learner's rows reached otherwise than by a learner index: {sorted(set(found))}"
        )


if __name__ == "__main__":
    main()
