"""exercises/: every folder is complete and tied to the curriculum, every reference passes and
every known-wrong solution fails, on numba-cuda's simulator through the learner's check."""

import ast

import pytest
import yaml

from .conftest import EXERCISES, ROOT, SLUGS, WRONG, run_check

FIELDS = {
    "slug",
    "title",
    "resource",
    "chapter",
    "order",
    "tolerance",
    "time_limit_seconds",
    "public_sizes",
    "hidden_cases",
}


def settings(slug):
    return yaml.safe_load((EXERCISES / slug / "exercise.yaml").read_text())


def curriculum_pairings():
    """Each resource slug of the seed, with the chapters its pairings name ("2.5", or "2")."""
    seed = yaml.safe_load((ROOT / "fixtures" / "curriculum.yaml").read_text())
    return {
        resource["slug"]: {
            f"{pairing['part']}.{pairing['chapter']}"
            if "chapter" in pairing
            else f"{pairing['part']}"
            for pairing in resource.get("pairings", [])
        }
        for resource in seed["resources"]
    }


def test_there_are_at_least_six_exercises():
    """The issue asks for six, each after a lecture."""
    assert len(SLUGS) >= 6


@pytest.mark.parametrize("slug", SLUGS)
def test_an_exercise_has_its_files_and_settings(slug):
    """exercise.yaml has every field, the folder every file, and the slug is the folder's name."""
    exercise = settings(slug)

    assert set(exercise) >= FIELDS
    assert exercise["slug"] == slug
    assert set(exercise["title"]) == {"fr", "en"}
    assert set(exercise["tolerance"]) == {"abs", "rel"}
    assert 1 in exercise["public_sizes"]
    assert exercise["hidden_cases"] >= 1
    assert 0 < exercise["time_limit_seconds"] <= 15
    for name in ("statement.fr.md", "statement.en.md", "starter.py", "reference.py", "cases.py"):
        assert (EXERCISES / slug / name).read_text().strip(), name
    assert {path.name for path in (EXERCISES / slug / "wrong").glob("*.py")} >= {
        "empty.py",
        "no_tail.py",
        "reads_expected.py",
    }


@pytest.mark.parametrize("slug", SLUGS)
def test_an_exercise_follows_a_resource_and_chapter_of_the_curriculum(slug):
    """The resource is a slug of fixtures/curriculum.yaml and the chapter one of its pairings."""
    exercise = settings(slug)
    pairings = curriculum_pairings()

    assert exercise["resource"] in pairings
    assert exercise["chapter"] in pairings[exercise["resource"]]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_expected_answers_are_computed_without_the_reference(slug):
    """cases.py imports numpy only, so that a bug in the reference kernel shows."""
    tree = ast.parse((EXERCISES / slug / "cases.py").read_text())
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}

    assert imported == {"numpy"}


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_the_reference_passes_the_public_and_hidden_cases(slug):
    """The reference solution passes, hidden cases included, within the exercise's time limit."""
    outcome = run_check(
        EXERCISES / slug, EXERCISES / slug / "reference.py", "--hidden-seed", "20261205"
    )

    assert outcome["verdict"] == "passed", outcome["message"]
    print(f"\n{slug}: reference checked in {outcome['seconds']} s")


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_the_starter_as_given_fails(slug):
    """The starter computes nothing yet: it fails on the first case."""
    outcome = run_check(EXERCISES / slug, EXERCISES / slug / "starter.py")

    assert outcome["verdict"] == "failed"
    assert outcome["message"].startswith("case 1 (size 1): ")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("slug", "wrong"), [case for case in WRONG if case[1] != "reads_expected.py"]
)
def test_a_known_wrong_solution_fails_naming_the_case(slug, wrong):
    """Each known-wrong solution fails, and the message names the case (its number and size).
    reads_expected.py passes here by design: test_sandbox.py fails it where it counts."""
    outcome = run_check(EXERCISES / slug, EXERCISES / slug / "wrong" / wrong)

    assert outcome["verdict"] == "failed", outcome["message"]
    assert outcome["message"].startswith("case "), outcome["message"]
    assert "(size " in outcome["message"]


@pytest.mark.slow
def test_the_simulator_misses_a_missing_atomic():
    """Recorded, not wanted: counts[v] += 1 without an atomic passes on the simulator (the
    README says why). If this fails, the simulator catches it: move it into wrong/."""
    histogram = EXERCISES / "histogram"

    outcome = run_check(histogram, histogram / "simulator_misses" / "no_atomics.py")

    assert outcome["verdict"] == "passed"
