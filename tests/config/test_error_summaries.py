"""Every refused form answers with the shared error summary at the top of the form
(templates/_form.jinja: error_summary), focusable and autofocused, whose links name the fields in
error (issue 40, item 2); an accepted form has none. The browser half is
tests/browser/test_form_errors.py."""

import re

import pytest
from django.urls import reverse

from tests.factories import ResourceFactory

EN = {"accept-language": "en"}
pytestmark = pytest.mark.django_db


def summary(html):
    found = re.search(
        r'<div class="error-summary" id="([^"]+)" tabindex="-1" autofocus[^>]*>(.*?)</div>',
        html,
        re.S,
    )
    assert found, "no error summary"
    return found.group(1), found.group(2)


def test_a_coding_session_tied_to_nothing(learner_client):
    response = learner_client.post(
        reverse("progress:coding_log"),
        {"day": "2026-12-01", "minutes": "30", "built": "x"},
        headers=EN,
    )
    assert response.status_code == 200
    _id, text = summary(response.text)
    assert "Not saved: correct what follows." in text
    assert '<a href="#coding_resource">' in text


def test_a_wrong_password_on_account_deletion(learner_client):
    response = learner_client.post(
        reverse("accounts:delete_account"), {"password": "no"}, headers=EN
    )
    assert response.status_code == 400
    summary_id, text = summary(response.text)
    assert "This is not your password; nothing was deleted." in text
    # At the top of the deletion form, after its token.
    form = response.text[response.text.index(reverse("accounts:delete_account")) :]
    assert form.index(summary_id) < form.index('name="password"')


def test_a_note_too_long(learner_client):
    ResourceFactory(slug="scan")
    response = learner_client.post(
        reverse("progress:note", args=["scan"]), {"text": "x" * 10_001}, headers=EN
    )
    _id, text = summary(response.text)
    assert '<a href="#note_text">' in text


def test_a_group_without_a_name(learner_client):
    response = learner_client.post(reverse("groups:create"), {"name": " "}, headers=EN)
    assert response.status_code == 400
    summary(response.text)


def test_an_accepted_page_has_no_summary_and_marks_required_fields(learner_client):
    html = learner_client.get(reverse("progress:coding_log"), headers=EN).text
    assert "error-summary" not in html
    minutes = html[html.index('for="coding_minutes"') :]
    assert minutes.index(
        '<span class="field__required" aria-hidden="true">required</span>'
    ) < minutes.index('id="coding_minutes"')
    assert re.search(r'<input[^>]*id="coding_minutes"[^>]*required', html) or re.search(
        r'<input[^>]*required[^>]*id="coding_minutes"', html
    )
