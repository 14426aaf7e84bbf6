"""research/search_overrules.py: where the expert's search overrules its base policy."""

from __future__ import annotations

import importlib

overrules = importlib.import_module("research.search_overrules")


def test_every_searched_decision_is_counted_once_and_overrules_are_gains() -> None:
    """Over a short game: the overrules are at most the decisions searched, each with one gain, and a gain is
    positive (the gate keeps the base policy's choice unless the search finds better)."""
    tallies = overrules.overrules(1, 3, worlds=3, horizon=10)
    assert sum(t.searched for t in tallies.values()) > 5
    for t in tallies.values():
        assert sum(t.overruled.values()) == len(t.gains) <= t.searched
        assert all(g > 0 for g in t.gains)
    table = overrules.render(tallies)
    assert table.count("\n") == len(tallies) + 1 and "| discard |" in table
