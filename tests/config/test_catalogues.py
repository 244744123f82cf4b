"""Every interface string has its French translation: none empty, none left fuzzy, and the
compiled catalogues say what the .po files say."""

import gettext
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

FRENCH = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def catalogue_statistics(po_file):
    """msgfmt's check of a catalogue: its return code and its one-line statistics."""
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "--output-file=/dev/null", str(po_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode, result.stderr.strip().splitlines()[-1]


def test_the_french_catalogue_has_no_untranslated_or_fuzzy_entry():
    """msgfmt counts only translated messages, and finds no format that differs from its msgid."""
    returncode, statistics = catalogue_statistics(FRENCH)
    assert returncode == 0, statistics
    assert re.fullmatch(r"\d+ translated messages\.", statistics), statistics


@pytest.mark.parametrize(
    "entry",
    ['msgid "A"\nmsgstr ""\n', '#, fuzzy\nmsgid "A"\nmsgstr "Un"\n'],
    ids=["untranslated", "fuzzy"],
)
def test_the_check_notices_an_untranslated_or_fuzzy_entry(tmp_path, entry):
    """The same check on a catalogue with one missing translation does not pass."""
    po_file = tmp_path / "django.po"
    po_file.write_text(FRENCH.read_text() + "\n" + entry)
    returncode, statistics = catalogue_statistics(po_file)
    assert returncode == 0
    assert not re.fullmatch(r"\d+ translated messages\.", statistics), statistics


def compiled(mo_file):
    """The messages of a compiled catalogue, msgid to msgstr (the header's metadata left out)."""
    with mo_file.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)._catalog
    return {msgid: msgstr for msgid, msgstr in catalog.items() if msgid != ""}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_committed_compiled_catalogue_is_the_po_file_compiled(tmp_path, language):
    """docs/development.md: the compiled catalogues are committed, so `make messages` after
    translating must not be forgotten; a .po string missing from the .mo shows in English."""
    folder = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES"
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--output-file", str(fresh), str(folder / "django.po")], check=True)
    assert compiled(folder / "django.mo") == compiled(fresh)


def straight_apostrophes(po_text):
    """The translations that write an apostrophe between two letters as the typewriter's '."""
    return [
        line
        for line in po_text.splitlines()
        if line.startswith("msgstr") and re.search(r"[^\W\d_]'[\w%]", line)
    ]


def test_the_french_catalogue_writes_the_typographic_apostrophe():
    """French typography writes l’interface, n’avez: one card had both, "Aujourd’hui" over
    "Vous n'avez encore rien regardé"."""
    assert straight_apostrophes(FRENCH.read_text()) == []


def test_the_apostrophe_check_notices_a_straight_one():
    entry = 'msgid "You have not"\nmsgstr "Vous n\'avez pas"\n'
    assert straight_apostrophes(FRENCH.read_text() + "\n" + entry) == ['msgstr "Vous n\'avez pas"']
