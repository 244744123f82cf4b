"""One owner per thing: each route is defined once, config/ reaches the apps only through
include(), no app imports config, and the apps stand on a ladder.

The ladder, lowest rung first; an app imports only from the rungs below it and from its own rung:

    lib                                     helpers shared by several apps; imports no app
    curriculum                              what there is to watch
    practice                                exercises after a lecture, and their checked submissions
    progress                                what each learner did
    groups, reminders                       what learners share; what they are reminded of
    accounts, api, editor, curation         the learner's account, the API, the editor plugins'
                                            endpoints, the staff's pages and admin

Module-level and function-level imports both count. Apps on one rung may import each other, but
no chain of imports between apps comes back to where it started, and inside an app no chain of
imports between its modules does either.
"""

import ast
from collections import Counter
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parents[2]
LADDER = [
    ["lib"],
    ["curriculum"],
    ["practice"],
    ["progress"],
    ["groups", "reminders"],
    ["accounts", "api", "editor", "curation"],
]
RUNG = {app: height for height, apps in enumerate(LADDER) for app in apps}
APPS = sorted(RUNG)


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


def module_name(path):
    """The dotted name a Python file of the project is imported as."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_files():
    return sorted(path for app in APPS for path in (ROOT / app).rglob("*.py"))


MODULES = {module_name(path) for path in app_files()}


def known_module(name):
    """The longest prefix of a dotted name that is one of the apps' modules, if any."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in MODULES:
            return ".".join(parts[:end])
    return None


def imports_of(path):
    """(line, module) for each module of the apps a file imports, wherever the import statement is."""
    tree = ast.parse(path.read_text(), filename=str(path))
    here = module_name(path)
    package = here.split(".") if path.name == "__init__.py" else here.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                prefix = package[: len(package) - node.level + 1]
                base = ".".join([*prefix, base] if base else prefix)
            # "from progress import stats" imports the module progress.stats, when there is one.
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            module = known_module(name)
            if module and module != here:
                yield node.lineno, module


def edges():
    """(file, line, importer module, imported module) for every import between the apps' modules."""
    for path in app_files():
        for line, module in imports_of(path):
            yield str(path.relative_to(ROOT)), line, module_name(path), module


EDGES = list(edges())


def app_of(module):
    return module.split(".")[0]


def a_loop(graph):
    """One cycle of a directed graph (node -> {neighbour: why}) as [(node, why), ...], or []."""
    state = {}

    def visit(node, trail):
        state[node] = "open"
        for neighbour, why in sorted(graph.get(node, {}).items()):
            if state.get(neighbour) == "open":
                start = next(i for i, (step, _) in enumerate(trail) if step == neighbour)
                return [*trail[start:], (node, why)] if trail else [(node, why)]
            if neighbour not in state:
                found = visit(neighbour, [*trail, (node, why)])
                if found:
                    return found
        state[node] = "done"
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return []


def describe(loop):
    return "\n".join(f"  {why}" for _node, why in loop)


def test_no_app_imports_from_a_rung_above_its_own():
    offenders = sorted(
        {
            f"{path}:{line} imports {module} ({app_of(module)} is above {app_of(importer)})"
            for path, line, importer, module in EDGES
            if RUNG[app_of(module)] > RUNG[app_of(importer)]
        }
    )
    assert not offenders, "Imports against the ladder (see this file's docstring):\n" + "\n".join(
        offenders
    )


def test_lib_imports_neither_an_app_nor_config():
    offenders = [
        f"{path.relative_to(ROOT)} imports {sorted(set(imported_modules(path)) & {*APPS, 'config'} - {'lib'})}"
        for path in (ROOT / "lib").rglob("*.py")
        if set(imported_modules(path)) & {*APPS, "config"} - {"lib"}
    ]
    assert not offenders


def test_no_loop_between_apps():
    graph = {}
    for path, line, importer, module in EDGES:
        if app_of(module) != app_of(importer):
            graph.setdefault(app_of(importer), {}).setdefault(
                app_of(module), f"{path}:{line} imports {module}"
            )
    loop = a_loop(graph)
    assert not loop, "These apps import each other in a loop:\n" + describe(loop)


@pytest.mark.parametrize("app", APPS)
def test_no_loop_between_the_modules_of_an_app(app):
    graph = {}
    for path, line, importer, module in EDGES:
        if app_of(importer) == app_of(module) == app:
            graph.setdefault(importer, {}).setdefault(module, f"{path}:{line} imports {module}")
    loop = a_loop(graph)
    assert not loop, f"These modules of {app}/ import each other in a loop:\n" + describe(loop)


def test_the_ladder_checks_see_imports_inside_functions_and_find_loops():
    """The checks above would pass on nothing: they see the import inside progress/apps.py's
    ready(), and find a loop of three."""
    assert ("progress.apps", "progress.time_zone") in {
        (importer, module) for _, _, importer, module in EDGES
    }
    assert a_loop({"a": {"b": "1"}, "b": {"c": "2"}, "c": {"a": "3"}}) == [
        ("a", "1"),
        ("b", "2"),
        ("c", "3"),
    ]
    assert a_loop({"a": {"b": "1"}, "b": {}}) == []
