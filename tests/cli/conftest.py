"""The command-line client (cli/parcours.py) run as a subprocess, as a learner runs it, against the
live test server or against a small HTTP server started here that answers what a test tells it."""

import http.server
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parents[2] / "cli" / "parcours.py"


def run(*arguments, home, stdin="", language="C", environment=None, python=None, timeout=60):
    """The client's CompletedProcess, with its config and ~ under `home` and nothing inherited."""
    variables = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "LANG": language,
        "PATH": "/usr/bin:/bin",
        **(environment or {}),
    }
    return subprocess.run(
        [python or sys.executable, str(CLI), *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        env=variables,
        timeout=timeout,
    )


def save_config(home, url, token):
    folder = home / "config" / "parcours"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps({"url": url, "token": token}))
    (folder / "config.json").chmod(0o600)


def one_line_error(result):
    """The failure is one line on standard error: no traceback, nothing on standard output."""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("parcours: ")
    assert "Traceback" not in result.stderr
    return lines[0]


class StandIn(http.server.ThreadingHTTPServer):
    """Answers each (method, path) with what `answers` holds; remembers every request it got."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), StandInHandler)
        self.answers = {}
        self.requests = []
        self.url = f"http://127.0.0.1:{self.server_address[1]}"

    def answer(self, method, path, status=200, body=None, headers=None, raw=None):
        """Answer JSON `body` (or the bytes `raw`, as HTML unless headers say otherwise)."""
        content = raw if raw is not None else json.dumps(body).encode()
        kind = "text/html; charset=utf-8" if raw is not None else "application/json"
        self.answers[method, path] = (status, {"Content-Type": kind, **(headers or {})}, content)


class StandInHandler(http.server.BaseHTTPRequestHandler):
    def handle_one_request_of(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.requests.append((method, self.path, dict(self.headers), body))
        path = self.path.split("?")[0]
        status, headers, content = self.server.answers.get(
            (method, path), (404, {"Content-Type": "text/html"}, b"<h1>Not found</h1>")
        )
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    def do_GET(self):
        self.handle_one_request_of("GET")

    def do_POST(self):
        self.handle_one_request_of("POST")

    def log_message(self, *arguments):
        pass


def serve(server):
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


@pytest.fixture
def stand_in():
    server = serve(StandIn())
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def other_site():
    """A second stand-in: another origin (another port) on the same machine."""
    server = serve(StandIn())
    yield server
    server.shutdown()
    server.server_close()
