import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
RUNNER = ROOT / "practice" / "runner" / "check.py"
SLUGS = sorted(path.name for path in EXERCISES.iterdir() if (path / "exercise.yaml").exists())
WRONG = [
    (slug, path.name)
    for slug in SLUGS
    for path in sorted((EXERCISES / slug / "wrong").glob("*.py"))
]


def run_check(exercise, solution, *options, timeout=60):
    """check.py --json as the learner runs it, in a process of its own; its verdict."""
    environment = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    command = [
        sys.executable,
        str(RUNNER),
        "--exercise",
        str(exercise),
        "--solution",
        str(solution),
    ]
    done = subprocess.run(
        [*command, "--json", *options],
        capture_output=True,
        text=True,
        env=environment,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def exercise_copy(tmp_path):
    """A copy of an exercise, as the learner's folder holds it: exercise.json, cases.py."""

    def copy(slug, **settings):
        import yaml

        folder = tmp_path / slug
        folder.mkdir()
        exercise = yaml.safe_load((EXERCISES / slug / "exercise.yaml").read_text())
        exercise.update(settings)
        (folder / "exercise.json").write_text(json.dumps(exercise))
        (folder / "cases.py").write_text((EXERCISES / slug / "cases.py").read_text())
        return folder

    return copy


def write_exercise(root, slug, *, resource="gpu-mode-3", statement_fr=None, order=1, chapter=None):
    """An exercise folder as the repository holds one (only the files the site reads)."""
    folder = root / slug
    folder.mkdir(parents=True, exist_ok=True)
    chapter_line = f"chapter: {chapter}\n" if chapter else ""
    (folder / "exercise.yaml").write_text(
        textwrap.dedent(f"""\
            slug: {slug}
            title: {{fr: "Exercice {slug}", en: "Exercise {slug}"}}
            resource: {resource}
            order: {order}
            tolerance: 1.0e-5
            time_limit_seconds: 10
            public_sizes: [1, 127, 128, 129, 1000]
            hidden_cases: 3
            """)
        + chapter_line
    )
    (folder / "statement.fr.md").write_text(statement_fr or f"Énoncé de {slug}.")
    (folder / "statement.en.md").write_text(f"Statement of {slug}.")
    (folder / "starter.py").write_text("from numba import cuda\n")
    return folder


@pytest.fixture
def exercises_dir(tmp_path, settings):
    root = tmp_path / "exercises"
    root.mkdir()
    settings.PRACTICE_EXERCISES_DIR = root
    return root


@pytest.fixture
def learner_client(client, learner, settings):
    """The learner signed in, reading the site in English (the tests' assertions are in English)."""
    client.force_login(learner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def french_client(client, learner, settings):
    """The learner signed in, reading the site in French, the site's default."""
    client.force_login(learner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return client
