"""The import graph of ``canasta/`` (issue 22: dependencies point one way, no import cycles).

Every import counts, at module level, inside functions and under ``TYPE_CHECKING``: a cycle that
only a function-level import breaks at run time is still two modules that cannot be read (or moved)
one without the other. The engine v2 work removed the six cycles the ratchet ``KNOWN_CYCLES`` once
listed; it stays empty, so any cycle fails (docs/architecture.md, "Import direction", says how the
pieces two modules share are placed instead).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "canasta"

#: cycles tolerated for now: none. The ratchet set on 2026-11-25 listed six (engine, engine.feet,
#: engine.game and engine.setrules; engine.idmelds and engine.idturn; scoring and variants.classic;
#: engine.actions and notation; players with expert, levels and value; web and web.app), all removed
#: for issue 22; keep it empty
KNOWN_CYCLES: list[set[str]] = []


def module_files() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ``canasta`` it imports (a name imported from a package counts as
    the submodule when there is one, and the package itself always: importing it runs its ``__init__``)."""
    modules = module_files()

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parents = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*parents, base] if base else parents)
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                found = owner(target) if target.startswith("canasta") else None
                if found is not None and found != name:
                    graph[name].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [{"a", "b", "c"}]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_inside_functions_and_type_checking() -> None:
    graph = import_graph()
    assert "canasta.tui" in graph["canasta.cli"]  # imported inside the play command only
    assert "canasta.variants.classic" in graph["canasta.scoring"]  # under TYPE_CHECKING only
    assert "canasta.engine.game" in graph["canasta.players.expert"]  # at module level


def test_no_new_import_cycle_in_canasta() -> None:
    """Issue 22: "No import cycles anywhere inside `canasta/`, counting imports inside functions and
    `TYPE_CHECKING` blocks (check it in CI)"."""
    for component in cycles(import_graph()):
        assert any(component <= known for known in KNOWN_CYCLES), f"a new import cycle: {sorted(component)}"


def test_variants_sit_below_the_engine() -> None:
    """'Dependencies point one way': the engine reads the variants (data and small hooks), so no variant
    imports any part of ``canasta.engine`` (the meld shapes both use live in ``canasta.runs``, below both)."""
    graph = import_graph()
    upward = sorted((name, target) for name, targets in graph.items() if name.startswith("canasta.variants")
                    for target in targets if target == "canasta.engine" or target.startswith("canasta.engine."))
    assert upward == [], upward
    assert not any(target.startswith("canasta.engine") for target in graph["canasta.runs"])
