"""The template engine of the site (Django's serves the admin alone).

Templates end in `.jinja`, live in templates/, extend templates/base.jinja, and print a view
model their view built. Django's Jinja2 backend passes them `request`, `csrf_token` and
`csrf_input`; the token is read once per render (`Template.render`).

Translations go through Django's gettext with Jinja2's new-style `_()` and `{% trans %}`, so
the msgids are written as Django's templates write them, and `make messages` extracts them into
the catalogues (curriculum/management/commands/makemessages.py).
"""

import hashlib
from collections.abc import Callable
from functools import cache

import jinja2
from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import caches
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.middleware.csrf import get_token
from django.template import defaultfilters
from django.template.backends import jinja2 as django_jinja2
from django.templatetags.static import static
from django.test.signals import template_rendered
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.module_loading import import_string
from django_htmx.jinja import htmx_script
from jinja2 import nodes
from jinja2.ext import Extension
from markupsafe import Markup


@cache
def _reversed(name, urlconf, script_prefix):
    return reverse(name, urlconf=urlconf)


def url(name, *args, **kwargs):
    """The path of a named URL, as `{% url %}` gives it; one without arguments is reversed once
    per process, URLconf and script prefix (a page prints a dozen: the menu, its forms)."""
    if args or kwargs:
        return reverse(name, args=args or None, kwargs=kwargs or None)
    return _reversed(name, get_urlconf() or settings.ROOT_URLCONF, get_script_prefix())


def language_choices():
    """(code, name in its own language) of every interface language, for the switcher."""
    return [
        (code, defaultfilters.capfirst(translation.get_language_info(code)["name_local"]))
        for code, _name in settings.LANGUAGES
    ]


@jinja2.pass_eval_context
def translate(eval_ctx, message, **variables):
    """`_()` as Jinja2's new-style gettext answers it (the translation formatted with the
    variables, as Markup when escaping), called at once rather than through two context calls,
    and not formatted when there is nothing to format: 5.7 us to about 1, fifty times a page."""
    translated = translation.gettext(message)
    if eval_ctx.autoescape:
        translated = Markup(translated)
    if variables or "%" in translated:
        return translated % variables
    return translated


@receiver(setting_changed)
def forget_static_urls(**kwargs):
    """A test's settings may change where the static files are."""
    cached_static.cache_clear()


@cache
def cached_static(path):
    """The URL of a static file, as `{% static %}` gives it, looked up once per process."""
    return static(path)


class FragmentCache(Extension):
    """`{% cache part, ... %}...{% endcache %}`: the HTML between the tags, kept in Django's cache
    "fragments" and printed again from it while the key holds (the Jinja2 documentation's
    FragmentCacheExtension, as DMOJ uses it).

    The key is the template and line of the tag, the curriculum revision the request read
    (`fragment_revision`, a dotted path in the engine's OPTIONS), the active language and the
    parts the tag gives: what the fragment prints must follow from exactly those, and hold
    nothing of a learner (docs/development.md, "How a page is built"). Before the request has
    read a revision, the fragment is printed without the cache.
    """

    tags = {"cache"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        parts = [parser.parse_expression()]
        while parser.stream.skip_if("comma"):
            parts.append(parser.parse_expression())
        body = parser.parse_statements(("name:endcache",), drop_needle=True)
        place = nodes.Const(f"{parser.name}:{lineno}")
        call = self.call_method("_cached", [place, nodes.List(parts)])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _cached(self, place: str, parts: list, caller: Callable[[], str]) -> str:
        revision = self.environment.fragment_revision()  # type: ignore[attr-defined]
        if revision is None:
            return Markup(caller())
        written = repr((place, revision, translation.get_language(), parts))
        key = "fragment:" + hashlib.blake2b(written.encode(), digest_size=16).hexdigest()
        store = caches["fragments"]
        html = store.get(key)
        if html is None:
            html = caller()
            store.set(key, html, FRAGMENT_TIMEOUT)
        return Markup(html)  # the template's own output, escaped as it printed it


# A fragment outlives no revision (its key names it); this only frees what no key reaches.
FRAGMENT_TIMEOUT = 24 * 60 * 60


class JinjaFiles(jinja2.FileSystemLoader):
    """The .jinja files of the folders, and no other: the Django engine's templates (the
    admin's) share templates/ and are left to it."""

    def get_source(self, environment, template):
        if not template.endswith(".jinja"):
            raise jinja2.TemplateNotFound(template)
        return super().get_source(environment, template)


def environment(**options):
    """A Jinja2 environment with Django's translations, URLs, static files, messages, filters
    and the fragment cache."""
    # A name the view model lacks is a bug to see, not an empty string to ship.
    options["undefined"] = jinja2.StrictUndefined
    options["loader"] = JinjaFiles(options["loader"].searchpath)
    revision_of = options.pop("fragment_revision", None)
    revision = import_string(revision_of) if revision_of else lambda: None
    own_filters = {name: import_string(path) for name, path in options.pop("filters", {}).items()}
    own_globals = {name: import_string(path) for name, path in options.pop("globals", {}).items()}
    env = jinja2.Environment(extensions=["jinja2.ext.i18n", FragmentCache], **options)
    env.filters.update(
        date=defaultfilters.date,
        floatformat=defaultfilters.floatformat,
        linebreaks=defaultfilters.linebreaks_filter,
        **own_filters,
    )
    env.extend(fragment_revision=revision)
    env.install_gettext_callables(
        translation.gettext,
        translation.ngettext,
        newstyle=True,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(
        _=translate,
        url=url,
        static=cached_static,
        language_choices=language_choices,
        htmx_script=htmx_script,
        current_language=translation.get_language,
        get_messages=get_messages,
        **own_globals,
    )
    return env


# Django's hidden field (django/template/backends/utils.py), of the token read once.
CSRF_INPUT = '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'


class Jinja2(django_jinja2.Jinja2):
    """Django's Jinja2 backend, with the CSRF token read once per render."""

    def get_template(self, template_name):
        return Template(super().get_template(template_name).template, self)

    def from_string(self, template_code):
        return Template(self.env.from_string(template_code), self)


class Template(django_jinja2.Template):
    def __init__(self, template, backend):
        super().__init__(template, backend)
        self.name = template.name

    def render(self, context=None, request=None):
        context = {} if context is None else context
        if request is not None:
            # Django's backend passes csrf_token and csrf_input as lazy values that mask the
            # secret anew at each use: read Django's token once, so that the page's htmx header
            # and every form of it carry the same value.
            token = get_token(request)
            context["request"] = request
            context["csrf_token"] = token
            context["csrf_input"] = format_html(CSRF_INPUT, token)
        # The test client's response.context and templates, as for the Django engine; a signal
        # with no receiver (outside tests) returns at once.
        template_rendered.send(sender=self, template=self, context=context)
        return self.template.render(context)
