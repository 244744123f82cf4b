"""The documentation says what the code does: the README stays short, every link and file it names
exists, and the facts it states about settings, routes, the export and the CLI are the code's."""

import ast
import csv
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.urls import URLResolver, get_resolver

from tests.config.test_deploy_kit import settings_read_from_the_environment
from tests.config.test_owners import routes

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted([README, ROOT / "bench" / "README.md", ROOT / "cli" / "README.md"])
DOCS += sorted((ROOT / "docs").glob("*.md"))
# Paths the docs name that exist only once something has run: ignored by git.
# Folders that a run fills (ignored by git): a path in one of them is named, not kept.
MADE_BY_RUNNING = {"tests/browser/artifacts/", "bench/results/", "staticfiles/"}
NOT_SOURCE = {".venv", ".git", "staticfiles", "build", "locale"}

FENCE = re.compile(r"^```.*?^```", re.M | re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")
INLINE_CODE = re.compile(r"`([^`\s]+)`")


def prose(path):
    """The page without its fenced code blocks: commands there are not claims about files."""
    return FENCE.sub("", path.read_text())


def name(path):
    return str(path.relative_to(ROOT))


def test_the_readme_stays_under_200_lines():
    assert len(README.read_text().splitlines()) <= 200


def test_the_readme_sets_up_with_exactly_two_commands_the_makefile_has():
    """A fresh machine needs `make run` and `make test`, nothing else."""
    block = re.search(r"```sh\n(.*?)```", README.read_text(), re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    makefile = (ROOT / "Makefile").read_text()
    assert commands == ["make run", "make test"]
    assert re.search(r"^run: ", makefile, re.M) and re.search(r"^test: ", makefile, re.M)


def test_every_relative_link_points_to_a_file_that_exists():
    broken = [
        f"{name(page)}: {target}"
        for page in DOCS
        for target in LINK.findall(page.read_text())
        if not re.match(r"[a-z]+:|#", target) and not (page.parent / target.split("#")[0]).exists()
    ]
    assert broken == []


def test_every_file_the_docs_name_exists():
    """A path in backquotes under one of the repository's folders: moved or renamed files show."""
    folders = {path.name for path in ROOT.iterdir() if path.is_dir()} - NOT_SOURCE
    missing = [
        f"{name(page)}: {path}"
        for page in DOCS
        for path in INLINE_CODE.findall(prose(page))
        if path.split("/")[0] in folders
        and "/" in path
        and not re.search(r"[<…*{]", path)
        and not path.startswith(tuple(MADE_BY_RUNNING))
        and not (ROOT / path.rstrip(".,:;")).exists()
    ]
    assert missing == []


def test_every_page_of_docs_the_code_names_exists():
    """Comments such as "(docs/security.md)" lead somewhere."""
    folders = [path for path in ROOT.iterdir() if path.is_dir() and path.name not in NOT_SOURCE]
    sources = [
        path
        for folder in folders
        for path in folder.rglob("*")
        if path.suffix in {".py", ".html", ".jinja", ".js", ".example", ".conf", ".toml"}
        and "vendor" not in path.parts
    ]
    named = {
        (name(path), page)
        for path in sources
        for page in re.findall(r"\bdocs/[\w-]+\.md", path.read_text())
    }
    assert named, "no source names a page of docs/: the search is broken"
    assert sorted((path, page) for path, page in named if not (ROOT / page).exists()) == []


def test_every_setting_read_from_the_environment_is_in_operations():
    """docs/operations.md's table names each variable config/settings.py reads."""
    table = (ROOT / "docs" / "operations.md").read_text().split("## Configuration")[1]
    table = table.split("\n## ")[0]
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))
    read = settings_read_from_the_environment()
    assert len(read) > 20
    assert read - documented == set()


def test_every_folder_of_the_repository_is_in_the_readmes_layout():
    """A new app or folder gets its line under "Layout"."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    folders = {path.split("/")[0] for path in tracked if "/" in path and path[0] != "."}
    layout = README.read_text().split("## Layout")[1].split("\n## ")[0]
    assert len(folders) > 15
    assert sorted(folder for folder in folders if f"`{folder}/`" not in layout) == []


READERS = {"env_int": None, "env_bool": False, "env_list": ()}


def defaults_in_settings():
    """{variable: its default} for each env_int, env_bool, env_list and os.environ.get call of
    config/settings.py whose default is a literal (os.environ.get without one is left out)."""
    tree = ast.parse((ROOT / "config" / "settings.py").read_text())
    defaults = {}
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or not call.args:
            continue
        if not isinstance(call.args[0], ast.Constant):
            continue  # the readers' own bodies, which read any name
        reader = ast.unparse(call.func)
        if reader not in READERS and reader != "os.environ.get":
            continue
        given = [keyword.value for keyword in call.keywords if keyword.arg == "default"]
        given += call.args[1:]
        if not given and reader == "os.environ.get":
            continue
        try:
            default = ast.literal_eval(given[0]) if given else READERS[reader]
        except ValueError:
            continue  # an expression (HTTPS: on unless DEBUG): the words say it
        defaults[ast.literal_eval(call.args[0])] = default
    return defaults


def as_documented(default):
    if default in (None, "", (), []):
        return {"unset", "—", "empty"}
    if isinstance(default, bool):
        return {"on" if default else "off"}
    if isinstance(default, list | tuple):
        return {",".join(default)}
    return {str(default)}


def test_the_defaults_in_operations_are_the_settings_defaults():
    """The table's default column, variable by variable, is what config/settings.py falls back on."""
    table = (ROOT / "docs" / "operations.md").read_text().split("## Configuration")[1]
    documented = {}
    for names, defaults in re.findall(r"^\| (`[A-Z].*?) \| (.*?) \|", table, re.M):
        values = [value.strip("`") for value in defaults.split(", ")]
        for variable, value in zip(re.findall(r"`(\w+)`", names), values, strict=True):
            documented[variable] = value
    defaults = defaults_in_settings()
    assert len(defaults) > 20
    wrong = {
        variable: (documented.get(variable), default)
        for variable, default in defaults.items()
        if documented.get(variable) not in as_documented(default)
    }
    assert wrong == {}


def on_the_page_map(route, readme):
    """The README's page map shows the route itself, or a prefix of it followed by "…"."""
    shown = "/" + re.sub(r"<\w+:(\w+)>", r"<\1>", route)
    prefixes = re.findall(r"`(/[^`]*?)…`", readme)
    return f"`{shown}`" in readme or any(shown.startswith(prefix) for prefix in prefixes)


def test_every_route_of_the_site_is_on_the_readmes_page_map():
    readme = README.read_text()
    site = set(routes(get_resolver().url_patterns))
    assert len(site) > 50
    assert sorted(route for route in site if not on_the_page_map(route, readme)) == []


def test_the_page_map_check_notices_a_missing_route():
    """A route nobody wrote down is caught; one under a prefix with "…" is not."""
    assert not on_the_page_map("resources/<slug:slug>/shared/", README.read_text())
    assert on_the_page_map("groups/<slug:slug>/rename/", README.read_text())


def views_by_route(patterns, prefix=""):
    """(route, the module that serves it) for every route of the site but the admin's."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if str(pattern.pattern) != "admin/":
                yield from views_by_route(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            view = getattr(pattern.callback, "view_class", pattern.callback)
            yield prefix + str(pattern.pattern), view.__module__


def test_the_page_map_names_the_module_that_serves_each_route():
    """ "Each page has one owner": the map's second column is where the view really lives."""
    rows = re.findall(r"^\| (.+?) \| (.+?) \| .* \|$", README.read_text(), re.M)
    wrong = []
    for route, module in views_by_route(get_resolver().url_patterns):
        path = module.replace(".", "/") + ".py"
        if not (ROOT / path).exists():
            continue  # Django's auth and i18n views, django-ninja's: the row says so in words
        owners = [served for shown, served in rows if on_the_page_map(route, shown)]
        if not any(f"`{path}`" in served for served in owners):
            wrong.append(f"/{route}: {path}, not in {owners}")
    assert wrong == []


def documented_export():
    text = (ROOT / "docs" / "export.md").read_text()
    return json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1)), text


def test_the_documented_export_has_the_exports_fields(learner_client):
    """The example's keys are those of a real export: the JSON's, and the CSV files' headers."""
    example, text = documented_export()
    document = learner_client.get("/settings/export.json").json()
    archive = zipfile.ZipFile(io.BytesIO(learner_client.get("/settings/export.zip").content))
    headers = {
        file.removesuffix(".csv"): next(csv.reader(io.StringIO(archive.read(file).decode())))
        for file in archive.namelist()
    }

    assert list(example) == list(document)
    assert example["format"] == document["format"]
    assert example["kept_from_the_editor"] == document["kept_from_the_editor"]
    for kind, columns in headers.items():
        item = example[kind][0] if isinstance(example[kind], list) else example[kind]
        assert list(item) == columns, kind
    assert set(re.findall(r"`(\w+\.csv)`", text)) == set(archive.namelist())


def documented_exit_codes():
    text = (ROOT / "docs" / "api-and-cli.md").read_text()
    rows = re.findall(r"^\| (\d) \| (.+) \|$", text, re.M)
    return {int(code): meaning.replace("`", "") for code, meaning in rows}


def test_the_documented_exit_codes_are_the_clients():
    """docs/api-and-cli.md's table says what `parcours --help` says, code for code."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "cli" / "parcours.py"), "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={"LANG": "C", "PATH": "/usr/bin:/bin"},
    )
    listed = result.stdout.split("exit codes:")[1]
    told = {int(code): text for code, text in re.findall(r"^  (\d)  (.+)$", listed, re.M)}
    assert len(told) == 9
    assert documented_exit_codes() == told


@pytest.mark.parametrize(
    ("page", "heading"),
    [("operations.md", "## Backup and restore"), ("operations.md", "## Several app servers")],
)
def test_the_sections_other_pages_cite_exist(page, heading):
    assert heading in (ROOT / "docs" / page).read_text().splitlines()


def test_every_command_the_readme_runs_through_manage_py_exists():
    """`manage.py createsuperuser`, `db_worker`, `send_digests`: each is a command of the site."""
    from django.core.management import get_commands

    named = set(re.findall(r"manage\.py (\w+)", README.read_text()))
    named |= set(re.findall(r"`(send_\w+)`", README.read_text()))
    assert {"createsuperuser", "db_worker", "send_digests", "send_nudges"} <= named
    assert sorted(named - set(get_commands())) == []


def test_make_run_points_the_links_in_mail_at_the_port_it_serves():
    """`make run PORT=8123` gives the worker and the server SITE_URL http://127.0.0.1:8123 unless
    SITE_URL is set, as the README says."""
    run = subprocess.run(
        ["make", "--dry-run", "--always-make", "run", "PORT=8123"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    served = run[run.index("SITE_URL") :]
    assert 'SITE_URL="${SITE_URL:-http://127.0.0.1:8123}"' in run
    assert "runserver 127.0.0.1:8123" in served and "db_worker" in served
    assert "PORT=" in README.read_text() and "SITE_URL" in README.read_text()
