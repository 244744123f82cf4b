import os
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]


def run_django(code, **environment):
    """Run Python code in a fresh process with the project's settings and exactly this environment."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # Let coverage follow the child process when the suite runs under it.
        **{name: value for name, value in os.environ.items() if name.startswith("COVERAGE")},
        **environment,
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
