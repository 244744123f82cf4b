"""`make test` runs the suite in two pytest-xdist workers and relies on --dist loadgroup to keep
each xdist_group in one worker: the tests that hold 50 PostgreSQL connections (a second one at
the same time passes the server's 100) and those that empty the shared Redis database."""

import subprocess
import sys
import textwrap


def test_the_tests_of_one_xdist_group_all_run_in_the_same_worker(tmp_path):
    (tmp_path / "test_grouped.py").write_text(
        textwrap.dedent(
            """
            import pytest

            pytestmark = pytest.mark.xdist_group("together")

            @pytest.mark.parametrize("n", range(6))
            def test_one(n):
                pass
            """
        )
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:django",
            "--numprocesses",
            "2",
            "--dist",
            "loadgroup",
            "-v",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    workers = {line.split()[0] for line in result.stdout.splitlines() if "PASSED" in line}
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(workers) == 1, result.stdout
