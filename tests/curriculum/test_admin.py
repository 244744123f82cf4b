import pytest
from django.urls import reverse

from curriculum.models import (
    Architecture,
    Chapter,
    GpuCard,
    Pairing,
    Part,
    Path,
    Resource,
    Series,
    Stage,
    Step,
)

MODELS = [Part, Chapter, Series, Architecture, GpuCard, Resource, Pairing, Path, Stage, Step]


def admin_urls(model):
    name = f"admin:curriculum_{model._meta.model_name}"
    instance = model.objects.first()
    return [
        reverse(f"{name}_changelist"),
        reverse(f"{name}_add"),
        reverse(f"{name}_change", args=[instance.pk]),
    ]


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_curators_get_every_admin_page(client, curator, seed, model):
    """Changelist, add and change pages answer 200 for staff."""
    client.force_login(curator)
    for url in admin_urls(model):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_anonymous_visitors_are_sent_to_sign_in(client, seed, model):
    """No admin page is shown to someone signed out."""
    for url in admin_urls(model):
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("admin:login"))


def test_learners_who_are_not_staff_are_refused(learner_client, seed):
    """A signed-in learner without staff status cannot curate."""
    response = learner_client.get(reverse("admin:curriculum_resource_changelist"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


def test_the_changelist_search_finds_by_keyword(client, curator, seed):
    """Curators search resources by keyword."""
    client.force_login(curator)
    response = client.get(reverse("admin:curriculum_resource_changelist"), {"q": "CUTLASS"})
    assert "Eric Auld" in response.content.decode()


def test_a_curator_edits_a_resource_title(client, curator, seed):
    """Saving the change form with its inline pairings keeps the slug and changes the title."""
    client.force_login(curator)
    resource = Resource.objects.get(slug="gpu-mode-9")
    url = reverse("admin:curriculum_resource_change", args=[resource.pk])
    form = client.get(url).context["adminform"].form
    data = {key: value for key, value in form.initial.items() if value is not None}
    data.update(
        title_fr="Reductions, revisited",
        architectures=[],
        **{
            "pairings-TOTAL_FORMS": "1",
            "pairings-INITIAL_FORMS": "1",
            "pairings-0-id": str(resource.pairings.get().pk),
            "pairings-0-resource": str(resource.pk),
            "pairings-0-chapter": str(resource.pairings.get().chapter_id),
            "pairings-0-timing": "with",
        },
    )
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    resource.refresh_from_db()
    assert (resource.title, resource.slug) == ("Reductions, revisited", "gpu-mode-9")


def autocomplete(client, model, field, term):
    response = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "curriculum", "model_name": model, "field_name": field, "term": term},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 200
    return [result["text"] for result in response.json()["results"]]


@pytest.mark.parametrize("term", ["Part 2, chapter 5", "Partie 2, chapitre 5", "2.5", "2 5"])
def test_the_chapter_autocomplete_finds_a_chapter_by_its_numbers(client, curator, seed, term):
    """The pairing's chapter box finds 2.5 by the numbers it shows before the title."""
    client.force_login(curator)
    assert autocomplete(client, "pairing", "chapter", term) == ["Part 2, chapter 5 · Reductions"]


def test_one_number_finds_chapters_of_that_part_or_with_that_number(client, curator, seed):
    """ "5" lists part 5's chapters and every chapter 5."""
    client.force_login(curator)
    assert autocomplete(client, "pairing", "chapter", "5") == [
        "Part 2, chapter 5 · Reductions",
        "Part 5, chapter 2 · Triton",
        "Part 5, chapter 3 · CUTLASS",
    ]


def test_the_part_autocomplete_finds_a_part_by_number(client, curator, seed):
    """Untitled parts are found by their number; words alone and huge numbers find nothing."""
    client.force_login(curator)
    assert autocomplete(client, "pairing", "part", "Part 9") == ["Part 9"]
    assert autocomplete(client, "pairing", "part", "nothing like it") == []
    assert autocomplete(client, "pairing", "part", "99999999999") == []
