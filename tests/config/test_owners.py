"""One owner per thing: each route is defined once, config/ reaches the apps only through
include(), and no app imports config."""

import ast
from collections import Counter
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parents[2]
APPS = ["accounts", "api", "curriculum", "groups", "progress", "reminders"]


def routes(patterns, prefix=""):
    """Every concrete route of the site, as the full pattern it answers."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if str(pattern.pattern) == "admin/":
                continue  # Django's admin builds its own routes
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def imported_modules(path):
    """The top-level package of every module a Python file imports."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module.split(".")[0]


def test_each_route_of_the_site_is_defined_once():
    counts = Counter(routes(get_resolver().url_patterns))
    # django-ninja routes one address to one view per HTTP method: GET and POST of /sessions.
    repeated = {route for route, count in counts.items() if count > 1 and "api/" not in route}
    assert not repeated
    assert counts["accounts/login/"] == 1
    assert counts["path/"] == 1 and counts[""] == 1


def test_config_imports_no_app():
    offenders = {
        str(path.relative_to(ROOT)): sorted(set(imported_modules(path)) & set(APPS))
        for path in (ROOT / "config").glob("*.py")
    }
    assert {path: apps for path, apps in offenders.items() if apps} == {}


def test_no_app_imports_config():
    offenders = [
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "config" in set(imported_modules(path))
    ]
    assert offenders == []


def test_the_checks_see_the_imports_they_look_for():
    """The two checks above would pass on nothing: they do read imports, here of config/urls.py."""
    assert {"django", "config"} <= set(imported_modules(ROOT / "config" / "urls.py"))
