"""Two gunicorn servers on one PostgreSQL database behave as one site (PostgreSQL only).

A load balancer may send each request of a learner to a different server: the session, the CSRF
token, the lockout count and the learner's data must all live in the database, none in a process.
Only the standard library talks to the servers, as a browser would: cookies, a CSRF token, POSTs.
"""

import http.cookiejar
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection
from django.utils.crypto import get_random_string

from tests.config.helpers import PROJECT_DIR
from tests.factories import PASSWORD, ResourceFactory, UserFactory

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="Several servers share one database only over the network: this needs PostgreSQL"
        " (set DATABASE_URL); an in-memory SQLite test database is private to this process.",
    ),
    pytest.mark.django_db(transaction=True),
    # One worker for both tests under `make test`: the hashed static files are collected once.
    pytest.mark.xdist_group("app_servers"),
]

GUNICORN = Path(sys.executable).parent / "gunicorn"
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def learner_known_to_the_servers():
    """Ada, whose password hash the servers can check: the suite's fast MD5 hasher is not in
    production's list, so PBKDF2 it is, with few iterations to keep the test quick."""
    learner = UserFactory(username="ada")
    learner.password = PBKDF2PasswordHasher().encode(PASSWORD, get_random_string(12), 1000)
    learner.save(update_fields=["password"])
    return learner


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url_of_this_test():
    """The URL of the database this test runs on (pytest-django's test database)."""
    db = connection.settings_dict
    user = urllib.parse.quote(db["USER"] or "", safe="")
    password = urllib.parse.quote(db["PASSWORD"] or "", safe="")
    credentials = f"{user}:{password}@" if password else f"{user}@"
    return f"postgres://{credentials}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="module")
def static_root(tmp_path_factory):
    """Hashed static files, as `collectstatic` leaves them in production (DEBUG off needs them)."""
    root = tmp_path_factory.mktemp("static")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=PROJECT_DIR,
        env={"PATH": "", "SECRET_KEY": "collectstatic-only", "STATIC_ROOT": str(root)},
        check=True,
        timeout=120,
    )
    return root


def wait_until_ready(base_url, server, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {server.stderr.read().decode()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{base_url}/readyz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn at {base_url} was not ready within {timeout} s")


@contextmanager
def app_servers(count, static_root):
    """Start count gunicorn processes on the test database; always stop them."""
    env = {
        "PATH": "",
        "DEBUG": "0",
        "HTTPS": "0",
        "SECRET_KEY": "two-servers-share-this-secret-" + "x" * 30,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url_of_this_test(),
        "STATIC_ROOT": str(static_root),
        "LOG_LEVEL": "WARNING",
    }
    servers, urls = [], []
    try:
        for _ in range(count):
            port = free_port()
            command = [
                str(GUNICORN),
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
            ]
            servers.append(
                subprocess.Popen(
                    command,
                    cwd=PROJECT_DIR,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
            )
            urls.append(f"http://127.0.0.1:{port}")
        for url, server in zip(urls, servers, strict=True):
            wait_until_ready(url, server)
        yield urls
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One browser: one cookie jar for every server, as behind a load balancer on one host."""

    def __init__(self):
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), NoRedirects
        )

    def cookie(self, name):
        return next((cookie.value for cookie in self.cookies if cookie.name == name), None)

    def request(self, url, data=None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        headers = {"Accept-Language": "en"}
        if body is not None:
            headers["X-CSRFToken"] = self.cookie("csrftoken") or ""
        try:
            with self.opener.open(urllib.request.Request(url, body, headers), timeout=30) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def sign_in(self, base_url, password):
        """Fetch the sign-in form (its CSRF cookie and token), then post it."""
        status, html = self.request(f"{base_url}/accounts/login/")
        assert status == 200
        token = CSRF_FIELD.search(html).group(1)
        data = {"username": "ada", "password": password, "csrfmiddlewaretoken": token}
        return self.request(f"{base_url}/accounts/login/", data)


def test_a_learner_signs_in_on_one_server_and_records_on_the_other(static_root):
    """The session made by server A is honoured by server B, which saves the learner's change."""
    learner = learner_known_to_the_servers()
    resource = ResourceFactory(slug="how-gpu-computing-works")
    browser = Browser()
    with app_servers(2, static_root) as (first, second):
        signed_in, _ = browser.sign_in(first, PASSWORD)
        page_status, page = browser.request(f"{second}/settings/")
        saved, _ = browser.request(f"{second}/resources/{resource.slug}/watched/", {})

    assert (signed_in, page_status, saved) == (302, 200, 302)
    assert "ada" in page
    assert learner.watches.get(resource=resource).finished_at is not None


def test_failed_sign_ins_on_both_servers_count_toward_one_lockout(static_root):
    """Five failures spread over two servers lock the account on both."""
    learner_known_to_the_servers()
    browser = Browser()
    with app_servers(2, static_root) as servers:
        failures = [browser.sign_in(servers[n % 2], "wrong")[0] for n in range(5)]
        sixth = [browser.sign_in(server, PASSWORD) for server in servers]

    assert failures == [200, 200, 200, 200, 429]
    assert [status for status, _ in sixth] == [429, 429]
    assert all("Too many failed sign-in attempts" in html for _, html in sixth)
