"""manage.py load_exercises keeps the rows in step with the folders and leaves curators' choices."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from practice.models import Exercise
from tests.factories import ResourceFactory, SubmissionFactory
from tests.practice.conftest import write_exercise


@pytest.fixture
def lectures(db):
    return ResourceFactory(slug="gpu-mode-3"), ResourceFactory(slug="gpu-mode-9")


def load(capsys, folder):
    call_command("load_exercises", str(folder))
    return capsys.readouterr().out.strip()


def test_new_folders_are_added_with_their_resource_order_and_text(lectures, exercises_dir, capsys):
    write_exercise(exercises_dir, "vector-add", order=2)
    write_exercise(exercises_dir, "reduction", resource="gpu-mode-9")

    out = load(capsys, exercises_dir)

    assert out.startswith("Loaded 2 exercises: 2 added, 0 updated, 0 unchanged")
    vector_add = Exercise.objects.get(slug="vector-add")
    assert vector_add.resource == lectures[0] and vector_add.order == 2 and vector_add.is_active
    assert (
        vector_add.title_fr == "Exercice vector-add"
        and vector_add.title_en == "Exercise vector-add"
    )
    assert vector_add.statement_fr == "Énoncé de vector-add." and vector_add.folder == "vector-add"
    assert Exercise.objects.get(slug="reduction").resource == lectures[1]


def test_loading_twice_changes_nothing(lectures, exercises_dir, capsys):
    write_exercise(exercises_dir, "vector-add")
    load(capsys, exercises_dir)

    out = load(capsys, exercises_dir)

    assert "0 added, 0 updated, 1 unchanged" in out
    assert Exercise.objects.count() == 1


def test_a_changed_statement_in_the_repository_updates_the_statement(
    lectures, exercises_dir, capsys
):
    write_exercise(exercises_dir, "vector-add")
    load(capsys, exercises_dir)
    write_exercise(exercises_dir, "vector-add", statement_fr="Un énoncé réécrit.")

    out = load(capsys, exercises_dir)

    assert "1 updated" in out
    assert Exercise.objects.get(slug="vector-add").statement_fr == "Un énoncé réécrit."


def test_a_curators_tie_order_and_switch_survive_a_change_in_the_repository(
    lectures, exercises_dir, capsys
):
    write_exercise(exercises_dir, "vector-add", order=1)
    load(capsys, exercises_dir)
    Exercise.objects.filter(slug="vector-add").update(
        is_active=False, order=7, resource=lectures[1]
    )
    write_exercise(exercises_dir, "vector-add", order=3, statement_fr="Nouveau.")

    load(capsys, exercises_dir)

    exercise = Exercise.objects.get(slug="vector-add")
    assert (exercise.is_active, exercise.order, exercise.resource) == (False, 7, lectures[1])
    assert exercise.statement_fr == "Nouveau."


def test_an_exercise_whose_folder_is_gone_is_turned_off_and_keeps_its_submissions(
    lectures, exercises_dir, capsys
):
    write_exercise(exercises_dir, "vector-add")
    write_exercise(exercises_dir, "reduction", resource="gpu-mode-9")
    load(capsys, exercises_dir)
    SubmissionFactory(exercise=Exercise.objects.get(slug="reduction"))
    for path in (exercises_dir / "reduction").iterdir():
        path.unlink()
    (exercises_dir / "reduction").rmdir()

    out = load(capsys, exercises_dir)

    assert "1 turned off" in out
    assert not Exercise.objects.get(slug="reduction").is_active
    assert Exercise.objects.get(slug="reduction").submissions.count() == 1


def test_a_chapter_is_tied_from_its_number(lectures, exercises_dir, capsys):
    from tests.factories import ChapterFactory, PartFactory

    chapter = ChapterFactory(part=PartFactory(number=2), number=5)
    write_exercise(exercises_dir, "vector-add", chapter='"2.5"')

    load(capsys, exercises_dir)

    assert Exercise.objects.get(slug="vector-add").chapter == chapter


def test_an_unknown_resource_loads_nothing_and_names_the_folder(lectures, exercises_dir):
    write_exercise(exercises_dir, "vector-add")
    write_exercise(exercises_dir, "mystery", resource="no-such-lecture")

    with pytest.raises(CommandError, match="mystery: no resource has the slug 'no-such-lecture'"):
        call_command("load_exercises", str(exercises_dir))

    assert Exercise.objects.count() == 0


def test_invalid_yaml_is_refused_with_the_file_named(lectures, exercises_dir):
    folder = write_exercise(exercises_dir, "vector-add")
    (folder / "exercise.yaml").write_text("slug: [unclosed\n")

    with pytest.raises(CommandError, match=r"vector-add/exercise\.yaml is not valid YAML"):
        call_command("load_exercises", str(exercises_dir))


def test_a_checkout_without_exercises_loads_none_and_says_so(db, tmp_path, capsys):
    out = load(capsys, tmp_path / "missing")

    assert out == f"No folder {tmp_path / 'missing'}: no exercise loaded"
    assert Exercise.objects.count() == 0


def test_a_chapter_naming_a_part_only_ties_the_exercise_to_no_chapter(
    lectures, exercises_dir, capsys
):
    """A pairing that names a part alone ("3") gives no chapter row: loaded, chapter left empty."""
    write_exercise(exercises_dir, "vector-add", chapter='"3"')

    out = load(capsys, exercises_dir)

    assert out.startswith("Loaded 1 exercise")
    assert Exercise.objects.get(slug="vector-add").chapter is None


def test_the_repositorys_exercises_load_on_the_seed(db, capsys):
    """The six folders of exercises/ load on the seed's curriculum, as the README's set-up runs."""
    call_command("load_curriculum", stdout=StringIO())  # the seed, as the set-up loads it

    call_command("load_exercises", stdout=StringIO())

    assert Exercise.objects.count() == 6
    assert Exercise.objects.get(slug="reduction").chapter.number == 5
    assert Exercise.objects.get(slug="tiled-matmul").chapter is None
