import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from curriculum.models import (
    Architecture,
    Chapter,
    Pairing,
    Part,
    Path,
    Resource,
    Series,
    Stage,
    Step,
)

pytestmark = pytest.mark.django_db

MODELS = (Part, Chapter, Architecture, Series, Resource, Pairing, Path, Stage, Step)


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def load(*args):
    call_command("load_curriculum", *args, stdout=(out := __import__("io").StringIO()))
    return out.getvalue()


def write(tmp_path, text):
    path = tmp_path / "curriculum.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


GOOD = """
parts: [{number: 2}]
chapters: [{part: 2, number: 5}]
series: [{slug: gpu-mode, name: GPU MODE}]
resources:
  - {slug: reductions, kind: lecture, series: gpu-mode, number: 9, title: Reductions,
     pairings: [{part: 2, chapter: 5, timing: with}]}
"""


def test_loading_twice_leaves_the_same_rows_and_each_run_says_so_in_one_line():
    """The second run creates nothing and changes nothing; the command reports in one line what the
    database holds and what changed."""
    first = load()
    before = counts()
    second = load()
    assert counts() == before
    assert "0 created, 0 updated" in second
    assert "0 created" not in first
    assert first.count("\n") == 1
    assert first.startswith("Curriculum: 58 resources, 8 series, 20 GPU cards, 4 stages, 11 steps;")


# The next four read what load_curriculum wrote: the `seed` fixture inserts the rows of the
# session's one run of the command (tests/conftest.py), instead of a run per test.


def test_every_row_of_the_seed_is_loaded(seed):
    """The chapter's tables, sections and path are all there."""
    lectures = Resource.objects.filter(series__slug="gpu-mode", kind="lecture")
    assert sorted(lectures.filter(is_advanced=False).values_list("number", flat=True)) == [
        1, 3, 4, 8, 9, 12, 14, 15,
    ]  # fmt: skip
    assert lectures.filter(is_advanced=True, number__gte=35).count() == 23
    assert Resource.objects.filter(series__slug="stephen-jones-gtc", kind="talk").count() == 4
    assert Resource.objects.filter(kind="conference").count() == 7
    assert Resource.objects.filter(kind="channel").count() == 5
    assert Resource.objects.filter(kind="university_course").count() == 3
    assert Resource.objects.filter(kind="session_collection").count() == 3
    assert Resource.objects.get(kind="course").duration_minutes == 720
    assert sorted(Part.objects.values_list("number", flat=True)) == [1, 2, 3, 5, 7, 9]
    assert Chapter.objects.count() == 4
    assert list(Stage.objects.values_list("title", flat=True)) == [
        "Semaine 1",
        "Semaine 2-3",
        "Semaine 4",
        "Ensuite, au fil des besoins",
    ]
    assert Step.objects.count() == 11
    assert Step.objects.filter(kind="architecture_talk").count() == 1
    assert Resource.objects.start_here().slug == "how-gpu-computing-works"


def test_the_seed_pairs_each_lecture_with_its_part_or_chapter(seed):
    """GPU MODE #9 goes with chapter 5 of part 2, #1 before part 9."""
    reductions = Pairing.objects.get(resource__slug="gpu-mode-9")
    assert (reductions.chapter.part.number, reductions.chapter.number) == (2, 5)
    profiling = Pairing.objects.get(resource__slug="gpu-mode-1")
    assert (profiling.part.number, profiling.timing) == (9, "before")


def test_durations_are_the_seeds_plan_or_the_verified_ones_and_otherwise_empty(seed):
    """Lecture 1 has its verified 56 minutes, path videos 60, the rest nothing."""
    minutes = dict(Resource.objects.values_list("slug", "duration_minutes"))
    assert minutes["gpu-mode-1"] == 56
    assert minutes["gpu-mode-3"] == 60
    assert minutes["gpu-mode-15"] is None
    assert minutes["gpu-mode-40"] is None
    assert not Resource.objects.followed().filter(duration_minutes__isnull=False).exists()


def test_the_architecture_step_resolves_for_hopper_and_not_for_ampere(seed):
    """A Hopper owner gets the Hopper session; no session is known for Ampere."""
    step = Step.objects.get(kind="architecture_talk")
    assert step.resolve(Architecture.objects.get(slug="hopper")).slug == "gtc-architecture-hopper"
    assert step.resolve(Architecture.objects.get(slug="ampere")) is None


def test_a_curators_edit_survives_a_second_run_and_update_puts_the_files_values_back():
    """Without --update, an edited title stays as the curator left it; with --update, the file
    wins."""
    load()
    Resource.objects.filter(slug="gpu-mode-15").update(title="CUTLASS, by Eric Auld")
    load()
    assert Resource.objects.get(slug="gpu-mode-15").title == "CUTLASS, by Eric Auld"

    output = load("--update")
    assert Resource.objects.get(slug="gpu-mode-15").title == "CUTLASS"
    assert "1 updated" in output


def test_a_smaller_file_loads(tmp_path):
    """A file with only some sections loads what it holds."""
    output = load(write(tmp_path, GOOD))
    assert "1 resources" in output
    assert Pairing.objects.get().chapter.number == 5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD.replace("{part: 2, chapter: 5, timing: with}", "{part: 4, timing: with}"),
            "resources[0] 'reductions' pairings[0]: field 'part': unknown part 4",
        ),
        (
            GOOD.replace("chapter: 5,", "chapter: 6,"),
            "field 'chapter': unknown chapter 6 of part 2",
        ),
        (
            GOOD + "  - {slug: reductions, kind: talk, title: Again}\n",
            "resources[1] 'reductions': field 'slug': duplicate slug 'reductions'",
        ),
        (
            GOOD.replace("title: Reductions,", "title: Reductions, duration_minutes: -5,"),
            "resources[0] 'reductions': field 'duration_minutes': must be a positive whole number",
        ),
        (
            GOOD.replace("kind: lecture", "kind: podcast"),
            "resources[0] 'reductions': field 'kind':",
        ),
        (
            GOOD.replace("series: gpu-mode,", "series: nope,"),
            "field 'series': unknown series 'nope'",
        ),
        (
            GOOD.replace("title: Reductions,", "titel: Reductions,"),
            "resources[0] 'reductions': unknown field(s) titel",
        ),
        (
            GOOD.replace("kind: lecture", "kind: channel, duration_minutes: 30"),
            "resources[0] 'reductions': field 'duration_minutes': A followed resource",
        ),
        (
            GOOD.replace("number: 9,", "number: 9, is_start_here: true,")
            + "  - {slug: other, kind: talk, title: Other, is_start_here: true}\n",
            "resources[1] 'other': entry:",
        ),
        (
            "resources:\n  - {kind: lecture, title: No slug}\n",
            "resources[0]: field 'slug' is required",
        ),
        ("stages: []\n", "Unknown section(s): stages"),
        ("- just a list\n", "must hold a mapping"),
        ("parts: [\n", "is not valid YAML"),
    ],
)
def test_bad_data_names_the_entry_and_field_and_loads_nothing(tmp_path, text, message):
    """Each bad-data case stops the whole load with a message that says where."""
    with pytest.raises(CommandError, match="Nothing loaded") as error:
        load(write(tmp_path, text))
    assert message in str(error.value)
    assert set(counts().values()) == {0}


def test_a_missing_file_is_a_clear_error(tmp_path):
    """The command names the file it cannot read."""
    with pytest.raises(CommandError, match="Cannot read"):
        load(str(tmp_path / "missing.yaml"))


def test_unknown_step_resource_is_refused(tmp_path):
    """A step naming a resource that is not in the file stops the load."""
    text = "paths:\n  - slug: p\n    title: P\n    stages:\n      - title: W1\n        steps: [{resource: ghost}]\n"
    with pytest.raises(
        CommandError, match=r"steps\[0\]: field 'resource': unknown resource 'ghost'"
    ):
        load(write(tmp_path, text))
    assert not Path.objects.exists()
