"""`make bench`: serve Parcours from gunicorn on a fresh PostgreSQL database holding thousands of
learners, drive every target with wrk from a second process, and report each target's
throughput as a ratio of a trivial view's (/readyz: one query, no template) in the same run.
"""

import argparse
import datetime
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psycopg
import redis

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PYTHON = sys.executable
RESULTS = BENCH / "results"

TARGETS = [
    ("baseline: /readyz", "GET", "/readyz"),
    ("dashboard", "GET", "/"),
    ("path", "GET", "/path/"),
    ("catalogue search", "GET", "/resources/?q=CUTLASS"),
    ("resource page", "GET", "/resources/gpu-mode-15/"),
    ("practice log", "GET", "/practice/"),
    ("stats", "GET", "/stats/"),
    ("mark watched (POST)", "POST", "/resources/gpu-mode-12/watched/"),
]


def fresh_database(url):
    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def manage(env, *args):
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True)


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


def report(rows, memory, args):
    baseline = rows[0][1]["rps"]
    lines = [
        f"Parcours benchmark, {datetime.datetime.now():%Y-%m-%d %H:%M}: {args.learners} learners, "
        f"{args.requests} requests per target, gunicorn {args.workers} workers of "
        f"{args.server_threads} threads, "
        f"wrk with {args.connections} connections, "
        f"{'no cache' if args.no_cache else 'Redis cache'}.",
        "",
        "| target | requests/s | median ms | p95 ms | ratio to baseline | errors |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, result in rows:
        lines.append(
            f"| {name} | {result['rps']:.0f} | {result['median_ms']:.1f} | "
            f"{result['p95_ms']:.1f} | {result['rps'] / baseline:.2f} | {result['errors']} |"
        )
    lines += ["", "Worker resident memory after the run: "
              + ", ".join(f"{mb:.0f} MB" for mb in memory)]  # fmt: skip
    text = "\n".join(lines) + "\n"
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"bench-{datetime.datetime.now():%Y%m%d-%H%M%S}.md").write_text(text)
    print(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--learners", type=int, default=5_000)
    parser.add_argument("--requests", type=int, default=3_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server-threads", type=int, default=4, help="threads per worker")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--reuse-data", action="store_true", help="skip creating the database")
    parser.add_argument(
        "--no-cache", action="store_true", help="serve without Redis: every page rendered afresh"
    )
    args = parser.parse_args()

    database_url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/parcours_bench"
    )
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "HTTPS": "0",
        "SECRET_KEY": "benchmark-only-secret-key-" + "x" * 30,
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
    }
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
    RESULTS.mkdir(exist_ok=True)
    cookies = RESULTS / "cookies.txt"
    if not args.reuse_data:
        fresh_database(database_url)
        manage(env, "migrate", "--no-input", "-v0")
        manage(env, "load_curriculum")
        subprocess.run(
            [PYTHON, str(BENCH / "generate.py"), "--learners", str(args.learners),
             "--cookies", str(cookies)],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        # What autovacuum and the checkpointer do in production after a bulk load, done before
        # measuring rather than during it: without statistics the planner guesses (it once read
        # every practice row of a resource to find one learner's), and the checkpoint due five
        # minutes after the load wrote 320 MB while the second target was measured.
        with psycopg.connect(database_url, autocommit=True) as connection:
            connection.execute("VACUUM ANALYZE")
            connection.execute("CHECKPOINT")
        subprocess.run([PYTHON, str(BENCH / "explain.py")], cwd=ROOT, env=env, check=True)
    if not args.no_cache:
        redis.Redis.from_url(redis_url).flushdb()
        env["REDIS_URL"] = redis_url
    manage(env, "collectstatic", "--no-input", "-v0")

    base_url = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen(
        [str(Path(PYTHON).parent / "gunicorn"), "config.wsgi", "--workers", str(args.workers),
         "--worker-class", "gthread", "--threads", str(args.server_threads),
         "--bind", f"127.0.0.1:{args.port}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        wait_until_up(base_url)
        rows = []
        for name, method, path in TARGETS:
            drive(base_url, method, path, min(300, args.requests), cookies, 2)  # warm-up
            result = drive(base_url, method, path, args.requests, cookies, args.connections)
            rows.append((name, result))
        report(rows, worker_memory_mb(server.pid), args)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
