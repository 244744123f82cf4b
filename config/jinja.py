"""The Jinja2 engine of the learner pages (issue #26), beside the Django engine of the others.

Pages whose time mattered were rendered 2-4x faster by Jinja2 for the same HTML (the profile of
2026-12-03): their templates end in `.jinja`, live beside the Django ones in templates/, and
print a view model their view built; the layout is templates/base.jinja, kept the same as
templates/base.html (tests/config/test_jinja_pages.py compares them), its HTML written once per
language, kind of visitor and current page from templates/_layout.jinja.

Translations go through Django's gettext with Jinja2's new-style `_()` and `{% trans %}`, so
the msgids are those of the Django templates, and `make messages` extracts them into the same
catalogues (curriculum/management/commands/makemessages.py).
"""

import os
import re
from dataclasses import dataclass
from functools import cache

import jinja2
from django.conf import settings
from django.contrib.messages import get_messages
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token
from django.template.backends import jinja2 as django_jinja2
from django.template.defaultfilters import capfirst
from django.templatetags.static import static
from django.test.signals import template_rendered
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import translation
from django_htmx.jinja import htmx_script
from markupsafe import Markup, escape


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


# Where the page's blocks and each request's values go in the layout written once per process.
# No text of the layout holds a NUL character, nor does a message (PostgreSQL's text cannot, nor
# a form's field).
BLOCK_SLOTS = {name: f"\x00{name}\x00" for name in ("title", "description", "head", "content")}
CSRF_SLOT, USERNAME_SLOT, PATH_SLOT = "\x00csrf\x00", "\x00username\x00", "\x00path\x00"
VALUE_SLOTS = re.compile(f"({CSRF_SLOT}|{USERNAME_SLOT}|{PATH_SLOT})")

# The layout's HTML around the page's blocks, each part split at the request's values' slots.
Pieces = tuple[str, ...]
LayoutParts = tuple[Pieces, Pieces, Pieces, Pieces, Pieces]


@dataclass(frozen=True, slots=True)
class Layout:
    """The layout of one request, as base.jinja prints it around the page's blocks."""

    top: Markup
    after_title: Markup
    after_description: Markup
    after_head: Markup
    bottom: Markup


# By language, URLconf, script prefix, kind of visitor and current page (a handful of keys).
_layouts: dict[tuple, LayoutParts] = {}


@receiver(setting_changed)
def forget_layouts(**kwargs):
    """A test's settings may change the URLs, static files or languages the layout prints."""
    _layouts.clear()
    cached_static.cache_clear()


def layout_parts(env, variables, messages=()) -> LayoutParts:
    """_layout.jinja written with slots for the page's blocks and the request's values."""
    html = env.get_template("_layout.jinja").render(
        **variables,
        **{name: Markup(slot) for name, slot in BLOCK_SLOTS.items()},
        messages=messages,
        csrf_token=Markup(CSRF_SLOT),
        csrf_input=csrf_input(Markup(CSRF_SLOT)),
        username=Markup(USERNAME_SLOT),
        full_path=Markup(PATH_SLOT),
    )
    parts = []
    for slot in BLOCK_SLOTS.values():
        part, html = html.split(slot)
        parts.append(tuple(VALUE_SLOTS.split(part)))
    parts.append(tuple(VALUE_SLOTS.split(html)))
    return tuple(parts)  # type: ignore[return-value]


def filled(pieces: Pieces, values: dict[str, Markup]) -> Markup:
    return Markup("".join([values.get(piece, piece) for piece in pieces]))


@jinja2.pass_environment
def layout_around_blocks(env, request, csrf_token) -> Layout:
    """The layout of this request, its HTML written once per language, kind of visitor and
    current page (about 0.3 ms of Jinja2 a page, to some microseconds): the request's CSRF token,
    name and address put in their slots. A request with messages to show writes it whole."""
    user = request.user
    match = request.resolver_match
    signed_in = user.is_authenticated
    variables = {
        "language": translation.get_language(),
        "signed_in": signed_in,
        "staff": user.is_staff,
        "view_name": match.view_name if match else "",
        "url_name": match.url_name if match else "",
        "in_groups": request.path[:8] == "/groups/",
    }
    messages = get_messages(request)
    if messages:
        parts = layout_parts(env, variables, messages)
    else:
        key = (get_urlconf(), get_script_prefix(), *variables.values())
        parts = _layouts.get(key) or _layouts.setdefault(key, layout_parts(env, variables))
    values = {CSRF_SLOT: escape(csrf_token), PATH_SLOT: escape(request.get_full_path())}
    if signed_in:
        values[USERNAME_SLOT] = escape(user.get_username())
    return Layout(*(filled(pieces, values) for pieces in parts))


@cache
def cached_static(path):
    """The URL of a static file, as `{% static %}` gives it, looked up once per process."""
    return static(path)


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
        static=cached_static,
        language_choices=language_choices,
        htmx_script=htmx_script,
        layout_around_blocks=layout_around_blocks,
    )
    return env


# A random byte below this gives each of the 62 characters of a token the same chance.
_FAIR_BYTES = 256 - 256 % len(CSRF_ALLOWED_CHARS)
# The character of a masked token for each (secret's, mask's) pair, as Django's cipher adds them.
_CIPHER = {
    (secret, mask): CSRF_ALLOWED_CHARS[(i + j) % len(CSRF_ALLOWED_CHARS)]
    for i, secret in enumerate(CSRF_ALLOWED_CHARS)
    for j, mask in enumerate(CSRF_ALLOWED_CHARS)
}


def random_mask() -> str:
    """32 characters drawn from the system's random source in one read (Django's get_token
    reads it once per character: 33 system calls, about three quarters of its time)."""
    characters: list[str] = []
    while len(characters) < CSRF_SECRET_LENGTH:
        fair = (byte for byte in os.urandom(CSRF_SECRET_LENGTH + 8) if byte < _FAIR_BYTES)
        characters += [CSRF_ALLOWED_CHARS[byte % len(CSRF_ALLOWED_CHARS)] for byte in fair]
    return "".join(characters[:CSRF_SECRET_LENGTH])


def csrf_token_of(request) -> str:
    """The request's CSRF token masked anew, as get_token answers it: the secret of the cookie
    CsrfViewMiddleware read (and checked), marked for the cookie's renewal. Without one, Django's
    get_token makes it."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is None or len(secret) != CSRF_SECRET_LENGTH:
        return get_token(request)
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = random_mask()
    return mask + "".join(map(_CIPHER.__getitem__, zip(secret, mask, strict=True)))


def csrf_input(token: str) -> Markup:
    """The hidden field of a form's CSRF token, as `{{ csrf_input }}` prints it (written without
    Markup.format, whose formatter takes longer than the rest of the field: 5 us to 2)."""
    return Markup(f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(token)}">')


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
            token = context.get("csrf_token") or csrf_token_of(request)
            context["request"] = request
            context["csrf_token"] = token
            context["csrf_input"] = csrf_input(token)
        # The test client's response.context and templates, as for the Django engine; a signal
        # with no receiver (outside tests) returns at once.
        template_rendered.send(sender=self, template=self, context=context)
        return self.template.render(context)
