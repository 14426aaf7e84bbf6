"""The shape of the code in ``canasta/``: no function over 80 lines (a long function is split along its cases).

``LONG_FUNCTIONS`` is a ratchet, like ``KNOWN_CYCLES`` in tests/test_import_graph.py: fifteen functions were over
the limit on 2026-12-02 (create_app at 271 lines the longest) and were split along their cases the same day, each
checked to behave as before; the list stays empty, so any function over the limit fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "canasta"
MAX_LINES = 80

#: "module path:function name" -> the most lines it may have until it is split
LONG_FUNCTIONS: dict[str, int] = {}


def function_lengths() -> dict[str, int]:
    lengths: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                key = f"{path.relative_to(PACKAGE).as_posix()}:{node.name}"
                lengths[key] = max(lengths.get(key, 0), node.end_lineno - node.lineno + 1)
    return lengths


def test_no_function_is_over_eighty_lines_but_those_listed_and_none_grows() -> None:
    too_long = {name: lines for name, lines in function_lengths().items() if lines > MAX_LINES}
    new = {name: lines for name, lines in too_long.items() if name not in LONG_FUNCTIONS}
    grown = {name: lines for name, lines in too_long.items() if lines > LONG_FUNCTIONS.get(name, lines)}
    assert not new, f"functions over {MAX_LINES} lines: split them along their cases: {new}"
    assert not grown, f"listed long functions grew: split them instead: {grown}"


def test_a_function_split_leaves_the_list() -> None:
    lengths = function_lengths()
    done = sorted(name for name in LONG_FUNCTIONS if lengths.get(name, 0) <= MAX_LINES)
    assert not done, f"now within {MAX_LINES} lines (or gone): remove from LONG_FUNCTIONS: {done}"
