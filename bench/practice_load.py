"""Ten learners submitting at once: do the other pages stay within 2x of their idle latency?

Serves Parcours from gunicorn (as `make bench` does) on a fresh PostgreSQL database with the seed
and the repository's exercises, runs the real task worker (`manage.py db_worker`), measures one
learner reading pages (the dashboard and a resource page, one request after another) while
nothing else happens, then while ten other learners send the reduction's reference through the
exercise page's form at the same moment and the worker checks them in the bubblewrap sandbox;
it prints the latencies (median, 90th percentile, max) and their ratios. Issue 41.

    .venv/bin/python bench/practice_load.py [--database-url URL] [--idle-seconds 20]
"""

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PAGES = ["/", "/resources/gpu-mode-9/"]
EXERCISE = "reduction"


def manage(env, *arguments):
    subprocess.run([PYTHON, "manage.py", *arguments], cwd=ROOT, env=env, check=True)


def learners_with_sessions(env, count):
    """count + 1 learners, each with a signed-in session: their session keys (reader last)."""
    script = (
        "from django.conf import settings\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.contrib.sessions.backends.db import SessionStore\n"
        "from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY\n"
        "User = get_user_model()\n"
        f"for n in range({count + 1}):\n"
        "    user = User.objects.create_user(f'load{n}', f'load{n}@example.com', 'x' * 20)\n"
        "    s = SessionStore()\n"
        "    s[SESSION_KEY] = str(user.pk)\n"
        "    s[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]\n"
        "    s[HASH_SESSION_KEY] = user.get_session_auth_hash()\n"
        "    s.create()\n"
        "    print(s.session_key)\n"
    )
    done = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", script],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return re.findall(r"^[a-z0-9]{32}$", done.stdout, re.MULTILINE)


def reader(base, session_key, stop: threading.Event, into: list[float]):
    """One learner reading pages in turn, as fast as the answers come; every latency in ms."""
    http = requests.Session()
    http.cookies.set("sessionid", session_key)
    index = 0
    while not stop.is_set():
        started = time.perf_counter()
        answer = http.get(base + PAGES[index % len(PAGES)], timeout=60)
        into.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, answer.status_code
        index += 1


def submit(base, session_key, code, barrier: threading.Barrier):
    http = requests.Session()
    http.cookies.set("sessionid", session_key)
    page = http.get(f"{base}/practice/{EXERCISE}/", timeout=60)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
    barrier.wait()
    answer = http.post(
        f"{base}/practice/{EXERCISE}/submit/",
        data={"code": code, "csrfmiddlewaretoken": token},
        headers={"Referer": f"{base}/practice/{EXERCISE}/"},
        allow_redirects=False,
        timeout=60,
    )
    assert answer.status_code == 302, (answer.status_code, answer.text[:300])


def figures(latencies):
    ordered = sorted(latencies)
    return {
        "requests": len(ordered),
        "median": statistics.median(ordered),
        "p90": ordered[int(0.9 * (len(ordered) - 1))],
        "max": ordered[-1],
    }


def verdicts(env):
    done = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c",
         "from practice.models import Submission as S\n"
         "print(S.objects.pending().count(), S.objects.exclude(verdict='pending').count(),"
         " sorted(set(S.objects.values_list('verdict', flat=True))),"
         " sorted(S.objects.exclude(seconds=None).values_list('seconds', flat=True)))"],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/parcours_practice_load"
    )
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--learners", type=int, default=10)
    parser.add_argument("--idle-seconds", type=float, default=20)
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    name = args.database_url.rsplit("/", 1)[1]
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "DEBUG": "0",
        "HTTPS": "0",
        "SECRET_KEY": "load-only-secret-key-" + "x" * 30,
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": args.redis_url,
        "STATIC_ROOT": "/tmp/parcours-practice-load-static",
    }
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
    manage(env, "migrate", "--no-input", "-v0")
    manage(env, "load_curriculum")
    manage(env, "load_exercises")
    manage(env, "collectstatic", "--no-input", "-v0")
    *submitters, reading = learners_with_sessions(env, args.learners)
    base = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen(
        [str(Path(PYTHON).parent / "gunicorn"), "config.wsgi", "--workers", "2",
         "--worker-class", "gthread", "--threads", "4",
         "--bind", f"127.0.0.1:{args.port}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    worker = subprocess.Popen(
        [PYTHON, "manage.py", "db_worker", "--no-reload"], cwd=ROOT, env=env
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                requests.get(base + "/readyz", timeout=5)
                break
            except requests.RequestException:
                time.sleep(0.2)
        signed_in = requests.get(
            base + "/coding/", cookies={"sessionid": reading}, allow_redirects=False, timeout=30
        )
        assert signed_in.status_code == 200, "the reader's session is not signed in"
        for page in PAGES * 5:  # warm-up: the curriculum is built once per process
            requests.get(base + page, cookies={"sessionid": reading}, timeout=30)

        idle: list[float] = []
        stop = threading.Event()
        thread = threading.Thread(target=reader, args=(base, reading, stop, idle))
        thread.start()
        time.sleep(args.idle_seconds)
        stop.set()
        thread.join()

        code = (ROOT / "exercises" / EXERCISE / "reference.py").read_text()
        loaded: list[float] = []
        stop = threading.Event()
        thread = threading.Thread(target=reader, args=(base, reading, stop, loaded))
        thread.start()
        barrier = threading.Barrier(len(submitters))
        senders = [
            threading.Thread(target=submit, args=(base, key, code, barrier)) for key in submitters
        ]
        started = time.monotonic()
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
        while True:
            state = verdicts(env)
            if state.startswith("0 "):
                break
            time.sleep(1)
        checked_in = time.monotonic() - started
        stop.set()
        thread.join()
    finally:
        worker.send_signal(signal.SIGTERM)
        server.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
        server.wait(timeout=30)

    quiet, busy = figures(idle), figures(loaded)
    print(f"\npages read: {', '.join(PAGES)}, one request after another, by one learner")
    print(f"{'':>22} {'requests':>9} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}")
    for label, row in (("idle", quiet), (f"{args.learners} checks queued", busy)):
        print(
            f"{label:>22} {row['requests']:>9} {row['median']:>10.1f} {row['p90']:>8.1f}"
            f" {row['max']:>8.1f}"
        )
    print(
        f"ratio under load: median {busy['median'] / quiet['median']:.2f}x, "
        f"p90 {busy['p90'] / quiet['p90']:.2f}x"
    )
    print(f"{args.learners} submissions checked in {checked_in:.1f} s; pending, done, verdicts,"
          f" seconds per check: {state}")  # fmt: skip


if __name__ == "__main__":
    main()
