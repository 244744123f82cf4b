"""The access logs the deploy kit turns on hold no editor key and no token of a secret link:
gunicorn with the kit's own arguments (config/gunicorn.py), and nginx with the kit's site."""

import base64
import http.client
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from tests.certificates import self_signed_certificate
from tests.config.helpers import PROJECT_DIR
from tests.redis_servers import free_port

DEPLOY = PROJECT_DIR / "deploy"
GUNICORN = Path(sys.executable).parent / "gunicorn"
EDITOR_KEY = "b3e3408c-ba0b-48db-b7b7-27ea2a8144bc"
SHARE_TOKEN = "e-zqAXmavBVh8E3H4meA0miY5pvUN-3QTjvDhepdFXE"
CALENDAR_TOKEN = "ZhJ9oePbXhp9lZff0w9UO7XfBWoX4i2EiYxFWFBq5pE"
RESET_TOKEN = "dj3j9g-83826e83676716da8302a1356436b604"
SECRETS = [EDITOR_KEY, SHARE_TOKEN, CALENDAR_TOKEN, RESET_TOKEN, "api-key-in-query"]


def kit_gunicorn_arguments():
    example = (DEPLOY / "parcours.env.example").read_text()
    return shlex.split(re.search(r'^GUNICORN_CMD_ARGS="(.*)"$', example, re.MULTILINE)[1])


def request(url, headers=None):
    """One GET, its redirect not followed; an unknown key or token is refused, and logged."""
    address = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    target = address.path + (f"?{address.query}" if address.query else "")
    connection.request("GET", target, headers=headers or {})
    connection.getresponse().read()
    connection.close()


def secret_requests(base):
    """What the clients send: a heartbeat with Basic auth, secret links, a key in the query."""
    basic = base64.b64encode(EDITOR_KEY.encode()).decode()
    request(f"{base}/editor/v1/users/current/statusbar/today", {"Authorization": f"Basic {basic}"})
    request(f"{base}/share/{SHARE_TOKEN}/", {"Referer": f"https://x.example/share/{SHARE_TOKEN}/"})
    request(f"{base}/calendar/{CALENDAR_TOKEN}.ics")
    request(f"{base}/accounts/reset/MjE/{RESET_TOKEN}/")
    request(f"{base}/editor/v1/users/current/statusbar/today?api_key=api-key-in-query")


def test_gunicorn_run_with_the_kits_arguments_logs_no_key_and_no_token(tmp_path):
    port = free_port()
    log = tmp_path / "web.log"
    environment = {
        "PATH": "/usr/bin:/bin",
        "SECRET_KEY": "x" * 50,
        "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    command = [str(GUNICORN), "config.wsgi", "--bind", f"127.0.0.1:{port}"]
    with log.open("w") as output:
        server = subprocess.Popen(
            [*command, *kit_gunicorn_arguments()],
            cwd=PROJECT_DIR,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for(port)
            secret_requests(f"http://127.0.0.1:{port}")
        finally:
            server.terminate()
            server.wait(timeout=30)
    lines = [line for line in log.read_text().splitlines() if '"GET /' in line]
    assert len(lines) == 5, log.read_text()
    assert not [line for line in lines if any(secret in line for secret in SECRETS)]
    assert any('"GET /share/[token]/ HTTP/1.1"' in line for line in lines)
    assert any('"https://x.example/share/[token]/"' in line for line in lines)
    assert any("/calendar/[token].ics" in line for line in lines)


def wait_for(port):
    import socket

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


@pytest.mark.skipif(
    not shutil.which("nginx"), reason="nginx is not installed (.ci/run installs it)"
)
def test_nginx_with_the_kits_site_logs_no_token(tmp_path):
    """The site as written, its plain-HTTP server on a free port: it answers 301 and logs."""
    port = free_port()
    key, certificate = self_signed_certificate(tmp_path, "parcours.example")
    site = (DEPLOY / "nginx" / "parcours.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/parcours.example/fullchain.pem", str(certificate))
    site = site.replace("/etc/letsencrypt/live/parcours.example/privkey.pem", str(key))
    site = site.replace("/var/log/nginx/access.log", str(tmp_path / "access.log"))
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};").replace("listen [::]:80;", "")
    site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{free_port()} ssl http2;")
    site = site.replace("listen [::]:443 ssl http2;", "")
    (tmp_path / "parcours.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\ndaemon off;\nevents {{}}\n"
        f"http {{\n  include /etc/nginx/mime.types;\n  include {tmp_path}/parcours.conf;\n}}\n"
    )
    nginx = subprocess.Popen(
        ["nginx", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path), "-e", "stderr"],
        stderr=subprocess.PIPE,
    )
    try:
        wait_for(port)
        secret_requests(f"http://127.0.0.1:{port}")
    finally:
        nginx.terminate()
        nginx.wait(timeout=30)
    lines = (tmp_path / "access.log").read_text().splitlines()
    assert len(lines) == 5, lines
    assert not [line for line in lines if any(secret in line for secret in SECRETS)]
    assert any('"GET /share/[token]/ HTTP/1.1" 301' in line for line in lines)
    assert any('"https://x.example/share/[token]/"' in line for line in lines)
    assert any('"GET /accounts/reset/[token]/ HTTP/1.1"' in line for line in lines)
    assert any("?api_key=[token] HTTP/1.1" in line for line in lines)


@pytest.mark.parametrize(
    ("logged", "written"),
    [
        (f"GET /share/{SHARE_TOKEN}/ HTTP/1.1", "GET /share/[token]/ HTTP/1.1"),
        (
            f"https://x.example/calendar/{CALENDAR_TOKEN}.ics",
            "https://x.example/calendar/[token].ics",
        ),
        (f"/accounts/reset/MjE/{RESET_TOKEN}/", "/accounts/reset/[token]/"),
        ("/digest/unsubscribe/eyJsZWFybmVyIjozfQ:1vipbk:Skos/", "/digest/unsubscribe/[token]/"),
        ("api_key=api-key-in-query&page=2", "api_key=[token]&page=2"),
        ("/statusbar/today?API_KEY=abc", "/statusbar/today?API_KEY=[token]"),
        ("/resources/gpu-mode-3/", "/resources/gpu-mode-3/"),
        ("-", "-"),
        ("", ""),
    ],
)
def test_the_access_log_masks_each_kind_of_secret_and_nothing_else(logged, written):
    """What config/gunicorn.py's masked() writes of a request line, path, query or referrer."""
    from config.gunicorn import masked

    assert masked(logged) == written


def test_the_access_log_atoms_hold_no_user_no_credential_header_and_no_token():
    """AccessLog.atoms, as gunicorn asks it for each line: the user and the secret headers as
    "-", the path, query and referrer masked."""
    from types import SimpleNamespace

    from gunicorn.config import Config

    from config.gunicorn import AccessLog

    basic = base64.b64encode(EDITOR_KEY.encode()).decode()
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/share/{SHARE_TOKEN}/?token=t0k",
        "PATH_INFO": f"/share/{SHARE_TOKEN}/",
        "QUERY_STRING": "token=t0k",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_AUTHORIZATION": f"Basic {basic}",
        "HTTP_REFERER": f"https://x.example/share/{SHARE_TOKEN}/",
    }
    request = SimpleNamespace(headers=[("AUTHORIZATION", f"Basic {basic}")])
    response = SimpleNamespace(status="200 OK", sent=10, headers=[])

    atoms = AccessLog(Config()).atoms(
        response, request, environ, __import__("datetime").timedelta(0)
    )

    line = " ".join(str(value) for value in atoms.values())
    assert not [secret for secret in (EDITOR_KEY, basic, SHARE_TOKEN, "t0k") if secret in line]
    assert atoms["u"] == "-" and atoms["{authorization}i"] == atoms["{http_authorization}e"] == "-"
    assert atoms["r"] == "GET /share/[token]/?token=[token] HTTP/1.1"
