"""Where a page's time goes, in process: SQL, view code, template, beside the signed-in floor.

`make bench` says how fast each page is; this says why. It serves the benchmark's targets from
this process (Django's WSGI handler, no server, no network but PostgreSQL's), in interleaved
rounds (floor, page, floor, page...) so that a machine's load falls on all of them alike, each
request signed in as another learner of the benchmark's cookie file (the group board's: its
members), and splits each request's
wall time into:

- SQL: time spent inside the database driver's execute (a connection execute_wrapper): sending,
  PostgreSQL's work, reading the rows; with the number of statements;
- template: time inside `render_to_string` (every render() of a view), its own SQL taken out;
- view: the rest of the request (middleware, session and user, the view's own Python, the ORM
  building its queries and model instances), so the floor's own "view" is what every page pays.

Each figure is the median over the rounds, in milliseconds. Run it after `make bench` (or
`bench/run.py --learners 500`), which leaves the database, the collected static files and the
cookie file it needs:

    .venv/bin/python bench/split.py                 # every target, 200 rounds
    .venv/bin/python bench/split.py --rounds 100 / /resources/ "/resources/?q=CUTLASS"
    .venv/bin/python bench/split.py --board-sizes 2,10,20,50   # the board by its number of members

With --board-sizes, it splits boards of those sizes instead: for the length of the run, one study
group per size holds the first members of the benchmark's group (its owner first, as they joined),
each board requested as its own members; the groups are deleted at the end.

It reads BENCH_DATABASE_URL as bench/run.py does, and serves without Redis (the cache in
memory): the split does not depend on it, the pages cache nothing whole.
"""

import argparse
import io
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

from bench.run import DATABASE_URL, server_env  # noqa: E402

os.environ.update(server_env(os.environ.get("BENCH_DATABASE_URL", DATABASE_URL)))
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.db import connection  # noqa: E402
from django.template import loader  # noqa: E402

from bench import (  # noqa: E402
    BOARD_PATH,
    BOARD_SLUG,
    BODIES,
    EDITOR_PATHS,
    FLOOR_PATH,
    concrete,
    cookie_file,
)
from bench.boards import board_path, board_sizes, boards_of_sizes, user_of  # noqa: E402
from bench.run import TARGETS  # noqa: E402


class Clock:
    """Accumulates the time of one request's SQL and template rendering."""

    def __init__(self):
        self.sql = self.template = self.template_sql = 0.0
        self.statements = 0
        self.rendering = False

    def execute(self, execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent = time.perf_counter() - start
            self.sql += spent
            self.statements += 1
            if self.rendering:
                self.template_sql += spent


CLOCK = Clock()
_render_to_string = loader.render_to_string


def timed_render_to_string(*args, **kwargs):
    CLOCK.rendering = True
    start = time.perf_counter()
    try:
        return _render_to_string(*args, **kwargs)
    finally:
        CLOCK.template += time.perf_counter() - start
        CLOCK.rendering = False


loader.render_to_string = timed_render_to_string


SENT = itertools.count()  # each request's heartbeats a minute after the previous one's


def environ(method, path, cookie_line):
    session, csrf, editor = [*cookie_line.split(), "", ""][:3]
    address, _, query = path.partition("?")
    body = concrete(BODIES.get(path, ""), start=time.time() - 3600 + 60 * next(SENT)).encode()
    env = {
        "REQUEST_METHOD": method,
        "PATH_INFO": address,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "REMOTE_ADDR": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/json" if body else "",
        "HTTP_COOKIE": f"sessionid={session}; csrftoken={csrf}",
        "HTTP_X_CSRFTOKEN": csrf,
    }
    if path in EDITOR_PATHS:
        env.pop("HTTP_COOKIE")
        env["HTTP_AUTHORIZATION"] = f"Basic {editor}"
    elif method == "POST":
        env["HTTP_HX_REQUEST"] = "true"
    return env


def one_request(handler, method, path, cookie_line):
    """(total, sql, view, template, statements) of one request, in seconds."""
    CLOCK.__init__()
    statuses = []
    start = time.perf_counter()
    with connection.execute_wrapper(CLOCK.execute):
        response = handler(environ(method, path, cookie_line), lambda s, h: statuses.append(s))
        b"".join(response)
        response.close()
    total = time.perf_counter() - start
    if not statuses[0].startswith(("200", "201")):
        raise SystemExit(f"{method} {path} answered {statuses[0]}")
    template = CLOCK.template - CLOCK.template_sql
    return total, CLOCK.sql, total - CLOCK.sql - template, template, CLOCK.statements


def split(targets, cookies, rounds):
    """Each target's (total, sql, view, template, statements) per round, the rounds interleaved."""
    handler = WSGIHandler()
    figures = {name: [] for name, _, _ in targets}
    for round_number in range(rounds + 5):  # the first five warm the process up
        for name, method, path in targets:
            learners = cookies[path]
            line = learners[(round_number * 7919 + len(name)) % len(learners)]
            result = one_request(handler, method, path, line)
            if round_number >= 5:
                figures[name].append(result)
    return figures


def print_table(targets, figures, rounds):
    floor = statistics.median(r[0] for r in figures[targets[0][0]]) * 1000
    print(
        f"{rounds} interleaved rounds, medians in ms; ratio = floor total / page total\n\n"
        "| target | total | SQL | view | template | statements | ratio |\n"
        "|---|---:|---:|---:|---:|---:|---:|"
    )
    for name, method, path in targets:
        rows = figures[name]
        total, sql, view, template = (
            statistics.median(r[i] for r in rows) * 1000 for i in range(4)
        )
        statements = statistics.median(r[4] for r in rows)
        label = name if path.startswith(f"/groups/{BOARD_SLUG}-") else path
        label = f"{method + ' ' if method != 'GET' else ''}{label}"
        print(
            f"| {label} | {total:.1f} | {sql:.1f} | {view:.1f} | {template:.1f} "
            f"| {statements:.0f} | {floor / total:.2f} |"
        )


def split_board_sizes(sizes, rounds, floor_learners):
    """The floor and a board of each size, split in the same rounds."""
    board_lines = cookie_file(BENCH / "results", BOARD_PATH).read_text().splitlines()
    users = {line: user_of(line) for line in board_lines}
    with boards_of_sizes(sizes) as boards:
        targets = [("floor", "GET", FLOOR_PATH)] + [
            (f"board of {size} members", "GET", board_path(size)) for size in sizes
        ]
        cookies = {FLOOR_PATH: floor_learners}
        for path, members in boards.items():
            cookies[path] = [line for line in board_lines if users[line] in members]
        figures = split(targets, cookies, rounds)
    print_table(targets, figures, rounds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="the targets to split (default: every one)")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--learners", type=int, default=50, help="cookie lines to cycle through")
    parser.add_argument(
        "--board-sizes",
        type=board_sizes,
        help="split boards of these numbers of members (comma-separated), not the targets",
    )
    args = parser.parse_args()
    if args.board_sizes:
        floor_learners = cookie_file(BENCH / "results", FLOOR_PATH).read_text().splitlines()
        split_board_sizes(args.board_sizes, args.rounds, floor_learners[: args.learners])
        return
    targets = [(name, method, path) for name, method, path in TARGETS if path != "/readyz"]
    if args.paths:
        targets = [t for t in targets if t[2] in args.paths or t[2] == FLOOR_PATH]
    cookies = {
        path: cookie_file(BENCH / "results", path).read_text().splitlines()[: args.learners]
        for _name, _method, path in targets
    }
    print_table(targets, split(targets, cookies, args.rounds), args.rounds)


if __name__ == "__main__":
    main()
