"""The optional compiled engine (setup.py, ``CANASTA_COMPILE=1``; issue 22: 'compiling the engine with mypyc ...
a compiled build must stay optional, with the pure-Python package working where no compiler is present, and CI
testing both').

README's test command tests the pure-Python package; ``.ci/compiled.sh`` compiles the engine in a copy of the
checkout and runs the engine's tests there with ``CANASTA_EXPECT_COMPILED=1``, then compares the fingerprints of
random games (examples/trace_hash.py) between the two builds.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import canasta.engine.game as game_module
from canasta.engine import engine_build

ROOT = Path(__file__).resolve().parent.parent


def test_the_build_under_test_is_the_one_expected() -> None:
    """The compiled pass must really import the compiled modules (a stale or missing build would silently test
    the pure-Python ones), and the pure pass the Python sources."""
    expected = "compiled" if os.environ.get("CANASTA_EXPECT_COMPILED") else "pure Python"
    assert engine_build() == expected, game_module.__file__


def test_the_compiled_modules_exist_and_are_the_engine() -> None:
    """setup.py's list names modules that exist, every engine module among them."""
    text = (ROOT / "setup.py").read_text()
    assert "CANASTA_COMPILE" in text and "mypycify" in text
    listed = set(re.findall(r'"(canasta/[a-z_/]+\.py)"', text))
    assert listed, "setup.py lists the helper modules it compiles"
    for path in listed:
        assert (ROOT / path).is_file(), path
    assert 'Path("canasta/engine").glob("*.py")' in text  # the whole engine package


@pytest.mark.parametrize("path", sorted((ROOT / "canasta" / "engine").glob("*.py")), ids=lambda p: p.name)
def test_the_engine_keeps_to_what_compiles(path: Path) -> None:
    """What the compiled classes cannot do, the engine's source must not do either, so that a change made and
    tested in pure Python does not break the compiled build: no instance ``__dict__`` (native classes have
    none), no attributes set by name, no class keywords for registration (``Game.register_family`` instead)."""
    source = path.read_text()
    assert "__dict__" not in source
    assert "setattr(" not in source
    assert "__init_subclass__" not in source
