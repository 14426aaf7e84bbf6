"""Whole-game records (canasta.record, docs/notation.md): round trips, replay, redaction, errors.

The golden record tests/data/classic-4p-seed7.txt is one complete game of four
BasicPlayers with seed 7. It is replayed and re-scored on every run; regenerate
it (only after a deliberate rules change) with ``python tests/test_record.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from canasta.cards import is_red_three
from canasta.engine.game import Game
from canasta.errors import NotationError
from canasta.record import (
    Record,
    RecordError,
    export_record,
    format_record,
    parse_record,
    record_from_game,
    replay_command,
    replay_record,
)

GOLDEN = Path(__file__).parent / "data" / "classic-4p-seed7.txt"
GOLDEN_DATE = "2026-11-22"
EXAMPLES = max(5, settings().max_examples // 2)
RULE_SETS: list[dict[str, Any]] = [
    {},
    {"stock_reshuffle": True},
    {"jokers": 2, "seven_of_each": True},
    {"red_three_last_card": "meld_then_end", "stock_out": "optional"},
    {"wild_canastas": True, "only_top_card_usable": True},
]


def random_game(seed: int, players: int = 4, steps: int = 300, rules: dict[str, Any] | None = None) -> Game:
    """A game driven by random legal actions for at most ``steps`` actions."""
    game = Game("classic", players, seed, rules)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def complete_game(seed: int, players: int = 4) -> Game:
    """A whole game to the target score, played by BasicPlayers (random play rarely gets there)."""
    from canasta.players.basic import BasicPlayer

    game = Game("classic", players, seed)
    bots = [BasicPlayer(seed=s) for s in range(players)]
    while not game.is_over:
        game.apply(bots[game.actor].choose(game.observation(game.actor), game.legal_actions()))
    return game


def check_round_trip(game: Game) -> str:
    """export -> parse -> format is the identity, and replay rebuilds the exact state."""
    text = export_record(game, date=GOLDEN_DATE)
    assert format_record(parse_record(text)) == text
    assert replay_record(text).to_json() == game.to_json()
    return text


def check_redaction(game: Game, seat: int) -> None:
    """The record for ``seat`` is the full record with every card ``seat`` never saw masked."""
    full = record_from_game(game)
    text = export_record(game, seat=seat)
    red = parse_record(text)
    assert format_record(red) == text
    assert "Seed" not in red.tags and "[Seed" not in text
    assert red.tags["Redacted"] == str(seat) and red.redacted_for == seat

    def masked(owner: int, cards: list[int | None] | tuple[int | None, ...]) -> list[int | None]:
        return list(cards) if owner == seat else [c if c is not None and is_red_three(c) else None for c in cards]

    assert len(red.hands) == len(full.hands)
    for fh, rh in zip(full.hands, red.hands, strict=True):
        assert (rh.number, rh.dealer, rh.upcards) == (fh.number, fh.dealer, fh.upcards)
        assert rh.deals == [(s, masked(s, cards)) for s, cards in fh.deals]
        assert rh.replacements == [(s, masked(s, cards)) for s, cards in fh.replacements]
        assert len(rh.moves) == len(fh.moves)
        for fm, rm in zip(fh.moves, rh.moves, strict=True):
            assert (rm.seat, rm.action) == (fm.seat, fm.action)
            assert rm.drawn == (None if fm.drawn is None else tuple(masked(fm.seat, fm.drawn)))
        assert rh.score == fh.score
        # the seat's own cards are all there
        assert dict(rh.deals)[seat] == [c for c in dict(fh.deals)[seat]]
    with pytest.raises(RecordError, match="redacted"):
        replay_record(text)


# ---------------------------------------------------------------- golden record
def test_golden_record_replays_and_rescores() -> None:
    text = GOLDEN.read_text()
    game = replay_record(text)
    assert game.is_over and game.winner == 0
    # re-export of the replay gives the stored file byte for byte
    assert export_record(game, date=GOLDEN_DATE) == text
    totals = [0] * game.num_sides
    for result in game.hand_results:
        for side, s in enumerate(result["sides"]):
            assert s["total"] == sum(s["items"].values())
            totals[side] += s["total"]
        assert result["totals"] == totals
    assert game.scores == totals
    assert max(totals) >= game.variant.target_score


def test_golden_record_summary() -> None:
    summary = replay_command(GOLDEN.read_text())
    lines = summary.splitlines()
    assert "627 actions in 8 hand(s)" in lines[0]
    assert lines[2].split() == ["1", "+1845", "1845", "+395", "395", "seat", "2"]
    assert lines[-1] == "side 0 wins with 6480; side 1 5005"


def test_cli_replay(tmp_path: Path) -> None:
    from canasta.cli import app

    runner = CliRunner()
    ok = runner.invoke(app, ["replay", str(GOLDEN)])
    assert ok.exit_code == 0, ok.output
    assert "side 0 wins" in ok.output
    bad = tmp_path / "bad.txt"
    bad.write_text(GOLDEN.read_text().replace('[Players "4"]', '[Players "5"]'))
    failed = runner.invoke(app, ["replay", str(bad)])
    assert failed.exit_code == 2
    assert "line 4" in failed.output


# ------------------------------------------------------------------ round trips
@settings(max_examples=EXAMPLES)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), steps=st.integers(0, 500),
       rules=st.sampled_from(RULE_SETS), seat=st.integers(0, 3))
def test_random_games_round_trip(seed: int, players: int, steps: int, rules: dict[str, Any], seat: int) -> None:
    game = random_game(seed, players, steps, rules)
    check_round_trip(game)
    check_redaction(game, seat % players)


@pytest.mark.parametrize(("seed", "players"), [(3, 2), (11, 3)])
def test_complete_games_round_trip(seed: int, players: int) -> None:
    game = complete_game(seed, players)
    assert game.is_over
    text = check_round_trip(game)
    assert "wins" in parse_record(text).tags["Result"]
    check_redaction(game, 1)


def test_fresh_game_round_trips() -> None:
    game = Game("classic", 4, 5)
    text = check_round_trip(game)
    assert parse_record(text).tags["Result"] == "*"
    assert len(parse_record(text).hands) == 1


def test_rules_and_string_seed_round_trip() -> None:
    game = Game("classic", 3, "table four", {"jokers": 6, "stock_out": "end"})
    rng = random.Random(1)
    for _ in range(80):
        game.apply(rng.choice(game.legal_actions()))
    text = check_round_trip(game)
    assert '[Rules "{"jokers": 6, "stock_out": "end"}"]' in text
    assert '[Seed "table four"]' in text


@pytest.mark.parametrize("seed", ["007", "-0", "12 34", 'say "hi"]', -3])
def test_odd_seeds_round_trip(seed: int | str) -> None:
    game = Game("classic", 2, seed)
    rng = random.Random(0)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    check_round_trip(game)


def test_truncated_record_replays_to_that_point() -> None:
    """Cutting a record after any move gives the game after that move (Result '*')."""
    full = replay_record(GOLDEN.read_text())
    cut = 200
    partial = Game("classic", 4, 7)
    for _, action, _ in full.history[:cut]:
        partial.apply(action)
    text = export_record(partial)
    assert replay_record(text).to_json() == partial.to_json()
    assert text.splitlines()[6] == '[Result "*"]'


def test_export_date_and_comments() -> None:
    game = random_game(2, 4, 30)
    text = export_record(game, date="2026-11-22")
    assert '[Date "2026-11-22"]' in text
    assert '[Date "?"]' in export_record(game)
    noisy = "# a comment\n\n" + text.replace("\nhand 1", "\n   \n# the first hand\nhand 1")
    assert replay_record(noisy).to_json() == game.to_json()


def test_parse_record_structure() -> None:
    record = parse_record(GOLDEN.read_text())
    assert isinstance(record, Record)
    assert list(record.tags) == ["Variant", "RulesVersion", "Rules", "Players", "Seed", "Date", "Result"]
    assert record.tags["Result"] == "6480 5005; side 0 wins"
    first = record.hands[0]
    assert (first.number, first.dealer, first.line) == (1, 3, 9)
    assert [s for s, _ in first.deals] == [0, 1, 2, 3]
    assert all(len(cards) == 11 for _, cards in first.deals)
    assert first.score is not None and first.score.totals == [1845, 395] and first.score.went_out == 2
    assert first.moves[0].seat == 0 and first.moves[0].drawn is not None
    assert record.redacted_for is None


def test_no_such_seat_to_redact_for() -> None:
    with pytest.raises(NotationError):
        export_record(Game("classic", 2, 0), seat=2)


def test_position_without_deals_has_no_record() -> None:
    data = Game("classic", 4, 0).to_dict()
    data["deals"] = []
    with pytest.raises(NotationError, match="not dealt"):
        export_record(Game.from_dict(data))


def test_saved_and_loaded_game_exports_the_same_record() -> None:
    game = random_game(9, 4, 250)
    assert export_record(Game.from_json(game.to_json())) == export_record(game)


def test_extra_tags_are_kept() -> None:
    game = random_game(4, 2, 60)
    text = export_record(game).replace('[Date "?"]', '[Date "?"]\n[Event "club night"]')
    record = parse_record(text)
    assert record.tags["Event"] == "club night"
    assert format_record(record) == text
    assert replay_record(text).to_json() == game.to_json()


# ------------------------------------------------------------ malformed records
def golden_lines() -> list[str]:
    return GOLDEN.read_text().splitlines()


def first(lines: list[str], test: Callable[[str], bool]) -> int:
    """0-based index of the first line passing ``test``."""
    return next(i for i, s in enumerate(lines) if test(s))


def expect_error(lines: list[str], line: int, fragment: str, replay: bool = True) -> RecordError:
    """The record fails naming 1-based ``line`` (0: the record as a whole) and saying ``fragment``."""
    text = "\n".join(lines) + "\n"
    with pytest.raises(RecordError) as info:
        replay_record(text) if replay else parse_record(text)
    err = info.value
    assert err.line == line, str(err)
    assert fragment in str(err)
    if line:
        assert str(err).startswith(f"line {line}: ")
    assert isinstance(err, NotationError)
    return err


@pytest.mark.parametrize(("old", "new", "fragment"), [
    ('[Variant "classic"]', "[Variant classic]", "a tag is"),
    ('[Variant "classic"]', '[Variant "samba-ish"]', "samba-ish"),
    ('[Players "4"]', '[Players "four"]', "whole number"),
    ('[Players "4"]', '[Players "7"]', "not 7"),
    ('[Rules "{}"]', '[Rules "{jokers: 2}"]', "not JSON"),
    ('[Rules "{}"]', '[Rules "{"jokers": 3}"]', "jokers"),
    ('[Rules "{}"]', '[Rules "{"no_such_rule": 1}"]', "no_such_rule"),
    ('[RulesVersion "1"]', '[RulesVersion "2"]', "rules version 2"),
    ('[Result "6480 5005; side 0 wins"]', '[Result "6480 5005; side 1 wins"]', "the game's result"),
])
def test_bad_tags(old: str, new: str, fragment: str) -> None:
    lines = golden_lines()
    i = lines.index(old)
    lines[i] = new
    expect_error(lines, i + 1, fragment, replay=True)


def test_missing_seed_and_duplicate_tag() -> None:
    lines = golden_lines()
    expect_error([s for s in lines if not s.startswith("[Seed")], 0, "no [Seed")
    lines.insert(1, '[Variant "classic"]')
    expect_error(lines, 2, "given twice", replay=False)


def test_bad_card_in_deal() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("deal 2:"))
    lines[i] = lines[i].replace("Qd", "Qx", 1)
    expect_error(lines, i + 1, "'Qx' is not a card", replay=False)


def test_deal_that_differs() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("deal 1:"))
    lines[i] = lines[i].replace("10d", "9d", 1)
    expect_error(lines, i + 1, "cards dealt to seat 1")


def test_upcard_and_replacement_that_differ() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("upcard"))
    lines[i] = "upcard 5s"
    expect_error(lines, i + 1, "upcards")
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("replace 1:"))
    del lines[i]
    expect_error(lines, 9, "no 'replace 1:' line")


def test_illegal_move() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("0: draw"))
    lines[i] = "0: discard 4d"
    err = expect_error(lines, i + 1, "illegal move")
    assert "[draw-first]" in str(err)


def test_move_by_the_wrong_seat() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("0: draw"))
    lines[i] = lines[i].replace("0:", "1:", 1)
    expect_error(lines, i + 1, "seat 0's turn")


def test_mismatched_draw() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("1: draw {"))
    drawn = lines[i].split("{")[1].rstrip("}")
    lines[i] = "1: draw {" + ("4c" if drawn != "4c" else "5c") + "}"
    expect_error(lines, i + 1, "cards drawn from the stock")


def test_missing_and_malformed_draw_annotation() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("1: draw {"))
    lines[i] = "1: draw"
    expect_error(lines, i + 1, "write them in braces")
    lines[i] = "1: draw {}"
    expect_error(lines, i + 1, "empty braces", replay=False)
    lines[i] = "1: draw {9s"
    expect_error(lines, i + 1, "braces", replay=False)


def test_mismatched_score() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("score 1:"))
    lines[i] = lines[i].replace("totals 1845 395", "totals 1845 396")
    expect_error(lines, i + 1, "the hand scores")
    lines = golden_lines()
    lines[i] = lines[i].replace("out 2", "out 0")
    expect_error(lines, i + 1, "the hand scores")
    lines[i] = lines[i].replace("out 0", "out somebody")
    expect_error(lines, i + 1, "expected 'out SEAT'", replay=False)


def test_missing_score_line() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("score 1:"))
    del lines[i]
    expect_error(lines, i, "hand 1 ended here")


def test_move_after_the_hand_ended() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("score 1:"))
    lines.insert(i, "0: draw {4c}")
    expect_error(lines, i + 1, "hand 1 is over")
    lines = golden_lines()
    lines.insert(i + 1, "0: draw {4c}")
    expect_error(lines, i + 2, "already scored", replay=False)


def test_missing_next_hand() -> None:
    lines = golden_lines()
    i = first(lines, lambda s: s.startswith("hand 2 "))
    lines = lines[:i]
    lines[6] = '[Result "*"]'
    expect_error(lines, i - 1, "no 'hand 2' lines")


def test_unknown_line() -> None:
    lines = golden_lines()
    lines.insert(9, "shuffle twice")
    expect_error(lines, 10, "a move is 'SEAT: ACTION'", replay=False)
    lines = golden_lines()
    lines.insert(7, "0: draw")
    expect_error(lines, 8, "expected a tag or 'hand N dealer D'", replay=False)


def test_redacted_record_does_not_replay() -> None:
    game = replay_record(GOLDEN.read_text())
    text = export_record(game, seat=2)
    record = parse_record(text)
    assert record.redacted_for == 2
    err = expect_error(text.splitlines(), 7, "redacted for seat 2")
    assert "cannot be replayed" in str(err)
    check_redaction(game, 2)


def _regenerate_golden() -> None:
    game = complete_game(7)
    GOLDEN.write_text(export_record(game, date=GOLDEN_DATE))


if __name__ == "__main__":
    _regenerate_golden()
