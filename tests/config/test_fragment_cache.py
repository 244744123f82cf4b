"""The fragment cache of the Jinja2 templates (config/jinja.py's `{% cache %}`): a fragment is
written once per curriculum revision, language and the parts its tag names, and printed again
from Django's cache."""

import pytest
from django.core.cache import caches
from django.template import engines
from django.utils import translation

from curriculum import structure
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db

TEMPLATE = """{% cache "card", card_id %}<p>{{ _("Watched") }} {{ card_id }} {{ count() }}</p>{% endcache %}"""


@pytest.fixture
def render():
    """render(card_id): the template printed with a counter of how often its fragment was
    written, in the active language."""
    template = engines["jinja2"].env.from_string(TEMPLATE)
    written = []

    def count():
        written.append(1)
        return len(written)

    def rendered(card_id):
        return template.render(card_id=card_id, count=count)

    caches["fragments"].clear()
    yield rendered
    caches["fragments"].clear()


def test_a_fragment_is_written_once_then_printed_from_the_cache(render):
    """The second render prints the first one's HTML: its counter did not move."""
    structure.current()
    with translation.override("en"):
        first, second = render(7), render(7)
    assert first == second == "<p>Watched 7 1</p>"


def test_each_value_of_the_tags_parts_has_its_own_fragment(render):
    structure.current()
    with translation.override("en"):
        assert render(7) == "<p>Watched 7 1</p>"
        assert render(8) == "<p>Watched 8 2</p>"
        assert render(7) == "<p>Watched 7 1</p>"


def test_another_language_writes_its_own_fragment(render):
    structure.current()
    with translation.override("en"):
        english = render(7)
    with translation.override("fr"):
        french = render(7)
    assert english == "<p>Watched 7 1</p>"
    assert french == "<p>Regardé 7 2</p>"


def test_a_new_curriculum_revision_writes_the_fragment_anew(render):
    """A curator's edit renews the revision token (database triggers): the next request's
    curriculum is read at the new one, and the fragment is written again."""
    structure.current()
    with translation.override("en"):
        before = render(7)
        ResourceFactory(title="A new talk")
        structure.current()
        after = render(7)
    assert before == "<p>Watched 7 1</p>"
    assert after == "<p>Watched 7 2</p>"


def test_the_fragment_is_escaped_as_the_template_printed_it(render):
    """What the cache gives back is the template's own output, not escaped a second time."""
    structure.current()
    template = engines["jinja2"].env.from_string('{% cache "x" %}{{ text }}{% endcache %}')
    with translation.override("en"):
        first = template.render(text="<b>")
        again = template.render(text="<i>")
    assert first == again == "&lt;b&gt;"
