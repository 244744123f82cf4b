"""The same code runs on SQLite and PostgreSQL: no app module outside its migrations asks which
database it runs on, so that a developer's run and CI test the same statements."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = [
    "accounts",
    "api",
    "config",
    "curation",
    "curriculum",
    "editor",
    "groups",
    "lib",
    "practice",
    "progress",
    "reminders",
]
# A question to the connection about its database: `connection.vendor`, `database.vendor`.
ASKS_THE_VENDOR = re.compile(r"\b(connection|database|db)\.vendor\b|\bvendor\s*==\s*['\"]")


def test_no_app_module_branches_on_the_database_vendor():
    """Migrations may (schema differs); a page's or an action's code may not."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if ASKS_THE_VENDOR.search(line)
    ]
    assert found == []
