"""research/arena_paired.py: two arena results of the same deals compared deal by deal, and pooled over pairs."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

paired = importlib.import_module("research.arena_paired")


def result(path: Path, name: str, margins: list[int]) -> str:
    """An arena result of ``name`` against ``basic``: one deal per margin, two rotations each, the same margin."""
    records = [{"deal": deal, "rotation": rotation, "names": [name, "basic"] if rotation == 0 else ["basic", name],
                "scores": [m, 0] if rotation == 0 else [0, m], "winners": [0 if rotation == 0 else 1] if m > 0 else [1 - rotation]}
               for deal, m in enumerate(margins) for rotation in range(2)]
    path.write_text(json.dumps({"players": [name, "basic"], "summary": {name: {}, "basic": {}}, "records": records}))
    return str(path)


def test_pairs_are_compared_deal_by_deal_and_pooled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a1 = result(tmp_path / "a1.json", "expert:x=1", [100, 50, -20])
    b1 = result(tmp_path / "b1.json", "expert", [80, 50, -40])
    a2 = result(tmp_path / "a2.json", "expert:x=1", [10, 30])
    b2 = result(tmp_path / "b2.json", "expert", [10, 10])
    paired.main([a1, b1, a2, b2])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6
    assert "difference +13.333" in lines[1] and "over 3 deals" in lines[1]
    assert "difference +10.000" in lines[3] and "over 2 deals" in lines[3]
    # pooled: the five deals' differences 20, 0, 20, 0, 20 count once each
    assert lines[5].startswith("margin: pooled") and "difference +12.000" in lines[5] and "over 5 deals" in lines[5]
    assert "difference +0.000" in lines[4]  # every deal won or lost by both alike
