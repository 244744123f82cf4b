"""A resource's watch controls (templates/progress/_watch.jinja, built by
progress.pages.watch_controls) are one block for every page and every state: their ids carry the
place's prefix, each form's htmx answer replaces the block it is in, and nothing tells the server
which page or place the click came from; without JavaScript each form comes back to its place."""

import datetime
import re

import pytest
from django.template import engines
from django.test import RequestFactory
from django.utils import translation

from curriculum.models import Resource
from progress.models import Watch
from progress.pages import watch_controls
from progress.path import ResourceState

RESOURCES = {
    "short video": {"kind": "lecture", "duration_minutes": 60},
    "long course": {"kind": "course", "duration_minutes": 600},
    "unknown length": {"kind": "talk", "duration_minutes": None},
    "channel": {"kind": "channel", "duration_minutes": None},
}
WATCHES = {
    "none": None,
    "sittings": {"logged_minutes": 30},
    "finished": {
        "logged_minutes": 0,
        "finished_at": datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC),
    },
}
WAYS = {
    "page": {},
    "answer": {},
    "confirming": {"confirming": True},
    "refused": {"error": "Too many minutes <b>", "minutes": "9999"},
    "out of band": {"oob": True},
}
JINJA = (
    '{% from "progress/_watch.jinja" import watch_controls %}'
    "{{ watch_controls(c, back, csrf_input, **options) }}"
)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("watch", WATCHES)
@pytest.mark.parametrize("kind", RESOURCES)
def test_the_controls_answer_their_own_block(language, kind, watch, way):
    """Every form posts to its resource and is answered over its own block; next keeps the
    place's anchor; no hidden field names a page or a place; the title is escaped."""
    resource = Resource(slug="cuda-1", title="Kernels & <warps>", **RESOURCES[kind])
    row = None if WATCHES[watch] is None else Watch(resource=resource, **WATCHES[watch])
    state = ResourceState(resource=resource, watch=row)
    request = RequestFactory().get("/path/")
    controls = watch_controls(state, "step-12", anchor="#step-12")
    with translation.override(language):
        html = (
            engines["jinja2"]
            .from_string(JINJA)
            .render({"c": controls, "back": "/path/?a=1&b=<c>", "options": WAYS[way]}, request)
        )
    block = re.match(
        r'\s*<div class="watch watch--[a-z_]+" id="step-12-watch"( hx-swap-oob)?', html
    )
    assert block is not None
    forms = html.count("<form ")
    assert forms >= 1
    assert html.count('hx-target="closest .watch" hx-swap="outerHTML"') == forms
    assert html.count('name="csrfmiddlewaretoken"') == forms
    assert html.count('name="next" value="/path/?a=1&amp;b=&lt;c&gt;#step-12"') == forms
    assert 'name="page"' not in html and 'name="place"' not in html
    assert 'id="step-12-toggle"' in html
    assert "<warps>" not in html and "Kernels &amp; &lt;warps&gt;" in html
    assert ('id="step-12-minutes"' in html) == state.takes_sittings
    if state.takes_sittings:
        # The field's unit follows it: on the path's tiles its label is for screen readers only.
        unit = (
            r'id="step-12-minutes"[^>]*>\s*<span class="watch__unit" aria-hidden="true">min</span>'
        )
        assert re.search(unit, html)
        # The path's tiles keep the form of a video of unknown length off (the stylesheet).
        unmapped = "watch__sitting--unmapped" in html
        assert unmapped == (not state.takes_sittings_on_the_map)
