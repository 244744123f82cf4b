"""The stats of a new learner: no table of empty weeks, month labels that cannot be confused,
and English typography."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from tests.factories import CodingSessionFactory

URL = reverse("progress:stats")
PARIS = ZoneInfo("Europe/Paris")
pytestmark = pytest.mark.django_db


def weeks_table(html):
    if '<table class="stats-table">' not in html:
        return None
    return html[html.index('<table class="stats-table">') : html.index("</table>")]


@time_machine.travel(datetime(2026, 11, 18, 15, 0, tzinfo=PARIS), tick=False)
def test_a_new_learner_reads_a_sentence_not_twelve_weeks_of_zeros(learner_client):
    html = learner_client.get(URL, headers={"accept-language": "en"}).content.decode()
    assert weeks_table(html) is None
    assert 'class="chart__svg"' not in html
    assert "Nothing watched or coded in these weeks yet" in html
    assert "Video:code balance" in html
    assert "Video : code" not in html


@time_machine.travel(datetime(2026, 11, 18, 15, 0, tzinfo=PARIS), tick=False)
def test_the_table_starts_at_the_first_week_with_something_in_it(learner_client, learner):
    """Coded three weeks ago, nothing since: four rows, the quiet weeks after it included."""
    CodingSessionFactory(user=learner, day=date(2026, 10, 28), minutes=60)
    html = learner_client.get(URL, headers={"accept-language": "en"}).content.decode()
    table = weeks_table(html)
    assert table.count('<tr><th scope="row">') == 4
    assert (
        "26 October 2026 \N{EN DASH} 1 November 2026</th>"
        "<td>0\N{NO-BREAK SPACE}min</td><td>1\N{NO-BREAK SPACE}h</td>"
    ) in table


@time_machine.travel(datetime(2026, 8, 5, 12, 0, tzinfo=PARIS), tick=False)
def test_june_and_july_read_differently_under_the_calendar(learner_client, learner):
    """ "juin" and "juil." in French, "June" and "July" in English: never "jui" twice."""
    CodingSessionFactory(user=learner, day=date(2026, 7, 1))
    french = learner_client.get(URL, headers={"accept-language": "fr"}).content.decode()
    heatmap = french[french.index('class="heatmap"') :]
    assert ">juin</text>" in heatmap
    assert ">juil.</text>" in heatmap
    english = learner_client.get(URL, headers={"accept-language": "en"}).content.decode()
    heatmap = english[english.index('class="heatmap"') :]
    assert ">June</text>" in heatmap and ">July</text>" in heatmap
