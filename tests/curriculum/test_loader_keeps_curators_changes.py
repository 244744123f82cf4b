"""What curators change in admin survives `load_curriculum` without --update (make run runs it at
every start): pairings added, removed or moved, order, steps, stages, removals and edited text.
The loader creates only the entries it never loaded (curriculum/loader.py, LoadedEntry); with
--update the file wins again."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from curriculum.models import (
    Architecture,
    Chapter,
    LoadedEntry,
    Pairing,
    Part,
    Resource,
    Stage,
    Step,
)


def load(*args):
    call_command("load_curriculum", *args, stdout=(out := io.StringIO()))
    return out.getvalue()


def places(slug):
    """Where a resource is paired, as (part, chapter or None, timing), sorted."""
    return sorted(
        (
            pairing.chapter.part.number if pairing.chapter else pairing.part.number,
            pairing.chapter.number if pairing.chapter else None,
            pairing.timing,
        )
        for pairing in Pairing.objects.filter(resource__slug=slug)
    )


def steps(stage_order):
    """The slugs (or titles) of a stage's steps, in order."""
    stage = Stage.objects.get(order=stage_order)
    return [step.resource.slug if step.resource else step.title for step in stage.steps.all()]


def test_a_pairing_moved_in_admin_stays_where_the_curator_put_it(client, curator, seed):
    """The issue's walk: GPU MODE #9 moved from "Part 2, chapter 5 · with" to "Part 5, chapter
    2 · before" in admin; the restart creates nothing and #9 shows one chapter, the new one."""
    client.force_login(curator)
    resource = Resource.objects.get(slug="gpu-mode-9")
    url = reverse("admin:curriculum_resource_change", args=[resource.pk])
    form = client.get(url).context["adminform"].form
    data = {key: value for key, value in form.initial.items() if value is not None}
    data.update(
        architectures=[],
        **{
            "pairings-TOTAL_FORMS": "1",
            "pairings-INITIAL_FORMS": "1",
            "pairings-0-id": str(resource.pairings.get().pk),
            "pairings-0-resource": str(resource.pk),
            "pairings-0-chapter": str(Chapter.objects.get(part__number=5, number=2).pk),
            "pairings-0-timing": "before",
        },
    )
    assert client.post(url, data).status_code == 302

    output = load()

    assert "0 created, 0 updated, 1 left out as curators moved or deleted them." in output
    assert places("gpu-mode-9") == [(5, 2, "before")]


def test_a_pairing_removed_in_admin_is_not_made_again(seed):
    """A curator deletes #1's pairing with part 9: it stays deleted."""
    Pairing.objects.filter(resource__slug="gpu-mode-1").delete()

    load()

    assert places("gpu-mode-1") == []


def test_a_pairing_added_and_a_timing_changed_in_admin_are_kept(seed):
    """A second pairing for #9 and a new timing on its first both stay."""
    pairing = Pairing.objects.get(resource__slug="gpu-mode-9")
    pairing.timing = "after"
    pairing.save()
    Pairing.objects.create(resource=pairing.resource, part=Part.objects.get(number=7))

    load()

    assert places("gpu-mode-9") == [(2, 5, "after"), (7, None, "with")]


def test_steps_reordered_moved_and_removed_in_admin_stay_so(seed):
    """Week 1's steps swapped, week 4's first step moved to week 1, a later step removed."""
    week_1 = Stage.objects.get(order=1)
    first, second, _third = week_1.steps.all()
    for step, order in ((first, 10), (second, 1), (first, 2)):
        step.order = order
        step.save()
    moved = Stage.objects.get(order=3).steps.get(order=1)
    moved.stage, moved.order = week_1, 4
    moved.save()
    Step.objects.get(stage__order=4, resource__slug="gpu-mode-14").delete()

    output = load()

    assert "0 created" in output
    assert steps(1) == ["gpu-mode-3", "how-gpu-computing-works", "gpu-mode-4", "gpu-mode-1"]
    assert steps(3) == ["gpu-mode-8"]
    assert "gpu-mode-14" not in steps(4)


def test_a_stage_removed_in_admin_is_not_made_again_nor_its_steps(seed):
    """Deleting week 4 (its steps go with it) survives the restart."""
    Stage.objects.get(order=3).delete()

    load()

    assert list(Stage.objects.values_list("order", flat=True)) == [1, 2, 4]
    assert not Step.objects.filter(resource__slug="gpu-mode-8").exists()


def test_a_resource_removed_in_admin_is_not_made_again_nor_its_pairings(seed):
    """An advanced lecture no learner touched, deleted in admin, stays deleted."""
    Resource.objects.filter(slug="gpu-mode-40").delete()

    load()

    assert not Resource.objects.filter(slug="gpu-mode-40").exists()
    assert not Pairing.objects.filter(resource__slug="gpu-mode-40").exists()


def test_a_chapter_and_an_architecture_removed_in_admin_stay_removed(seed):
    """Chapter 2.5 (its pairings with it) and Rubin go; the load still succeeds without them."""
    Chapter.objects.filter(part__number=2, number=5).delete()
    Architecture.objects.filter(slug="rubin").delete()

    load()

    assert not Chapter.objects.filter(part__number=2, number=5).exists()
    assert places("gpu-mode-9") == []
    assert not Architecture.objects.filter(slug="rubin").exists()


def test_text_edited_in_admin_is_kept(seed):
    """A resource's title, a stage's title and a step's note, as the curator wrote them."""
    Resource.objects.filter(slug="gpu-mode-15").update(title_fr="CUTLASS, par Eric Auld")
    Stage.objects.filter(order=1).update(title_fr="La première semaine")
    Step.objects.filter(resource__slug="gpu-mode-3").update(note_fr="1 h 10")

    load()

    assert Resource.objects.get(slug="gpu-mode-15").title_fr == "CUTLASS, par Eric Auld"
    assert Stage.objects.get(order=1).title_fr == "La première semaine"
    assert Step.objects.get(resource__slug="gpu-mode-3").note_fr == "1 h 10"


def test_a_chapter_title_still_empty_is_filled_in_and_a_curators_title_is_kept(tmp_path, db):
    """Titles the file gives later reach chapters still untitled, never one a curator named."""
    path = tmp_path / "curriculum.yaml"
    path.write_text("parts: [{number: 2}]\nchapters: [{part: 2, number: 5}, {part: 2, number: 6}]")
    load(str(path))
    Chapter.objects.filter(number=6).update(title_fr="Le titre d’une curatrice")
    path.write_text(
        "parts: [{number: 2}]\n"
        "chapters: [{part: 2, number: 5, title: Réductions}, {part: 2, number: 6, title: Autre}]"
    )

    output = load(str(path))

    assert dict(Chapter.objects.values_list("number", "title_fr")) == {
        5: "Réductions",
        6: "Le titre d’une curatrice",
    }
    assert "0 created, 1 updated." in output


def test_update_makes_again_what_curators_moved_or_deleted(seed):
    """With --update the file wins: the deleted resource and the moved pairing come back."""
    Resource.objects.filter(slug="gpu-mode-40").delete()
    Pairing.objects.filter(resource__slug="gpu-mode-9").update(
        chapter=Chapter.objects.get(part__number=5, number=2)
    )

    load("--update")

    assert Resource.objects.filter(slug="gpu-mode-40").exists()
    assert (2, 5, "with") in places("gpu-mode-9")
    assert load().endswith("0 created, 0 updated.\n")


def test_new_entries_of_the_file_are_still_created(tmp_path, db):
    """An entry the file gains after the first load is created at the next one, and recorded."""
    path = tmp_path / "curriculum.yaml"
    path.write_text("parts: [{number: 2}]")
    load(str(path))
    path.write_text("parts: [{number: 2}, {number: 3}]")

    output = load(str(path))

    assert "1 created" in output
    assert list(Part.objects.values_list("number", flat=True)) == [2, 3]
    assert list(LoadedEntry.objects.values_list("key", flat=True)) == ["part 2", "part 3"]


@pytest.mark.parametrize("model", [Part, Resource])
def test_a_row_a_curator_made_before_the_file_named_it_is_kept(tmp_path, db, model):
    """The file's entry meets a row made in admin with its key: the row stays as made."""
    path = tmp_path / "curriculum.yaml"
    if model is Part:
        Part.objects.create(number=4, title_fr="Faite à la main")
        path.write_text("parts: [{number: 4, title: Du fichier}]")
    else:
        Resource.objects.create(slug="talk", kind="talk", title_fr="Faite à la main")
        path.write_text("resources: [{slug: talk, kind: talk, title: Du fichier}]")

    load(str(path))

    assert model.objects.get().title_fr == "Faite à la main"
