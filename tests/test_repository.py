"""Checks of the repository itself: no merge left half-done in a tracked file.

A merge once committed app.css with its conflict markers; Chromium dropped the rules around them and no
test noticed. A marker is a line that starts with seven '<' or '>' and a space, or is exactly seven '='
(reStructuredText tables such as '====  ====' are not markers).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(rb"^(?:<{7} |={7}\r?$|>{7} )", re.MULTILINE)


def conflict_markers(paths: list[Path], root: Path = ROOT) -> list[str]:
    """'path:line' for each conflict marker in the text files among ``paths`` (binary files are skipped)."""
    found = []
    for path in paths:
        try:
            data = path.read_bytes()
        except (FileNotFoundError, IsADirectoryError):  # deleted in the worktree, or a submodule
            continue
        if b"\0" in data[:8192]:
            continue
        for m in MARKER.finditer(data):
            line = data.count(b"\n", 0, m.start()) + 1
            found.append(f"{path.relative_to(root)}:{line}")
    return found


def tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / p for p in out.decode().split("\0") if p]


def test_no_tracked_file_holds_merge_conflict_markers() -> None:
    assert conflict_markers(tracked_files()) == []


def test_markers_are_found_and_rst_tables_are_not(tmp_path: Path) -> None:
    """The check itself: it finds each kind of marker, and leaves table rules and longer runs alone."""
    bad = tmp_path / "bad.css"
    bad.write_text("a {}\n<<<<<<< HEAD\nb {}\n=======\nc {}\n>>>>>>> branch\n")
    fine = tmp_path / "fine.rst"
    fine.write_text("=======  =====\nname     value\n=======  =====\n========\n<<<<<<<< not one\n")
    found = [f.split(":")[-1] for f in conflict_markers([bad, fine], tmp_path)]
    assert found == ["2", "4", "6"]

