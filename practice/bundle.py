"""What a learner's machine needs to check an exercise locally: the starter, the runner, the
public cases and the exercise's settings. Never the reference, the known-wrong solutions or the
hidden cases' draw, which stay on the server."""

import json
from pathlib import Path

import yaml
from django.conf import settings

from practice.models import Exercise

RUNNER = Path(settings.BASE_DIR) / "practice" / "runner" / "check.py"


def public_settings(directory: Path) -> dict:
    """exercise.yaml without what says anything of the hidden cases."""
    data = yaml.safe_load((directory / "exercise.yaml").read_text(encoding="utf-8")) or {}
    return {key: value for key, value in data.items() if "hidden" not in str(key)}


def runner_bundle(exercise: Exercise) -> dict[str, str]:
    """The files to write beside the learner's solution, by name; those missing are left out."""
    directory = exercise.directory
    files: dict[str, str] = {}
    for name, path in (
        ("starter.py", directory / "starter.py"),
        ("cases.py", directory / "cases.py"),
        ("check.py", RUNNER),
    ):
        if path.is_file():
            files[name] = path.read_text(encoding="utf-8")
    if (directory / "exercise.yaml").is_file():
        files["exercise.json"] = json.dumps(public_settings(directory), indent=2, default=str)
    return files
