"""constraints.txt is what tools/pin_constraints.py writes from this environment, and within pyproject's ranges."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pin_constraints", ROOT / "tools" / "pin_constraints.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text("utf-8").splitlines()
    return dict(line.split("==") for line in lines if line and not line.startswith("#"))


def test_the_constraints_are_the_tools_output_for_the_installed_versions() -> None:
    tool = _tool()
    assert (ROOT / "constraints.txt").read_text("utf-8") == tool.render(tool.needed()), "run `make constraints`"


def test_every_dependency_is_pinned_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    pins = _pins()
    texts = [*project["dependencies"], *project["optional-dependencies"]["hub"], *project["optional-dependencies"]["test"]]
    for requirement in map(Requirement, texts):
        name = canonicalize_name(requirement.name)
        if name == "spectacular-bid":
            continue
        assert name in pins, name
        assert requirement.specifier.contains(pins[name]), (name, pins[name], str(requirement.specifier))
    assert pins["pygame-ce"].startswith("2.5.")


def test_the_closure_follows_extras_and_markers() -> None:
    needed = _tool().needed()
    assert {"psycopg-binary", "pydantic-core", "colorzero", "iniconfig"} <= set(needed)  # extras' and deps' deps
    assert not {"pip", "setuptools", "wheel", "spectacular-bid"} & set(needed)
