"""The site's pages (config/jinja.py, templates/base.jinja): their strings reach the catalogues
through `make messages`, every page has the same layout, and its CSRF token is Django's."""

import gettext
import re
from html.parser import HTMLParser
from pathlib import Path

import jinja2.ext
import pytest
from django.conf import settings
from django.contrib import messages
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.management import call_command
from django.middleware.csrf import (
    CSRF_SECRET_LENGTH,
    _mask_cipher_secret,
    _unmask_cipher_token,
)
from django.template import engines
from django.test import Client, override_settings
from django.utils import translation

from config import jinja
from curriculum.management.commands.makemessages import GETTEXT_FUNCTIONS, extractor
from tests.factories import UserFactory

ROOT = Path(settings.BASE_DIR)
FRENCH_MO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.mo"

TEMPLATE = """{% extends "base.jinja" %}
{% block content %}
<h1>{{ _("A plain string") }}</h1>
<p>{{ gettext("Called by its name") }}</p>
<p>{% trans trimmed name=page.name %}
  Hello {{ name }},
  on two lines
{% endtrans %}</p>
<p>{% trans days=page.days %}{{ days }} day{% pluralize days %}{{ days }} days{% endtrans %}</p>
<p>{{ pgettext("month", "May") }}</p>
{% endblock %}
"""


def test_make_messages_finds_every_kind_of_string_in_a_jinja_template(tmp_path, monkeypatch):
    """_(), gettext(), a trimmed {% trans %} with a variable, a plural and a context, as msgids
    written the way Django's templates write them."""
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.jinja").write_text(TEMPLATE)
    (tmp_path / "locale" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command("makemessages", locale=["fr"], no_location=True, verbosity=0)
    catalogue = (tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.po").read_text()
    assert 'msgid "A plain string"' in catalogue
    assert 'msgid "Called by its name"' in catalogue
    assert 'msgid "Hello %(name)s, on two lines"' in catalogue
    assert 'msgid "%(days)s day"\nmsgid_plural "%(days)s days"' in catalogue
    assert 'msgctxt "month"\nmsgid "May"' in catalogue
    assert not list(tmp_path.rglob("*.jinja.py")), "the work files are removed"


def jinja_msgids():
    """The catalogue key of every string of the project's Jinja2 templates, as Jinja2's
    extractor reads them: a plural by its singular, a string with a context after it."""
    for path in sorted((ROOT / "templates").rglob("*.jinja")):
        for _line, function, message in extractor().extract_translations(
            path.read_text(), GETTEXT_FUNCTIONS
        ):
            if function in ("pgettext", "npgettext"):
                yield f"{message[0]}\x04{message[1]}"
            else:
                yield message[0] if isinstance(message, tuple) else message


def test_every_string_of_the_jinja_templates_is_translated_into_french():
    """The catalogue `make messages` wrote holds each of them with a French text."""
    with FRENCH_MO.open("rb") as mo_file:
        catalogue = gettext.GNUTranslations(mo_file)._catalog
    french = {key[0] if isinstance(key, tuple) else key for key, text in catalogue.items() if text}
    msgids = set(jinja_msgids())
    assert "The guide, part by part" in msgids
    assert sorted(msgids - french) == []


class Layout(HTMLParser):
    """The tags, attributes and text of a page's body outside <main> (the skip link, header, menu
    and footer), without what changes from page to page: the CSRF tokens, the menu's mark of the
    current page and the switcher's return."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items, self.in_main, self.in_body = [], 0, False

    def handle_starttag(self, tag, attrs):
        self.in_main += tag == "main"
        self.in_body = self.in_body or tag == "body"
        if self.in_body and not self.in_main:
            attrs = [
                (name, re.sub(r'"X-CSRFToken": "\w+"', "", value or ""))
                for name, value in attrs
                if name != "aria-current" and (name, tag) != ("value", "input")
            ]
            self.items.append((tag, sorted(attrs)))

    def handle_endtag(self, tag):
        self.in_main -= tag == "main"

    def handle_data(self, data):
        if self.in_body and not self.in_main and data.strip():
            self.items.append(" ".join(data.split()))


def layout(html):
    parser = Layout()
    parser.feed(html)
    return parser.items


# A page of each template's kind, for a visitor and for a learner who owns the group "club".
VISITOR_PAGES = [
    "/",
    "/path/",
    "/guide/",
    "/resources/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/xx/yy-zz/",
    "/accounts/reset/done/",
    "/groups/join/no-such-link/",
    "/digest/unsubscribe/no-such-token/",
    "/no-such-page/",
]
LEARNER_PAGES = [
    "/",
    "/guide/",
    "/stats/",
    "/coding/",
    "/settings/",
    "/groups/",
    "/groups/{slug}/manage/",
    "/accounts/password_change/",
    "/accounts/password_change/done/",
    "/curators/progress/",
    "/no-such-page/",
]


@pytest.fixture
def club(learner):
    from groups import actions

    return actions.create_group(owner=learner, name="Club", display_name="Ada")


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_page_has_the_same_header_menu_and_footer(learner_client, club, language):
    """Around <main>, every page of a visitor is the same, and every page of a learner too: one
    layout, whether the page is the learner's own, an account page or an error page."""
    headers = {"accept-language": language}
    for browser, pages in ((Client(), VISITOR_PAGES), (learner_client, LEARNER_PAGES)):
        layouts = {}
        for path in pages:
            response = browser.get(path.format(slug=club.slug), headers=headers)
            assert response.status_code in (200, 400, 403, 404, 410), path
            layouts[path] = layout(response.content.decode())
        first = layouts[pages[0]]
        assert "Parcours" in first
        assert _in(language, "One hour of video for three hours of code.") in first
        assert {path: page for path, page in layouts.items() if page != first} == {}


def csrf_tokens(html):
    """The page's CSRF tokens: its htmx header's and its forms' fields'."""
    header = re.findall(r'"X-CSRFToken": "(\w+)"', html)
    return header + re.findall(r'name="csrfmiddlewaretoken" value="(\w+)"', html)


# Each page with a form of its own, and that form's address (a regular expression).
FORM_PAGES = [
    ("/accounts/login/", "/accounts/login/"),
    ("/accounts/signup/", "/accounts/signup/"),
    ("/accounts/password_reset/", "/accounts/password_reset/"),
    ("/accounts/password_change/", "/accounts/password_change/"),
    ("/groups/", "/groups/new/"),
    ("/groups/{slug}/manage/", "/groups/{slug}/invite/"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("page", "action"), FORM_PAGES)
def test_a_form_posted_with_its_pages_token_passes_the_csrf_check(learner, club, page, action):
    """The page prints one token, Django's own, in its htmx header and in each form; posted with
    it, its own form passes the check (a refused form answers, but not 403), and with a token of
    another secret it is refused."""
    browser = Client(enforce_csrf_checks=True)
    if "accounts/login" not in page and "signup" not in page and "reset" not in page:
        browser.force_login(learner)
    html = browser.get(page.format(slug=club.slug)).content.decode()
    tokens = set(csrf_tokens(html))
    assert len(tokens) == 1
    token = tokens.pop()
    assert _unmask_cipher_token(token) == browser.cookies["csrftoken"].value
    url = action.format(slug=club.slug)
    assert f'action="{url}"' in html
    assert browser.post(url, {"csrfmiddlewaretoken": token}).status_code != 403
    other = _mask_cipher_secret("x" * CSRF_SECRET_LENGTH)
    assert browser.post(url, {"csrfmiddlewaretoken": other}).status_code == 403


@pytest.mark.django_db
def test_each_page_prints_its_own_requests_values(client):
    """Two learners in turn: each page names its own learner, escaped, its own address in the
    language switcher and a token of its own session, nothing of the one before."""
    pages = {}
    for name in ("ada", 'a&b<c>"d'):
        client.force_login(UserFactory(username=name))
        response = client.get("/guide/?part=<2>&q='x'", headers={"accept-language": "en"})
        pages[name] = response.content.decode()
        tokens = csrf_tokens(pages[name])
        assert len(tokens) == 3
        assert {_unmask_cipher_token(token) for token in tokens} == {
            client.cookies["csrftoken"].value
        }
    assert '<span class="nav__user">ada</span>' in pages["ada"]
    assert '<span class="nav__user">a&amp;b&lt;c&gt;&#34;d</span>' in pages['a&b<c>"d']
    assert 'nav__user">ada' not in pages['a&b<c>"d']
    for html in pages.values():
        assert 'name="next" type="hidden" value="/guide/?part=%3C2%3E&amp;q=&#39;x&#39;"' in html


@pytest.mark.django_db
def test_a_pages_csrf_token_is_a_fresh_mask_of_the_cookies_secret_that_a_post_passes_with(
    learner,
):
    """The first page sets the cookie; each page renews it and masks its secret anew (no two
    pages print the same token), and a form posted with the token passes the CSRF check while
    a token of another secret does not."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(learner)
    first = browser.get("/guide/")
    secret = first.cookies["csrftoken"].value
    tokens = set()
    for _ in range(3):
        response = browser.get("/stats/")
        assert response.cookies["csrftoken"].value == secret
        page_tokens = set(csrf_tokens(response.content.decode()))
        assert len(page_tokens) == 1
        tokens |= page_tokens
    assert len(tokens) == 3
    assert {_unmask_cipher_token(token) for token in tokens} == {secret}
    form = {"language": "en", "next": "/guide/"}
    assert (
        browser.post("/i18n/setlang/", {**form, "csrfmiddlewaretoken": tokens.pop()}).status_code
        == 302
    )
    other = _mask_cipher_secret("x" * CSRF_SECRET_LENGTH)
    assert browser.post("/i18n/setlang/", {**form, "csrfmiddlewaretoken": other}).status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_layout_shows_a_message_once_and_marks_the_current_page(
    learner_client, curator, client, language
):
    """A message shown on the next page only; the menu marks the page it is on, for a visitor,
    a learner and a member of staff."""
    message = Message(messages.SUCCESS, "Saved <for> “you”")
    learner_client.cookies["messages"] = CookieStorage(None)._encode([message])
    headers = {"accept-language": language}
    shown = learner_client.get("/stats/", headers=headers).content.decode()
    assert '<li class="message message--success">Saved &lt;for&gt; “you”</li>' in shown
    assert 'class="messages"' not in learner_client.get("/stats/", headers=headers).content.decode()
    stats = f'<li><a href="/stats/" aria-current="page">{_in(language, "Stats")}</a></li>'
    assert stats in shown
    guide = learner_client.get("/guide/", headers=headers).content.decode()
    assert f'<li><a href="/guide/" aria-current="page">{_in(language, "Guide")}</a></li>' in guide
    assert 'aria-current="page">' + _in(language, "Stats") not in guide
    client.force_login(curator)
    staff_page = client.get("/guide/", headers=headers).content.decode()
    assert f'<li><a href="/admin/">{_in(language, "Curation")}</a></li>' in staff_page
    client.logout()
    visitor_page = client.get("/guide/", headers=headers).content.decode()
    assert f'<a href="/accounts/login/">{_in(language, "Sign in")}</a>' in visitor_page
    assert "/stats/" not in visitor_page and "/admin/" not in visitor_page
    sign_in = client.get("/accounts/login/", headers=headers).content.decode()
    assert (
        f'<a href="/accounts/login/" aria-current="page">{_in(language, "Sign in")}</a>' in sign_in
    )


def _in(language, text):
    with translation.override(language):
        return translation.gettext(text)


@pytest.mark.parametrize(
    "source",
    [
        '{{ _("Time watched") }}',
        '{{ _("%(hours)s h", hours="<b>12</b>") }}',
        '{{ _("100%% <sure>") }}',
        '{% autoescape false %}{{ _("%(hours)s h", hours="<b>") }}{% endautoescape %}',
    ],
)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_underscore_answers_as_jinjas_new_style_gettext(source, language):
    """config/jinja.py calls gettext for _() at once, and formats only what has something to
    format: the same text as Jinja2's own alias, escaped or not, with or without variables."""
    env = engines["jinja2"].env
    with translation.override(language):
        ours = env.from_string(source).render()
        env.globals["_"] = jinja2.ext._gettext_alias
        try:
            jinjas = env.from_string(source).render()
        finally:
            env.globals["_"] = jinja.translate
    assert ours == jinjas
