"""The curriculum's text in the learner's language: English where written, the French otherwise."""

import io
from html import unescape

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from api.models import AccessToken
from curriculum.models import Path, Resource, Series, Stage, Step
from tests.factories import ResourceFactory, SeriesFactory

EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}


def page(client, url, headers):
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def test_an_english_visitor_reads_the_path_in_english(client, seed):
    """Stage names, the introduction, notes, the GPU step and the 1:3 rule, as written in English."""
    html = page(client, reverse("progress:path"), EN)
    assert "A suggested video path" in html
    assert "Week 2-3" in html and "Then, as needed" in html
    assert "many concepts are easier to understand with an animated diagram" in html
    assert "12 h, in several sittings" in html
    assert "GTC: the architecture session of your card" in html
    assert "one hour of video for three hours of code" in html
    assert "Semaine 2-3" not in html and "Le rapport qui fonctionne" not in html


def test_a_french_visitor_reads_the_path_in_french(client, seed):
    """The same page in French shows the seed's own text."""
    html = page(client, reverse("progress:path"), FR)
    assert "Un parcours vidéo suggéré" in html
    assert "Semaine 2-3" in html and "Ensuite, au fil des besoins" in html
    assert "une heure de vidéo pour trois heures de code" in html
    assert "12 h, en plusieurs fois" in html
    assert "Week 2-3" not in html and "The ratio that works" not in html


def test_the_dashboard_shows_stages_the_rule_and_why_start_here_in_english(learner_client, seed):
    """A newcomer's dashboard: the path, its stages, the 1:3 callout and the start-here reason."""
    html = page(learner_client, reverse("progress:home"), EN)
    assert "A suggested video path" in html
    assert "Week 1" in html and "Week 4" in html
    assert "The ratio that works: one hour of video for three hours of code." in html
    assert "If you watch only one video about the GPU" in html
    assert "Semaine 1" not in html and "La vidéo ne remplace pas le code" not in html


def test_the_dashboard_stays_french_for_a_french_learner(learner_client, seed):
    """The French learner's dashboard keeps the seed's own text."""
    html = page(learner_client, reverse("progress:home"), FR)
    assert "Semaine 1" in html
    assert "Le rapport qui fonctionne : une heure de vidéo pour trois heures de code." in html
    assert "Week 1" not in html


def test_the_catalogue_shows_english_titles_summaries_topics_and_series(client, seed):
    """Series and resource titles written in French, summaries and topics, in English."""
    html = unescape(page(client, reverse("progress:catalogue"), EN))
    assert "Recorded university courses" in html
    assert "NVIDIA's official tutorials" in html
    assert "Series on the basics, kernels, memory" in html
    assert "Low precision" in html
    assert "Cours universitaires enregistrés" not in html
    assert "Basse précision" not in html


def test_the_resource_page_shows_the_english_summary_reason_and_series(client, seed):
    """How GPU Computing Works: its summary, why to start there, its series' description."""
    url = reverse("progress:resource_detail", args=["how-gpu-computing-works"])
    html = page(client, url, EN)
    assert "the throughput/latency trade-off, DRAM" in html
    assert "It is the content of part 1 of the guide" in html
    assert "Stephen Jones is the chief architect of CUDA." in html
    assert "le compromis débit/latence" not in html


def test_a_talk_keeps_its_own_title_and_speaker_in_english(client, seed):
    """Names and talk titles stay as given: no English is written for them."""
    url = reverse("progress:resource_detail", args=["gpu-mode-36"])
    html = page(client, url, EN)
    assert "CUTLASS and Flash ATtention 3" in html and "Jay Shah" in html
    assert "CUTLASS and CuTe" in html  # its topic, translated


def test_text_with_no_english_falls_back_to_the_french(client, db):
    """A curator who wrote only the French: English pages show it rather than nothing."""
    series = SeriesFactory(name_fr="Conférences choisies", description_fr="Une sélection.")
    ResourceFactory(
        slug="a-talk", series=series, title_fr="Une conférence", summary_fr="Le résumé français."
    )
    html = page(client, reverse("progress:resource_detail", args=["a-talk"]), EN)
    assert "Une conférence" in html
    assert "Le résumé français." in html
    assert "Une sélection." in html


def test_an_english_page_costs_the_same_queries_as_a_french_one(learner_client, seed):
    """Both languages live in the same rows: choosing one adds no query."""
    for url in (
        reverse("progress:home"),
        reverse("progress:path"),
        "/resources/",
        "/resources/gpu-mode-15/",
    ):
        page(learner_client, url, FR)
        counts = []
        for headers in (FR, EN):
            with CaptureQueriesContext(connection) as queries:
                page(learner_client, url, headers)
            counts.append(len(queries))
        assert counts[0] == counts[1], url


def test_the_api_answers_in_the_requests_language(client, learner, seed):
    """The resource's summary and the path's stages follow Accept-Language."""
    _token, clear = AccessToken.objects.create_for(user=learner, name="laptop", scope="read")
    auth = {"Authorization": f"Bearer {clear}"}
    url = "/api/v1/resources/how-gpu-computing-works"
    english = client.get(url, headers={**auth, **EN}).json()
    french = client.get(url, headers={**auth, **FR}).json()
    assert english["summary"].startswith("the throughput/latency trade-off")
    assert french["summary"].startswith("le compromis débit/latence")
    summary = client.get("/api/v1/summary", headers={**auth, **EN}).json()
    assert "Week 1" in str(summary) and "Semaine 1" not in str(summary)


def change_series(client, series, **fields):
    url = reverse("admin:curriculum_series_change", args=[series.pk])
    data = {"slug": series.slug, "order": 0, "search_place": "channel", **fields}
    return client.post(url, data)


def test_a_curator_writes_both_languages_in_admin(client, curator, db):
    """The change form has a French and an English field for each text; both are saved."""
    series = SeriesFactory(slug="talks", name_fr="Conférences")
    client.force_login(curator)
    form = page(client, reverse("admin:curriculum_series_change", args=[series.pk]), FR)
    assert 'name="name_fr"' in form and 'name="name_en"' in form
    response = change_series(
        client,
        series,
        name_fr="Conférences",
        name_en="Talks",
        description_fr="Des conférences.",
        description_en="Talks.",
    )
    assert response.status_code == 302
    series.refresh_from_db()
    assert (series.name_fr, series.name_en) == ("Conférences", "Talks")
    assert (series.description_fr, series.description_en) == ("Des conférences.", "Talks.")


def test_admin_requires_the_french_and_leaves_the_english_optional(client, curator, db):
    """No French name: refused. No English: saved, and English pages show the French."""
    series = SeriesFactory(slug="talks", name_fr="Conférences")
    client.force_login(curator)
    refused = change_series(client, series, name_fr="", name_en="Talks")
    assert refused.status_code == 200
    assert "name_fr" in refused.context["adminform"].form.errors
    saved = change_series(client, series, name_fr="Exposés", name_en="")
    assert saved.status_code == 302
    series.refresh_from_db()
    assert series.name_fr == "Exposés"
    assert not series.name_en


YAML = """
series:
  - {slug: talks, name: Conférences, name_en: Talks, description: Des conférences.}
resources:
  - slug: a-talk
    kind: talk
    series: talks
    title: Une conférence
    title_en: A talk
    summary: Le résumé.
    summary_en: The summary.
paths:
  - slug: the-path
    title: Le parcours
    title_en: The path
    rule: Une heure pour trois.
    rule_en: One hour for three.
    stages:
      - title: Semaine 1
        title_en: Week 1
        steps:
          - {resource: a-talk, note: 1 h, note_en: 1 hour}
"""


def load(tmp_path, text=YAML, *options):
    file = tmp_path / "curriculum.yaml"
    file.write_text(text, encoding="utf-8")
    out = io.StringIO()
    call_command("load_curriculum", str(file), *options, stdout=out)
    return out.getvalue()


def test_load_curriculum_loads_the_french_and_the_english(tmp_path, db):
    """Each text's French from its field, its English from the field with _en; none left empty."""
    load(tmp_path)
    resource = Resource.objects.get(slug="a-talk")
    assert (resource.title_fr, resource.title_en) == ("Une conférence", "A talk")
    assert (resource.summary_fr, resource.summary_en) == ("Le résumé.", "The summary.")
    series = Series.objects.get(slug="talks")
    assert (series.name_fr, series.name_en) == ("Conférences", "Talks")
    assert (series.description_fr, series.description_en) == ("Des conférences.", "")
    path = Path.objects.get(slug="the-path")
    assert (path.rule_fr, path.rule_en) == ("Une heure pour trois.", "One hour for three.")
    assert Stage.objects.get().title_en == "Week 1"
    assert (Step.objects.get().note_fr, Step.objects.get().note_en) == ("1 h", "1 hour")


def test_loading_twice_changes_nothing(tmp_path, db):
    """The second run finds both languages as the file gives them."""
    load(tmp_path)
    assert load(tmp_path).endswith("0 created, 0 updated.\n")


def test_loading_fills_in_missing_english_and_keeps_curators_french(tmp_path, db):
    """A database loaded before the English was written gains it; a curator's French stays."""
    load(tmp_path, YAML.replace("    summary_en: The summary.\n", ""))
    Resource.objects.filter(slug="a-talk").update(title_fr="Une conférence revue", title_en="")
    load(tmp_path)
    resource = Resource.objects.get(slug="a-talk")
    assert (resource.title_fr, resource.title_en) == ("Une conférence revue", "A talk")
    assert resource.summary_en == "The summary."


def test_loading_keeps_english_a_curator_wrote(tmp_path, db):
    """English already written is a curator's edit: kept without --update."""
    load(tmp_path)
    Resource.objects.filter(slug="a-talk").update(title_en="A curated talk")
    load(tmp_path)
    assert Resource.objects.get(slug="a-talk").title_en == "A curated talk"


def test_english_for_a_field_that_is_not_translated_is_refused(tmp_path, db):
    """Names of people are not translated: speaker_en is a misspelt field, not silently dropped."""
    from django.core.management.base import CommandError

    text = YAML.replace("    title_en: A talk\n", "    speaker_en: Someone\n")
    with pytest.raises(CommandError, match=r"unknown field.*speaker_en"):
        load(tmp_path, text)
    assert not Resource.objects.exists()


def test_the_seed_has_english_for_every_text_written_in_french(seed):
    """The path, its stages and the summaries of the seed all have their English."""
    path = Path.objects.get()
    assert path.title_en and path.introduction_en and path.rule_en
    assert all(stage.title_en for stage in Stage.objects.all())
    assert not Resource.objects.exclude(summary_fr="").filter(summary_en="").exists()
    assert not Series.objects.exclude(description_fr="").filter(description_en="").exists()


def test_a_signed_in_english_learner_reads_stages_and_notes_on_the_path(learner_client, seed):
    """The learner's own path page names the stages in English; the compact map leaves a step's
    note to the resource page, which says where the step stands in the path, in English too."""
    html = page(learner_client, reverse("progress:path"), EN)
    assert "Week 2-3" in html and "Semaine 2-3" not in html
    course = page(
        learner_client, reverse("progress:resource_detail", args=["freecodecamp-cuda-course"]), EN
    )
    assert "In the suggested path" in course
    assert "Week 2-3</a> · 12 h, in several sittings" in course and "plusieurs fois" not in course


@pytest.mark.parametrize(
    ("model", "slug_field", "slug", "fields"),
    [
        ("resource", "slug", "how-gpu-computing-works", ["title", "summary", "start_here_reason"]),
        ("path", "slug", "parcours-video-suggere", ["title", "introduction", "rule"]),
        ("stage", "order", 2, ["title", "steps-0-note"]),
    ],
)
def test_each_change_form_offers_the_french_and_the_english(
    client, curator, seed, model, slug_field, slug, fields
):
    """Resource fieldsets, the path and its stages, a stage and its steps: both languages."""
    from django.apps import apps

    row = apps.get_model("curriculum", model).objects.get(**{slug_field: slug})
    client.force_login(curator)
    html = page(client, reverse(f"admin:curriculum_{model}_change", args=[row.pk]), FR)
    for name in fields:
        assert f'name="{name}_fr"' in html and f'name="{name}_en"' in html, name
