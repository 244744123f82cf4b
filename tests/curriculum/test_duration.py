import pytest
from django.template import engines
from django.utils import translation

from lib.durations import duration
from progress.balance import Balance
from tests.factories import CodingSessionFactory, ResourceFactory


@pytest.mark.parametrize(
    ("minutes", "text"),
    [
        (None, ""),
        (0, "0\u00a0min"),
        (45, "45\u00a0min"),
        (60, "1\u00a0h"),
        (65, "1\u00a0h\u00a005"),
        (90, "1\u00a0h\u00a030"),
        (720, "12\u00a0h"),
        (-5, "0\u00a0min"),
        ("90", "1\u00a0h\u00a030"),
    ],
)
def test_durations_read_as_hours_and_minutes(minutes, text):
    """Minutes are written the way a learner reads them; unknown is empty, never "0 min"."""
    with translation.override("en"):
        assert duration(minutes) == text


def test_the_pages_and_mails_write_lengths_with_the_one_duration():
    """Every template is Jinja2's, whose `duration` filter is lib.durations.duration; the Django
    engine, left to the admin, has no filter of its own to disagree with it."""
    assert engines["jinja2"].env.filters["duration"] is duration
    libraries = engines["django"].engine.template_libraries
    assert not [name for name, library in libraries.items() if "duration" in library.filters]


def test_the_catalogue_the_coding_log_and_the_balance_agree(learner_client, learner):
    """90 minutes is "1 h 30" on a resource page, in the coding log and in the balance sentence."""
    resource = ResourceFactory(slug="scan", duration_minutes=90)
    CodingSessionFactory(user=learner, resource=resource, minutes=90)
    en = {"accept-language": "en"}
    assert "1\u00a0h\u00a030" in learner_client.get("/resources/scan/", headers=en).content.decode()
    log = learner_client.get("/coding/", headers=en).content.decode()
    assert '<td data-label="Time">1\u00a0h\u00a030</td>' in log
    balance = Balance(watched=0, coded=90, this_week=False)
    with translation.override("en"):
        sentence = balance.in_words()
    assert "coded 1\u00a0h\u00a030" in sentence
