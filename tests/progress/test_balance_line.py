"""The balance line of the pages (templates/progress/_balance.jinja): its ratio written as Django's
floatformat writes it, and its shape (progress.pages.balance_html) as the macro prints it."""

import pytest
from django.template.defaultfilters import floatformat
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from progress.pages import tenths

STATES = [
    (watched, coded, this_week)
    for watched, coded in [(0, 0), (0, 45), (60, 200), (60, 90), (90, 270)]
    for this_week in (True, False)
]


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
