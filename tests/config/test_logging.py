import io
import logging
import logging.config

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


@pytest.fixture
def log_lines():
    """The project's logging configuration, writing into a buffer instead of standard error."""
    buffer = io.StringIO()
    config = {
        **settings.LOGGING,
        "handlers": {"stderr": {**settings.LOGGING["handlers"]["stderr"]}},
    }
    config["handlers"]["stderr"]["stream"] = buffer
    logging.config.dictConfig(config)
    yield lambda: buffer.getvalue().splitlines()
    logging.config.dictConfig(settings.LOGGING)


def test_every_response_carries_a_request_id(client):
    """A request id is made when none comes in, and sent back."""
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]
    assert len(first) == 32
    assert first != second


def test_a_sane_incoming_request_id_is_kept_and_a_strange_one_replaced(client):
    """The load balancer's id is kept; header injection attempts are not echoed."""
    assert client.get("/healthz", headers={"x-request-id": "lb-1234abcd"})["X-Request-ID"] == (
        "lb-1234abcd"
    )
    replaced = client.get("/healthz", headers={"x-request-id": "x y\r\nSet-Cookie: a=b"})
    assert replaced["X-Request-ID"] != "x y\r\nSet-Cookie: a=b"
    assert len(replaced["X-Request-ID"]) == 32


@pytest.mark.urls("tests.config.urls_failing")
def test_a_server_error_is_logged_on_one_line_with_its_request_id(client, log_lines):
    """A 500 leaves one log line naming the request id, traceback folded in."""
    client.raise_request_exception = False
    response = client.get("/fail/", headers={"x-request-id": "req-0000failing"})
    assert response.status_code == 500
    errors = [line for line in log_lines() if "Internal Server Error" in line]
    assert len(errors) == 1
    assert "[req-0000failing]" in errors[0]
    assert "RuntimeError: boom ⏎ second line" in errors[0]


def test_a_client_error_is_logged_with_its_request_id(client, log_lines):
    """Django logs 4xx responses after the middleware has returned: the line still names the id."""
    response = client.get("/no-such-page/", headers={"x-request-id": "req-0000notfound"})
    assert response.status_code == 404
    assert any("[req-0000notfound]" in line and "Not Found" in line for line in log_lines())


def lines_of_request(lines, request_id):
    return [line for line in lines if f"[{request_id}]" in line]


def test_failed_sign_ins_and_the_lockout_are_logged_without_secrets(client, learner, log_lines):
    """Each failure and the lockout leave a line with the request id; no password or session key."""
    from django.urls import reverse

    from tests.factories import PASSWORD

    client.force_login(learner)
    session_key = client.cookies["sessionid"].value
    wrong = "a-wrong-password-never-to-be-logged"
    statuses = []
    for attempt in range(6):
        response = client.post(
            reverse("login"),
            {"username": "ada", "password": wrong if attempt < 5 else PASSWORD},
            headers={"x-request-id": f"req-signin-{attempt}"},
        )
        statuses.append(response.status_code)
    lines = log_lines()

    assert statuses == [200, 200, 200, 200, 429, 429]
    for attempt in range(5):
        failure = [
            line
            for line in lines_of_request(lines, f"req-signin-{attempt}")
            if "login failure by" in line
        ]
        assert len(failure) == 1, lines
    assert any("Locking out" in line for line in lines_of_request(lines, "req-signin-4"))
    assert any("Too Many Requests" in line for line in lines_of_request(lines, "req-signin-5"))
    text = "\n".join(lines)
    assert wrong not in text
    assert PASSWORD not in text
    assert session_key not in text
