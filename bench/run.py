"""`make bench`: serve Parcours from gunicorn on a fresh PostgreSQL database holding thousands of
learners, drive every target with wrk from a second process, and report each target's
throughput as a ratio of the signed-in floor's (bench/urls.py: signed in, nothing else) and of
/readyz's (one query, no session), measured in the same run by the same workers, beside the
number of queries it runs at the learner's data and at ten times it (bench/queries.py). Every
target is driven in a few rounds, and within a round in slices alternated with slices of the
floor (floor, page, floor, page): its ratio in a round is its rate over the floor's in those same
seconds, and the table gives the median of the rounds and their spread, so that a passing load
on the machine falls on both and does not decide the verdict.
"""

import argparse
import datetime
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

import psycopg
import redis

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

from bench import (  # noqa: E402
    BOARD_PATH,
    BODIES,
    COOKIE_FILES,
    EDITOR_ONE_PATH,
    EDITOR_PATH,
    EDITOR_PATHS,
    FLOOR_PATH,
    STATUS,
    VIEWING_PATH,
    concrete,
    cookie_file,
)

PYTHON = sys.executable
RESULTS = BENCH / "results"

# (name, method, path). The first two are the yardsticks: /readyz (one query, no session, no
# template) and the floor (signed in, nothing else: see bench/urls.py); the rest are learner pages
# and writes.
READYZ = ("/readyz", "GET", "/readyz")
FLOOR = ("signed-in floor", "GET", FLOOR_PATH)
TARGETS = [
    READYZ,
    FLOOR,
    ("dashboard", "GET", "/"),
    ("path", "GET", "/path/"),
    ("catalogue", "GET", "/resources/"),
    ("catalogue search", "GET", "/resources/?q=CUTLASS"),
    ("resource page", "GET", "/resources/gpu-mode-15/"),
    ("guide", "GET", "/guide/"),
    ("coding log", "GET", "/coding/"),
    ("stats", "GET", "/stats/"),
    ("settings", "GET", "/settings/"),
    ("group board", "GET", BOARD_PATH),
    ("mark watched (POST)", "POST", "/resources/gpu-mode-12/watched/"),
    ("viewing beat (POST)", "POST", VIEWING_PATH),
    ("editor bulk of 25 (POST)", "POST", EDITOR_PATH),
    ("editor heartbeat (POST)", "POST", EDITOR_ONE_PATH),
]
# Issue 38's goals, as shares of the floor's requests per second: every learner page at least
# PAGE_GOAL; the mark-watched POST and the board of a 50-member group (whose cost grows with its
# members) at their own.
PAGE_GOAL = 0.4
GOALS = {"mark watched (POST)": 0.5, "group board": 0.2}
# The player's beat and the editor's heartbeats are writes measured beside the pages, outside the
# pages' goal, with goals of their own (issue 39): the beat at 0.5x the floor, heartbeats in bulks
# of 25 at 1,000 a second, single heartbeats at 600 requests a second.
OUTSIDE_THE_GOAL = {"viewing beat (POST)", "editor bulk of 25 (POST)", "editor heartbeat (POST)"}
# In each round a target is driven in this many slices, each right after a slice of the floor of as
# many requests (floor, page, floor, page): the floor it is divided by shares its seconds.
SLICES = 2
YARDSTICKS = (READYZ, FLOOR)


DATABASE_URL = "postgres://postgres@127.0.0.1:5432/parcours_bench"
REDIS_URL = "redis://127.0.0.1:6379/14"


def server_env(database_url):
    """The environment of every process the benchmark starts: production's settings (DEBUG off)
    on the benchmark's database, plus the floor view (bench/urls.py)."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "HTTPS": "0",
        "SECRET_KEY": "benchmark-only-secret-key-" + "x" * 30,
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "bench.settings",
    }


def gunicorn(env, port, workers, threads):
    """The site served as the deploy kit serves it: gunicorn's threaded workers."""
    return subprocess.Popen(
        [str(Path(PYTHON).parent / "gunicorn"), "config.wsgi", "--workers", str(workers),
         "--worker-class", "gthread", "--threads", str(threads),
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip


def fresh_database(url):
    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def manage(env, *args):
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True)


def settle(database_url):
    """What autovacuum and the checkpointer do after writes, done between measurements rather
    than during one: the write targets at the end of a round (or of the warm-up) left the next
    round's first targets measured at half their speed while PostgreSQL caught up."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute("VACUUM ANALYZE")
        connection.execute("CHECKPOINT")


def wait_until_up(base_url, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base_url + "/readyz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer /readyz in time")


def drive(base_url, method, path, requests, cookies, connections):
    """One wrk run of exactly `requests` answered requests; returns its figures."""
    out = RESULTS / "wrk-last.json"
    stop_marker = Path(f"{out}.stop")
    out.unlink(missing_ok=True)
    stop_marker.unlink(missing_ok=True)
    env = {
        **os.environ,
        "BENCH_COOKIES": str(cookies),
        "BENCH_REQUESTS": str(requests),
        "BENCH_METHOD": method,
        "BENCH_OUT": str(out),
        "BENCH_BODY": BODIES.get(path, ""),
        "BENCH_EDITOR": "1" if path in EDITOR_PATHS else "",
    }
    wrk = subprocess.Popen(
        ["wrk", "-t1", f"-c{connections}", "-d600s", "--timeout", "10s",
         "-s", str(BENCH / "load.lua"), base_url + path],
        env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    while wrk.poll() is None:
        if stop_marker.exists():
            # wrk waits out its duration unless interrupted; its worker thread has stopped, so
            # the signal reaches the main thread, which then prints the summary.
            wrk.send_signal(signal.SIGINT)
        time.sleep(0.02)
    return json.loads(out.read_text())


def worker_memory_mb(master_pid):
    output = subprocess.run(
        ["ps", "--ppid", str(master_pid), "-o", "rss="], capture_output=True, text=True
    ).stdout
    return [int(line) / 1024 for line in output.split()]


def check_signed_in(port, method, path, cookies):
    """The target answers 200 to a learner of the cookie file, not a redirect to the sign-in page;
    to every learner of a target's own file (the board's members: any other learner gets a 404)."""
    lines = cookies.read_text().splitlines()
    for line in lines if path in COOKIE_FILES else lines[:1]:
        status = answer(port, method, path, line)
        if status != STATUS.get(path, 200):
            raise SystemExit(f"{method} {path} answered {status} to a signed-in learner")


def answer(port, method, path, cookie_line):
    """The status of one request sent as the learner of this cookie line, as load.lua sends it."""
    session, csrf, editor = cookie_line.split()
    headers = {"Cookie": f"sessionid={session}; csrftoken={csrf}", "X-CSRFToken": csrf}
    if path in EDITOR_PATHS:
        headers = {"Authorization": f"Basic {editor}"}
    elif method == "POST":
        headers["HX-Request"] = "true"
    body = concrete(BODIES.get(path, ""))
    if body:
        headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def count_queries(env, targets):
    """bench/queries.py's figures: the data size, and each target's queries at 1x and 10x."""
    out = RESULTS / "queries-last.json"
    out.unlink(missing_ok=True)
    subprocess.run(
        [PYTHON, str(BENCH / "queries.py"), str(out),
         json.dumps([[method, path] for _, method, path in targets])],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    figures = json.loads(out.read_text())
    figures["queries"] = {
        (method, path): (one, ten) for method, path, one, ten in figures["queries"]
    }
    return figures


def round_runs(targets, slices):
    """One round's wrk runs in order, as (the target measured, what is driven): each yardstick
    once, every other target in `slices` slices, each right after a slice of the floor."""
    runs = []
    for target in targets:
        if target in YARDSTICKS:
            runs.append((target, target))
        else:
            runs += [(target, FLOOR), (target, target)] * slices
    return runs


def joined(results):
    """A target's figures over its slices of a round: the requests answered over the seconds they
    took, the slices' mean latencies and all their errors."""
    requests = sum(result["requests"] for result in results)
    seconds = sum(result["seconds"] for result in results)
    return {
        "requests": requests,
        "seconds": seconds,
        "rps": requests / seconds,
        "median_ms": statistics.mean(result["median_ms"] for result in results),
        "p95_ms": statistics.mean(result["p95_ms"] for result in results),
        "errors": sum(result["errors"] for result in results),
    }


def measure_round(targets, slices, requests, run):
    """One round: `run(target, requests)` drives each of round_runs' entries in turn, a yardstick
    for `requests`, a slice for its share of them. Returns [(name, figures)] in the targets' order,
    a page's figures with "floor_rps", the floor's rate over the slices alternated with it."""
    driven = defaultdict(list)
    for target, what in round_runs(targets, slices):
        share = requests if target in YARDSTICKS else max(1, requests // slices)
        driven[target, what].append(run(what, share))
    rows = []
    for target in targets:
        figures = joined(driven[target, target])
        if target not in YARDSTICKS:
            figures["floor_rps"] = joined(driven[target, FLOOR])["rps"]
        rows.append((target[0], figures))
    return rows


def ratios_of(rows):
    """Each target's ratios to the floor and to /readyz in one round: a page's to the floor of its
    own slices ("floor_rps"), a yardstick's to the round's floor."""
    by_name = dict(rows)
    floor, readyz = by_name[FLOOR[0]]["rps"], by_name[READYZ[0]]["rps"]
    return {
        name: (result["rps"] / result.get("floor_rps", floor), result["rps"] / readyz)
        for name, result in rows
    }


def table_rows(targets, rounds, queries):
    """One dict per target: the medians over the rounds of its wrk figures and of its ratios to
    each round's own floor and /readyz (a machine's passing load falls on one round, not on the
    verdict), and its query counts."""
    ratios = [ratios_of(rows) for rows in rounds]
    table = []
    for index, (name, method, path) in enumerate(targets):
        results = [rows[index][1] for rows in rounds]
        at_1x, at_10x = queries[(method, path)]
        table.append(
            {
                "target": name,
                "method": method,
                "path": path,
                "rps": statistics.median(result["rps"] for result in results),
                "median_ms": statistics.median(result["median_ms"] for result in results),
                "p95_ms": statistics.median(result["p95_ms"] for result in results),
                "errors": sum(result["errors"] for result in results),
                "ratio_to_floor": statistics.median(round_[name][0] for round_ in ratios),
                "ratio_to_readyz": statistics.median(round_[name][1] for round_ in ratios),
                "ratios_to_floor": [round(round_[name][0], 3) for round_ in ratios],
                "floor_rps": [round(r["floor_rps"], 1) for r in results if "floor_rps" in r],
                "queries_1x": at_1x,
                "queries_10x": at_10x,
            }
        )
    return table


def goal_of(target):
    """The share of the floor's requests per second a target must serve."""
    return GOALS.get(target, PAGE_GOAL)


def goal_line(pages, slow, only):
    if not pages:
        return "Goal: no learner page was measured in this run."
    scope = "every learner page run" if only else "every learner page"
    own = "".join(f", {name} at ≥ {goal}x" for name, goal in GOALS.items())
    verdict = f"not met by {', '.join(slow)}." if slow else "met."
    return f"Goal: {scope} at ≥ {PAGE_GOAL}x the floor{own}: {verdict}"


def writes_line(table):
    """The writes' own goals (issue 39), for the ones measured in this run."""
    by_name = {row["target"]: row for row in table}
    parts = []
    if bulk := by_name.get("editor bulk of 25 (POST)"):
        parts.append(f"{bulk['rps'] * 25:,.0f} heartbeats/s in bulks of 25 (goal 1,000)")
    if one := by_name.get("editor heartbeat (POST)"):
        parts.append(f"{one['rps']:,.0f} requests/s of one heartbeat (goal 600)")
    if beat := by_name.get("viewing beat (POST)"):
        parts.append(f"viewing beat {beat['ratio_to_floor']:.2f}x the floor (goal 0.5)")
    return "Writes: " + "; ".join(parts) + "." if parts else ""


def report(table, figures, memory, args):
    data = figures["data"]
    now = datetime.datetime.now()
    yardsticks = {READYZ[0], FLOOR[0]}
    pages = [row for row in table if row["target"] not in yardsticks | OUTSIDE_THE_GOAL]
    slow = [row["target"] for row in pages if row["ratio_to_floor"] < goal_of(row["target"])]
    growing = [row["target"] for row in table if row["queries_1x"] != row["queries_10x"]]
    lines = [
        f"Parcours benchmark, {now:%Y-%m-%d %H:%M}: {data['learners']:,} learners, "
        f"{data['coding_sessions']:,} coding sessions, {data['watch_events']:,} watch events; "
        f"{args.requests} requests per target in each of {args.rounds} rounds, in {args.slices} "
        f"slices each alternated with the floor's (medians of the rounds, each round's ratio to "
        f"the floor of the same seconds), gunicorn {args.workers} workers of "
        f"{args.server_threads} threads, wrk with {args.connections} connections, "
        f"{'no Redis' if args.no_cache else 'Redis (REDIS_URL set)'}; every page rendered afresh.",
        "",
        "| target | req/s | median ms | p95 ms | ratio to floor | spread over rounds "
        "| ratio to /readyz "
        "| queries 1x | queries 10x | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in table:
        lines.append(
            f"| {row['method'] + ' ' if row['method'] != 'GET' else ''}{row['path']} "
            f"| {row['rps']:.0f} | {row['median_ms']:.1f} | {row['p95_ms']:.1f} "
            f"| {row['ratio_to_floor']:.2f} "
            f"| {min(row['ratios_to_floor']):.2f} to {max(row['ratios_to_floor']):.2f} "
            f"| {row['ratio_to_readyz']:.2f} "
            f"| {row['queries_1x']} | {row['queries_10x']} | {row['errors']} |"
        )
    lines += [
        "",
        goal_line(pages, slow, args.only),
        writes_line(table),
        "Queries at 10x the learner's data: "
        + (f"more than at 1x for {', '.join(growing)}." if growing else "the same as at 1x."),
        "Worker resident memory after the run: " + ", ".join(f"{mb:.0f} MB" for mb in memory),
    ]
    text = "\n".join(lines) + "\n"
    RESULTS.mkdir(exist_ok=True)
    stem = RESULTS / f"bench-{now:%Y%m%d-%H%M%S}"
    stem.with_suffix(".md").write_text(text)
    settings = {
        "requests": args.requests,
        "rounds": args.rounds,
        "slices": args.slices,
        "workers": args.workers,
        "server_threads": args.server_threads,
        "connections": args.connections,
        "redis": not args.no_cache,
    }
    stem.with_suffix(".json").write_text(
        json.dumps(
            {
                "at": now.isoformat(timespec="seconds"),
                "data": data,
                "settings": settings,
                "goals_to_floor": {"learner page": PAGE_GOAL, **GOALS},
                "targets": table,
                "worker_memory_mb": memory,
            },
            indent=2,
        )
        + "\n"
    )
    print(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--learners", type=int, default=5_000)
    parser.add_argument("--requests", type=int, default=2_000, help="per target and round")
    parser.add_argument("--rounds", type=int, default=5, help="passes over every target")
    parser.add_argument(
        "--slices", type=int, default=SLICES, help="slices of a target, each after the floor's"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server-threads", type=int, default=4, help="threads per worker")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--reuse-data", action="store_true", help="skip creating the database")
    parser.add_argument("--no-cache", action="store_true", help="serve without Redis")
    parser.add_argument(
        "--only", nargs="+", metavar="PATH", help="these targets' paths (and the yardsticks) only"
    )
    args = parser.parse_args()
    if args.slices < 1:
        parser.error("--slices takes 1 or more")
    targets = [t for t in TARGETS if not args.only or t in YARDSTICKS or t[2] in args.only]

    database_url = os.environ.get("BENCH_DATABASE_URL", DATABASE_URL)
    env = server_env(database_url)
    redis_url = os.environ.get("BENCH_REDIS_URL", REDIS_URL)
    RESULTS.mkdir(exist_ok=True)
    cookies = cookie_file(RESULTS, "/")
    if not args.reuse_data:
        fresh_database(database_url)
        manage(env, "migrate", "--no-input", "-v0")
        manage(env, "load_curriculum")
        manage(env, "load_exercises")
        subprocess.run(
            [PYTHON, str(BENCH / "generate.py"), "--learners", str(args.learners),
             "--cookies", str(cookies)],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        # Without statistics the planner guesses (it once read every coding-session row of a
        # resource to find one learner's), and the checkpoint due five minutes after the load
        # wrote 320 MB while the second target was measured.
        settle(database_url)
    if not args.no_cache:
        redis.Redis.from_url(redis_url).flushdb()
        env["REDIS_URL"] = redis_url
    # Before anything renders a page: templates name static files through the manifest.
    manage(env, "collectstatic", "--no-input", "-v0")
    if not args.reuse_data:
        subprocess.run([PYTHON, str(BENCH / "explain.py")], cwd=ROOT, env=env, check=True)
    figures = count_queries(env, targets)

    base_url = f"http://127.0.0.1:{args.port}"
    server = gunicorn(env, args.port, args.workers, args.server_threads)
    try:
        wait_until_up(base_url)
        for _name, method, path in targets:
            learners = cookie_file(RESULTS, path)
            if path != READYZ[2]:
                check_signed_in(args.port, method, path, learners)
            drive(base_url, method, path, min(300, args.requests), learners, 2)  # warm-up
        settle(database_url)

        def run(target, requests):
            _name, method, path = target
            learners = cookie_file(RESULTS, path)
            return drive(base_url, method, path, requests, learners, args.connections)

        rounds = []
        for _ in range(args.rounds):
            rounds.append(measure_round(targets, args.slices, args.requests, run))
            settle(database_url)
        report(
            table_rows(targets, rounds, figures["queries"]),
            figures,
            worker_memory_mb(server.pid),
            args,
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
