"""The client is its own distribution (cli/pyproject.toml): standard library only, Python 3.9+,
and the site's own pyproject.toml does not install it."""

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_client_depends_on_nothing_and_runs_on_python_3_9():
    project = tomllib.loads((ROOT / "cli" / "pyproject.toml").read_text())["project"]
    assert project["name"] == "parcours-cli"
    assert project["dependencies"] == []
    assert project["requires-python"] == ">=3.9"
    assert project["scripts"] == {"parcours": "parcours:main"}


def test_the_client_imports_only_the_standard_library():
    tree = ast.parse((ROOT / "cli" / "parcours.py").read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    }
    assert imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names


def test_the_client_version_has_one_home():
    assert re.search(
        r'^__version__ = "\d+\.\d+\.\d+"$', (ROOT / "cli" / "parcours.py").read_text(), re.M
    )
    assert tomllib.loads((ROOT / "cli" / "pyproject.toml").read_text())["project"]["dynamic"] == [
        "version"
    ]


def test_the_site_does_not_install_the_client():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "scripts" not in project["project"]
    assert project["tool"]["setuptools"]["packages"] == []
