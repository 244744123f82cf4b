"""The tests' Redis: their own server, or a database that holds only their keys; never someone
else's keys emptied (`make test` used to FLUSHDB database 15 of whatever listened on 6379)."""

import os
import subprocess
import sys

import pytest
import redis

from tests.redis_servers import REDIS_SERVER, redis_server

pytestmark = [
    pytest.mark.skipif(not REDIS_SERVER, reason="needs Debian's redis-server"),
    # Each runs a pytest of its own on one test database (test_parcours): never two at once.
    pytest.mark.xdist_group("nested-pytest"),
]

A_REDIS_TEST = "tests/config/test_redis_down.py::test_readyz_checks_redis_when_it_answers"


def run_pytest(test_redis_url):
    environment = {**os.environ, "TEST_REDIS_URL": test_redis_url, "SECRET_KEY": "x"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-q", A_REDIS_TEST],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )


def test_a_redis_database_holding_someone_elses_keys_is_refused_and_kept():
    with redis_server() as url:
        other = redis.Redis.from_url(url)
        other.set("someone:else", "precious")
        result = run_pytest(url)
        assert result.returncode != 0
        assert "keys the tests did not write" in result.stdout
        assert other.get("someone:else") == b"precious"


def test_a_redis_database_holding_only_the_tests_keys_is_used_and_left_so():
    """The tests delete their own keys, and no other."""
    with redis_server() as url:
        result = run_pytest(url)
        assert result.returncode == 0, result.stdout
        assert redis.Redis.from_url(url).keys("*") == []
