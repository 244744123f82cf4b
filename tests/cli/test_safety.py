"""The client's safety (issue #28, point 2): the token stays with its site, plain http only on this
machine, and every failure is one line with a documented exit code. A small HTTP server started by
each test plays the site, a site in front of it, or a stranger."""

import socket
import ssl
import subprocess
import sys
import threading
import time

import pytest

from tests.certificates import self_signed_certificate
from tests.cli.conftest import CLI, StandIn, one_line_error, run, save_config, serve

TOKEN = "pat_0123456789ab_secret-of-the-learner"
SUMMARY = {
    "username": "ada",
    "this_week": {"sentence": "You watched 1\u00a0h and coded 3\u00a0h this week."},
    "overall": {"sentence": "You watched 1\u00a0h and coded 3\u00a0h in all."},
    "next_up": None,
    "path": None,
}


def authorized(server):
    """The Authorization headers the server received."""
    return [headers.get("Authorization") for _m, _p, headers, _b in server.requests]


@pytest.fixture
def home(tmp_path, stand_in):
    save_config(tmp_path, stand_in.url, TOKEN)
    return tmp_path


@pytest.fixture
def tls_site(tmp_path):
    """A stand-in served over https on 127.0.0.1, with a certificate made here that the client
    is told to trust (SSL_CERT_FILE), as a real site's would be."""
    key, certificate = self_signed_certificate(
        tmp_path, "127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"
    )
    server = StandIn()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.url = server.url.replace("http://", "https://")
    server.certificate = certificate
    serve(server)
    yield server
    server.shutdown()
    server.server_close()


def test_a_redirect_to_another_site_does_not_take_the_token_along(home, stand_in, other_site):
    other_site.answer("GET", "/api/v1/summary", body=SUMMARY)
    stand_in.answer(
        "GET", "/api/v1/summary", 302, headers={"Location": other_site.url + "/api/v1/summary"}
    )
    result = run("status", home=home)
    assert result.returncode == 6
    assert "token was not sent" in one_line_error(result)
    assert other_site.requests == []
    assert authorized(stand_in) == [f"Bearer {TOKEN}"]


def test_a_redirected_write_to_another_site_is_not_sent_there(home, stand_in, other_site):
    stand_in.answer(
        "POST", "/api/v1/sessions", 307, headers={"Location": other_site.url + "/api/v1/sessions"}
    )
    result = run("log", "30", "--resource", "gpu-mode-9", "scan", home=home)
    assert result.returncode == 6
    one_line_error(result)
    assert other_site.requests == []


def test_an_http_site_redirecting_to_https_on_the_same_host_is_followed_for_reading(
    home, stand_in, tls_site
):
    tls_site.answer("GET", "/api/v1/summary", body=SUMMARY)
    stand_in.answer(
        "GET", "/api/v1/summary", 301, headers={"Location": tls_site.url + "/api/v1/summary"}
    )
    result = run("status", home=home, environment={"SSL_CERT_FILE": str(tls_site.certificate)})
    assert result.returncode == 0, result.stderr
    assert "This week: You watched 1 h and coded 3 h this week." in result.stdout
    assert f"parcours login --url {tls_site.url}" in result.stderr  # reported, once
    assert authorized(tls_site) == [f"Bearer {TOKEN}"]


def test_a_write_redirected_from_http_to_https_is_reported_not_lost(home, stand_in, tls_site):
    """urllib would have turned the POST into a GET after a 301; nothing would have been saved."""
    tls_site.answer(
        "POST", "/api/v1/sessions", 201, body={"id": 1, "minutes": 30, "day": "2026-12-03"}
    )
    stand_in.answer(
        "POST", "/api/v1/sessions", 301, headers={"Location": tls_site.url + "/api/v1/sessions"}
    )
    result = run(
        "log",
        "30",
        "--resource",
        "gpu-mode-9",
        "scan",
        home=home,
        environment={"SSL_CERT_FILE": str(tls_site.certificate)},
    )
    assert result.returncode == 6
    message = one_line_error(result)
    assert "nothing was saved" in message
    assert f"parcours login --url {tls_site.url}" in message
    assert tls_site.requests == []
    assert [method for method, *_rest in stand_in.requests] == ["POST"]


def test_the_saved_token_is_not_sent_to_a_site_named_in_the_environment(home, other_site):
    other_site.answer("GET", "/api/v1/summary", body=SUMMARY)
    result = run("status", home=home, environment={"PARCOURS_URL": other_site.url})
    assert result.returncode == 3
    assert "PARCOURS_TOKEN" in one_line_error(result)
    assert other_site.requests == []


@pytest.mark.parametrize(
    "url", ["http://parcours.example", "http://203.0.113.7:8000", "ftp://127.0.0.1"]
)
def test_plain_http_is_refused_beyond_this_machine(tmp_path, url):
    result = run("login", "--url", url, home=tmp_path, stdin=TOKEN + "\n")
    assert result.returncode == 2
    assert "https://" in one_line_error(result)
    save_config(tmp_path, url, TOKEN)  # a hand-edited file is refused alike
    result = run("status", home=tmp_path)
    assert result.returncode == 2
    one_line_error(result)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]"])
def test_plain_http_is_accepted_on_this_machine(tmp_path, host):
    save_config(tmp_path, f"http://{host}:9", TOKEN)  # the discard port: nothing listens
    result = run("status", "--timeout", "3", home=tmp_path)
    assert result.returncode == 5, result.stderr


def test_a_200_that_is_not_json_is_not_the_api(home, stand_in):
    stand_in.answer("GET", "/api/v1/summary", raw=b"<html>Captive portal: sign in</html>")
    result = run("status", home=home)
    assert result.returncode == 6
    assert "not the Parcours API" in one_line_error(result)


def test_a_404_page_is_a_wrong_address_and_the_apis_404_an_unknown_resource(home, stand_in):
    result = run("status", home=home)
    assert result.returncode == 6
    assert "no Parcours API" in one_line_error(result)
    stand_in.answer(
        "POST",
        "/api/v1/resources/nope/watched",
        404,
        body={"error": "not_found", "message": "No resource has the slug “nope”."},
    )
    result = run("watched", "nope", home=home)
    assert result.returncode == 4
    assert "nope" in one_line_error(result)


def test_a_server_error_exits_1_in_one_line(home, stand_in):
    stand_in.answer("GET", "/api/v1/summary", 500, raw=b"<h1>Server Error (500)</h1>")
    result = run("status", home=home)
    assert result.returncode == 1
    assert "500" in one_line_error(result)


def test_a_busy_site_is_tried_again_within_the_timeout(home, stand_in):
    stand_in.answer("GET", "/api/v1/summary", 503, headers={"Retry-After": "0"}, raw=b"busy")
    result = run("status", home=home)
    assert result.returncode == 1
    assert len(stand_in.requests) == 3  # the first try and two more
    one_line_error(result)


def test_a_site_that_refuses_connections_exits_5(home, stand_in):
    stand_in.shutdown()
    stand_in.server_close()
    started = time.monotonic()
    result = run("status", home=home)
    assert result.returncode == 5
    assert "Cannot reach" in one_line_error(result)
    assert time.monotonic() - started < 8


@pytest.fixture
def silent_port():
    """A port that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    accepted = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def test_a_site_that_never_answers_fails_after_the_timeout(tmp_path, silent_port):
    save_config(tmp_path, f"http://127.0.0.1:{silent_port}", TOKEN)
    started = time.monotonic()
    result = run("status", "--timeout", "2", home=tmp_path)
    elapsed = time.monotonic() - started
    assert result.returncode == 5
    assert "2" in one_line_error(result) and "--timeout" in result.stderr
    assert 2 <= elapsed < 6


# The client as run above, but every socket it opens waits a tenth of the time it asks for (and
# says what it asked for on standard output): the default is seen without waiting 10 real seconds.
TENTH_OF_THE_WAIT = f"""
import runpy, socket, sys
real = socket.create_connection
def tenth(address, timeout, *rest, **options):
    print(f"asked {{timeout:.2f}}")
    return real(address, timeout / 10, *rest, **options)
socket.create_connection = tenth
sys.argv = [{str(CLI)!r}, "sessions"]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_the_default_timeout_is_10_seconds(tmp_path, silent_port):
    """Without --timeout the client gives the site 10 s, then fails as after any timeout."""
    save_config(tmp_path, f"http://127.0.0.1:{silent_port}", TOKEN)
    variables = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "LANG": "C"}
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", TENTH_OF_THE_WAIT],
        capture_output=True,
        text=True,
        env={**variables, "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 5
    asked = [float(line.split()[1]) for line in result.stdout.splitlines()]
    assert len(asked) == 1 and 9 < asked[0] <= 10, result.stdout
    assert "no answer within 10 s (--timeout)" in result.stderr
    assert 1 <= elapsed < 5


@pytest.mark.parametrize("content", ["{not json", "[]", '{"url": "http://127.0.0.1:9"}', "\udcff"])
def test_a_damaged_config_file_exits_7(tmp_path, content):
    folder = tmp_path / "config" / "parcours"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(content, errors="surrogateescape")
    result = run("status", home=tmp_path)
    assert result.returncode == 7
    assert "parcours login" in one_line_error(result)
    assert run("logout", home=tmp_path).returncode == 0  # and logout clears it
    assert not (folder / "config.json").exists()


def test_the_token_is_never_printed(home, stand_in):
    stand_in.answer(
        "GET",
        "/api/v1/summary",
        401,
        body={"error": "unauthorized", "message": "This token is not valid."},
    )
    for command in (("status",), ("status", "--json"), ("logout",)):
        result = run(*command, home=home)
        assert TOKEN not in result.stdout + result.stderr
    assert [a for a in authorized(stand_in) if a] == [f"Bearer {TOKEN}"] * 2


def test_no_colour_without_a_terminal_or_with_no_color(home, stand_in):
    """Colours go to terminals only (a pseudo-terminal here), and never when NO_COLOR is set."""
    import os
    import pty

    def on_a_terminal(extra):
        leader, follower = pty.openpty()
        environment = {
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"),
            "TERM": "xterm",
            "PATH": "/usr/bin:/bin",
            **extra,
        }
        process = subprocess.run(
            [sys.executable, str(CLI), "status"],
            stdout=follower,
            stderr=follower,
            env=environment,
            timeout=30,
        )
        os.close(follower)
        output = os.read(leader, 65536).decode()
        os.close(leader)
        return process.returncode, output

    stand_in.answer("GET", "/api/v1/summary", body=SUMMARY)
    assert "\033[" in on_a_terminal({})[1]
    code, output = on_a_terminal({"NO_COLOR": "1"})
    assert code == 0 and "This week" in output and "\033[" not in output
    assert "\033[" not in run("status", home=home).stdout


def test_an_upgrade_to_an_https_address_that_is_down_names_that_address(home, stand_in):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    target = f"https://127.0.0.1:{port}/api/v1/summary"
    stand_in.answer("GET", "/api/v1/summary", 301, headers={"Location": target})
    result = run("status", home=home)
    assert result.returncode == 5
    assert f"Cannot reach https://127.0.0.1:{port}" in result.stderr.splitlines()[-1]
    assert "Traceback" not in result.stderr


def test_a_reader_that_leaves_early_gets_no_traceback(home, stand_in):
    """`parcours resources | head -1`: the pipe closes long before the list ends."""
    listing = [
        {
            "slug": f"resource-{n}",
            "title": "A long title " * 8,
            "duration_minutes": 60,
            "state": {"is_done": False},
        }
        for n in range(3000)
    ]
    stand_in.answer("GET", "/api/v1/resources", body=listing)
    result = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" "{CLI}" resources | head -1'],
        capture_output=True,
        text=True,
        timeout=60,
        env={"HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "PATH": "/usr/bin:/bin"},
    )
    assert result.stdout.startswith("  resource-0 ")
    assert result.stderr == ""
