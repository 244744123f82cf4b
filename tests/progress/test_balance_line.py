"""The balance line of the Jinja2 pages (templates/progress/_balance.jinja) says what the
Django one (templates/progress/_balance_line.html) says, for every state of a balance."""

import re

import pytest
from django.template import engines
from django.template.defaultfilters import floatformat
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from progress.balance import Balance
from progress.pages import balance_line, tenths

STATES = [
    (watched, coded, this_week)
    for watched, coded in [(0, 0), (0, 45), (60, 200), (60, 90), (90, 270)]
    for this_week in (True, False)
]


def words(html):
    return re.sub(r"\s+", " ", html.replace("&#x27;", "'")).strip()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("watched", "coded", "this_week"), STATES)
def test_the_jinja_balance_line_is_the_django_one(language, watched, coded, this_week):
    """Same sentence, mark, label and meter."""
    balance = Balance(watched=watched, coded=coded, this_week=this_week)
    macros = engines["jinja2"].env.get_template("progress/_balance.jinja").module
    with translation.override(language):
        django_html = (
            engines["django"]
            .get_template("progress/_balance_line.html")
            .render({"balance": balance, "meter_id": "balance-x", "label": "Label"})
        )
        jinja_html = str(macros.balance_line(balance_line(balance), "balance-x", "Label"))
    assert words(jinja_html) == words(django_html)


@pytest.mark.parametrize("language", ["en", "fr"])
@given(
    watched=st.integers(min_value=1, max_value=100_000),
    coded=st.integers(min_value=0, max_value=100_000),
)
def test_the_ratio_is_written_as_floatformat_writes_it(language, watched, coded):
    """Rounded half up to a tenth, with the language's decimal separator."""
    with translation.override(language):
        assert tenths(coded / watched) == floatformat(coded / watched, 1)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("ratio", [0.0, 0.05, 0.15, 0.25, 2.45, 2.95, 3.0, 9.95, 1e-7, 12345.65])
def test_the_ratio_rounds_its_halves_up_as_floatformat_does(language, ratio):
    with translation.override(language):
        assert tenths(ratio) == floatformat(ratio, 1)
