"""The Jinja2 engine of the learner pages (issue #26), beside the Django engine of the others.

Pages whose time mattered were rendered 2-4x faster by Jinja2 for the same HTML (the profile of
2026-12-03): their templates end in `.jinja`, live beside the Django ones in templates/, and
print a view model their view built; the layout is templates/base.jinja, kept the same as
templates/base.html (tests/config/test_jinja_pages.py compares them).

Translations go through Django's gettext with Jinja2's new-style `_()` and `{% trans %}`, so
the msgids are those of the Django templates, and `make messages` extracts them into the same
catalogues (curriculum/management/commands/makemessages.py).
"""

from functools import cache

import jinja2
from django.conf import settings
from django.contrib.messages import get_messages
from django.middleware.csrf import get_token
from django.template.backends import jinja2 as django_jinja2
from django.template.defaultfilters import capfirst
from django.templatetags.static import static
from django.test.signals import template_rendered
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import translation
from django_htmx.jinja import htmx_script
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
        (code, capfirst(translation.get_language_info(code)["name_local"]))
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


def environment(**options):
    """A Jinja2 environment with Django's translations, URLs, static files and messages."""
    # A name the view model lacks is a bug to see, not an empty string to ship.
    options["undefined"] = jinja2.StrictUndefined
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"], **options)
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
        static=static,
        get_language=translation.get_language,
        get_messages=get_messages,
        language_choices=language_choices,
        htmx_script=htmx_script,
    )
    return env


def csrf_input(token: str) -> Markup:
    """The hidden field of a form's CSRF token, as `{{ csrf_input }}` prints it."""
    return Markup('<input type="hidden" name="csrfmiddlewaretoken" value="{}">').format(token)


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
            # Django's backend passes lazy values that mask a fresh token at every use (3,100
            # random draws on a catalogue page): read it once, as the Django engine does, or
            # take the one the view printed in its view model, so the page has one value.
            token = context.get("csrf_token") or get_token(request)
            context["request"] = request
            context["csrf_token"] = token
            context["csrf_input"] = csrf_input(token)
        # The test client's response.context and templates, as for the Django engine; a signal
        # with no receiver (outside tests) returns at once.
        template_rendered.send(sender=self, template=self, context=context)
        return self.template.render(context)
