"""The import-linter contracts pass on the tree and can fail: the guard is real."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.services import ROOT

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def run_lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def copy_tree(destination: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "migrations")
    for package in ("engine", "games", "tigris_site"):
        shutil.copytree(ROOT / package, destination / package, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", destination / "pyproject.toml")
    return destination


def test_contracts_hold_on_a_copy_of_the_tree(tmp_path: Path) -> None:
    result = run_lint_imports(copy_tree(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 6 kept, 0 broken." in result.stdout


def lint_with(tmp_path: Path, module: str, source: str) -> subprocess.CompletedProcess[str]:
    """Run lint-imports on a copy of the tree with ``module`` (a dotted name) holding ``source``."""
    tree = copy_tree(tmp_path)
    (tree / (module.replace(".", "/") + ".py")).write_text(source)
    return run_lint_imports(tree)


def test_engine_importing_django_breaks_the_contract(tmp_path: Path) -> None:
    result = lint_with(tmp_path, "engine.offending", "from django.db import models  # noqa\n")
    assert result.returncode != 0
    assert "BROKEN" in result.stdout
    assert "engine.offending -> django" in result.stdout


def test_a_lower_room_importing_a_higher_one_breaks_the_layers_contract(tmp_path: Path) -> None:
    """The rooms of games/ import one way: text (below) may not import web (above)."""
    result = lint_with(tmp_path, "games.text.offending", "from games.web import board  # noqa\n")
    assert result.returncode != 0
    assert "Rooms of games: each imports only the rooms below it" in result.stdout
    assert "BROKEN" in result.stdout
    assert "games.text.offending -> games.web.board" in result.stdout


def test_a_room_importing_the_tasks_breaks_the_layers_contract(tmp_path: Path) -> None:
    """Side effects are queued by task name: no room imports ``games.tasks``."""
    result = lint_with(tmp_path, "games.outbox.offending", "from games import tasks  # noqa\n")
    assert result.returncode != 0
    assert "games.outbox.offending -> games.tasks" in result.stdout


def test_rules_importing_the_bots_breaks_the_contract(tmp_path: Path) -> None:
    tree = copy_tree(tmp_path)
    rules = tree / "engine" / "rules.py"
    rules.write_text(rules.read_text() + "\nfrom . import bots  # noqa\n")
    result = run_lint_imports(tree)
    assert result.returncode != 0
    assert "engine.rules -> engine.bots" in result.stdout


def test_a_cycle_among_the_engines_modules_breaks_the_acyclic_contract(tmp_path: Path) -> None:
    """The engine's modules import one way (legality → monuments, never back): a function-level
    import that closes a cycle is refused like any other (issue 27)."""
    tree = copy_tree(tmp_path)
    monuments = tree / "engine" / "monuments.py"
    planted = "\n\ndef _planted() -> None:\n    from . import legality  # noqa: F401\n"
    monuments.write_text(monuments.read_text() + planted)
    result = run_lint_imports(tree)
    assert result.returncode != 0
    assert "engine's modules import one another without cycles" in result.stdout
    assert "- .monuments -> .legality" in result.stdout


def test_a_room_importing_the_apps_wiring_breaks_the_layers_contract(tmp_path: Path) -> None:
    """Template tags, the admin and the URLs sit above every room (issue 27): a room that
    imports one of them (web, the highest, importing the template tags) breaks the layers."""
    result = lint_with(
        tmp_path, "games.web.offending", "from games.templatetags import games_tags  # noqa\n"
    )
    assert result.returncode != 0
    assert "games.web.offending -> games.templatetags.games_tags" in result.stdout
