"""The admin names steps and stages with the words the learner pages use, in both languages."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

# One word per concept: a step is what the learner pages count ("Steps done", "Étapes faites"),
# so in French a stage (a span of weeks) cannot be an "étape" too.
WORDS = {
    "fr": {"step": "Étape", "steps": "Étapes", "stage": "Période", "stages": "Périodes"},
    "en": {"step": "Step", "steps": "Steps", "stage": "Stage", "stages": "Stages"},
}


def text_of(html):
    """The words of an HTML fragment, without tags or the admin's sort controls."""
    html = re.sub(r'<div class="sortoptions">.*?</div>', "", html, flags=re.DOTALL)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def column_headings(page):
    """The column headings of the page's first table head."""
    head = re.search(r"<thead>(.*?)</thead>", page, flags=re.DOTALL).group(1)
    return [text_of(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", head, flags=re.DOTALL)]


def first_text(pattern, page):
    return text_of(re.search(pattern, page, flags=re.DOTALL).group(1))


@pytest.fixture
def curator_client(client, curator, seed):
    client.force_login(curator)
    return client


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_step_changelist_headings_use_the_learner_pages_words(curator_client, language):
    """The steps' list heads its columns "Step" and "Stage"; the curators' page says "Step" too."""
    words = WORDS[language]
    headers = {"accept-language": language}
    changelist = curator_client.get(reverse("admin:curriculum_step_changelist"), headers=headers)
    progress_page = curator_client.get(reverse("curation:curator_progress"), headers=headers)
    assert changelist.status_code == progress_page.status_code == 200
    assert column_headings(changelist.content.decode())[1:3] == [words["step"], words["stage"]]
    assert column_headings(progress_page.content.decode())[0] == words["step"]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_stage_page_lists_its_steps_under_the_learner_pages_word(curator_client, language):
    """A stage's change page titles itself with "stage" and heads its inline "Steps"."""
    words = WORDS[language]
    stage = curator_client.get(reverse("admin:curriculum_stage_changelist")).context["cl"]
    page = curator_client.get(
        reverse("admin:curriculum_stage_change", args=[stage.result_list[0].pk]),
        headers={"accept-language": language},
    ).content.decode()
    assert words["stage"].lower() in first_text(r"<title>(.*?)</title>", page).split()
    assert first_text(r'<h2 id="steps-heading"[^>]*>(.*?)</h2>', page) == words["steps"]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_admin_index_names_steps_and_stages_by_the_learner_pages_words(
    curator_client, language
):
    """The curriculum's models in the admin index read "Steps" and "Stages", never "Pas"."""
    words = WORDS[language]
    page = curator_client.get(
        reverse("admin:index"), headers={"accept-language": language}
    ).content.decode()
    assert first_text(r'<th scope="row" id="curriculum-step">(.*?)</th>', page) == words["steps"]
    assert first_text(r'<th scope="row" id="curriculum-stage">(.*?)</th>', page) == words["stages"]
