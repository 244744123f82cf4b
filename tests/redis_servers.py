"""Redis servers the tests start themselves (Debian's redis-server), on a free local port.

A test never needs someone else's Redis: `redis_cache` (tests/conftest.py) empties the database
it is given, and the fault tests need a server they may fill up or turn into a replica.
"""

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

REDIS_SERVER = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextlib.contextmanager
def redis_server(*options: str) -> Iterator[str]:
    """A throw-away redis-server with these extra options, nothing saved to disk; yields its URL."""
    assert REDIS_SERVER, "redis-server is not installed"
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="parcours-redis-") as folder:
        process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", folder, *options],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 10
            while not answers(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start on port {port}")
                time.sleep(0.02)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)
