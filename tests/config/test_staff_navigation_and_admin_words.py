"""Staff reach curation from the site's navigation; the admin speaks French to the end, the task
queue included (config/task_queue.py)."""

import pytest
from django.urls import reverse

from reminders.tasks import send_digest

pytestmark = pytest.mark.django_db

CURATION_LINK = f'<li><a href="{reverse("admin:index")}">Curation</a></li>'


@pytest.mark.parametrize("path", ["/", "/resources/", "/stats/"])
def test_staff_see_a_curation_link_and_learners_do_not(client, learner, curator, path):
    client.force_login(curator)
    assert CURATION_LINK in client.get(path).content.decode()
    client.force_login(learner)
    assert CURATION_LINK not in client.get(path).content.decode()


def test_the_task_queue_is_named_in_french_in_the_admin(client, curator):
    client.force_login(curator)
    home = client.get(reverse("admin:index"), headers={"accept-language": "fr"}).content.decode()
    assert "File des tâches" in home
    assert "Résultats de tâches" in home
    assert "Tasks Database Backend" not in home
    assert "Task Results" not in home
    send_digest.enqueue(0)  # a row, so that the list has its table and column titles
    listing = client.get(
        reverse("admin:django_tasks_database_dbtaskresult_changelist"),
        headers={"accept-language": "fr"},
    ).content.decode()
    assert "résultat de tâche" in listing.lower()
    for heading in [
        "Tâche",
        "État",
        "Mise en file le",
        "Commencé le",
        "Priorité",
        "Nom de la file",
    ]:
        assert f">{heading}</a>" in listing or f">{heading}</span>" in listing, heading
    assert "Task name" not in listing


def test_the_task_queue_keeps_english_names_in_english(client, curator):
    client.force_login(curator)
    home = client.get(reverse("admin:index"), headers={"accept-language": "en"}).content.decode()
    assert "Task queue" in home
    assert "Task Results" in home


def test_series_read_as_a_plural_among_plurals_in_the_french_admin(client, curator):
    """The admin's home lists models in the plural: "Séries", not "Série"."""
    client.force_login(curator)
    home = client.get(reverse("admin:index"), headers={"accept-language": "fr"}).content.decode()
    assert ">Séries</a>" in home
    assert ">Série</a>" not in home
