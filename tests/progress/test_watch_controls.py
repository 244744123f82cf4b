"""The watch controls of the Jinja2 pages (templates/progress/_watch.jinja) are those of the Django
pages (templates/progress/_watch.html#controls), for every state and every way a page shows them."""

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
    "catalogue": {},
    "path tile": {"page": "path", "compact": True, "secondary": True},
    "answer": {"oob": True},
    "confirming": {"confirming": True, "page": "resource", "oob": True},
    "refused": {"error": "Too many minutes <b>", "minutes": "9999", "oob": True},
}
JINJA = (
    '{% from "progress/_watch.jinja" import watch_controls with context %}'
    "{{ watch_controls(c, back, **options) }}"
)
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="\w+"')


def words(html):
    return re.sub(r"\s+", " ", TOKEN.sub("", html)).replace("> <", "><").strip()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("watch", WATCHES)
@pytest.mark.parametrize("kind", RESOURCES)
def test_the_jinja_controls_are_the_django_ones(language, kind, watch, way):
    """Same state, bar, buttons, forms and error, in both languages."""
    resource = Resource(slug="cuda-1", title="Kernels & <warps>", **RESOURCES[kind])
    row = None if WATCHES[watch] is None else Watch(resource=resource, **WATCHES[watch])
    state = ResourceState(resource=resource, watch=row)
    request = RequestFactory().get("/resources/")
    options = WAYS[way]
    back = "/resources/?q=a&b=<c>#resource-cuda-1"
    with translation.override(language):
        django_html = (
            engines["django"]
            .get_template("progress/_watch.html#controls")
            .render({"state": state, "place": "watch-cuda-1", "next_url": back, **options}, request)
        )
        jinja_html = (
            engines["jinja2"]
            .from_string(JINJA)
            .render(
                {"c": watch_controls(state, "watch-cuda-1"), "back": back, "options": options},
                request,
            )
        )
    assert "watch-cuda-1-toggle" in jinja_html
    assert words(jinja_html) == words(django_html)
