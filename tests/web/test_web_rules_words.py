"""The rules page in a player's words (issue 49, defect 6): seats counted from 1, no repository file names."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("markdown_it")

from canasta.web.app import variants_info
from canasta.web.rules_page import players_count_from_one, render_markdown, rules_page


@pytest.mark.parametrize(("text", "said"), [
    ("partners opposite: seats 0 and 2 against 1 and 3", "partners opposite: seats 1 and 3 against 2 and 4"),
    ("seats 0, 2, 4 against 1, 3, 5", "seats 1, 3, 5 against 2, 4, 6"),
    ("so seat 0 plays first", "so seat 1 plays first"),
    ("the partner (seat + 2) answers", "the partner (seat + 2) answers"),  # an offset, not a seat
    ("seats alternating", "seats alternating"),
    ("kept, per seat 1, 2 or null", "kept, per seat 1, 2 or null"),  # values per seat, not seats
    ("seat 2 players for Mille", "seat 2 players for Mille"),  # the verb
])
def test_seats_are_counted_from_one(text: str, said: str) -> None:
    assert players_count_from_one(text) == said


def test_file_names_give_way_to_words_and_code_keeps_its_seats() -> None:
    html = render_markdown("Sources, all in `shared/rules/`:\n\n- **Bicycle**: `classic-canasta-bicycle.txt`\n\n"
                           "seat 0 deals; the notation writes `seat 0`.", set())
    assert ".txt" not in html and "shared/rules" not in html
    assert "Bicycle</strong>: its text" in html and "in the rule texts" in html
    assert "seat 1 deals" in html and "<code>seat 0</code>" in html


def test_the_classic_rules_page_speaks_to_players() -> None:
    info = next(v for v in variants_info() if v["name"] == "classic")
    page = rules_page(info, {v["name"] for v in variants_info()})
    assert re.search(r"seats 1 and 3 against 2\s+and 4", page) and "seats 0 and 2" not in page
    assert "classic-canasta-bicycle.txt" not in page
