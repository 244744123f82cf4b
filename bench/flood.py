"""Three editor keys flooding the heartbeat endpoint, and other learners' dashboard meanwhile
(issue 39: three flooding keys at their limit keep other learners' dashboard within 2x of its
idle p95).

Run after `make bench`, which leaves the database, the collected static files and the cookie
file (a line per learner: session, CSRF token, editor key):

    .venv/bin/python bench/flood.py
    .venv/bin/python bench/flood.py --requests 6000 --rounds 3

It serves the site with gunicorn as `make bench` does (Redis set), then in each round drives the
dashboard with wrk twice, --requests requests each: idle, then while three other learners' keys
each send bulks of 25 heartbeats back to back, as fast as they are answered. Each key's first
EDITOR_RATE_LIMIT heartbeats of a minute are recorded, the rest refused with 429. It prints the
dashboard's median and p95 in each, the p95's ratio to idle's (goal: 2 or less), and what the
flooding keys were answered.
"""

import argparse
import http.client
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from bench import BODIES, EDITOR_PATH, concrete, cookie_file  # noqa: E402
from bench.run import (  # noqa: E402
    DATABASE_URL,
    REDIS_URL,
    RESULTS,
    drive,
    gunicorn,
    server_env,
    settle,
    wait_until_up,
)

FLOODING_KEYS = 3
GOAL = 2.0  # the flooded p95 over the idle p95
# Each bulk starts where the last ended, a minute a heartbeat, cycling within the last twelve days
# (heartbeats older than fourteen are dropped unread): the bulks accepted write new heartbeats.
BULK_MINUTES = 25
CYCLE = 12 * 24 * 60 // BULK_MINUTES


def flood(port, editor_key, stop, answers):
    """Send bulks of 25 with one key until stop is set; count the statuses answered."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Basic {editor_key}", "Content-Type": "application/json"}
    first = time.time() - 13 * 24 * 3600
    sent = 0
    while not stop.is_set():
        start = first + (sent % CYCLE) * BULK_MINUTES * 60
        connection.request("POST", EDITOR_PATH, concrete(BODIES[EDITOR_PATH], start), headers)
        response = connection.getresponse()
        response.read()
        answers[response.status] += 1
        sent += 1
    connection.close()


class Flood:
    """The flooding keys, each sending from its own thread while the block runs."""

    def __init__(self, port, editor_keys):
        self.stop = threading.Event()
        self.answers = Counter()
        self.threads = [
            threading.Thread(target=flood, args=(port, key, self.stop, self.answers))
            for key in editor_keys
        ]

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        time.sleep(1)  # past the first bulks: the keys at their limit, refused from then on
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=4_000, help="of the dashboard, per run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server-threads", type=int, default=4)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()

    database_url = os.environ.get("BENCH_DATABASE_URL", DATABASE_URL)
    env = server_env(database_url)
    env["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", REDIS_URL)
    lines = cookie_file(RESULTS, "/").read_text().splitlines()
    flooders = [line.split()[2] for line in lines[-FLOODING_KEYS:]]
    with tempfile.NamedTemporaryFile("w", suffix=".cookies", delete=False) as others:
        others.write("\n".join(lines[:-FLOODING_KEYS]) + "\n")
    base_url = f"http://127.0.0.1:{args.port}"
    server = gunicorn(env, args.port, args.workers, args.server_threads)
    rows = []
    answers = Counter()
    try:
        wait_until_up(base_url)
        drive(base_url, "GET", "/", min(300, args.requests), Path(others.name), 2)  # warm-up
        for _ in range(args.rounds):
            settle(database_url)  # the last round's heartbeats vacuumed before the idle run
            idle = drive(base_url, "GET", "/", args.requests, Path(others.name), args.connections)
            with Flood(args.port, flooders) as flooding:
                flooded = drive(
                    base_url, "GET", "/", args.requests, Path(others.name), args.connections
                )
            answers.update(flooding.answers)
            rows.append((idle, flooded))
    finally:
        server.terminate()
        server.wait(timeout=30)
        Path(others.name).unlink()
    print(report(rows, answers, args))


def report(rows, answers, args):
    ratios = [flooded["p95_ms"] / idle["p95_ms"] for idle, flooded in rows]
    lines = [
        f"The dashboard, {args.requests} requests per run with {args.connections} connections, "
        f"idle then while {FLOODING_KEYS} editor keys flood the bulk endpoint:",
        "",
        "| round | idle median ms | idle p95 ms | flooded median ms | flooded p95 ms | p95 ratio |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for number, ((idle, flooded), ratio) in enumerate(zip(rows, ratios, strict=True), 1):
        lines.append(
            f"| {number} | {idle['median_ms']:.1f} | {idle['p95_ms']:.1f} "
            f"| {flooded['median_ms']:.1f} | {flooded['p95_ms']:.1f} | {ratio:.2f} |"
        )
    verdict = "met" if statistics.median(ratios) <= GOAL else "not met"
    statuses = ", ".join(f"{status}: {count:,}" for status, count in sorted(answers.items()))
    lines += [
        "",
        f"Goal: the flooded p95 within {GOAL:g}x the idle p95 (median of the rounds, "
        f"{statistics.median(ratios):.2f}): {verdict}.",
        f"The flooding keys were answered: {statuses}.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
