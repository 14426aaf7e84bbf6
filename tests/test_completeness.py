"""legal_actions() is complete, not only sound: every action check() accepts is listed, up to the
folding documented in docs/architecture.md ("What legal_actions() folds") and implemented by
canasta.completeness (issue 17, defect 3 and "Completeness, not only soundness")."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta.completeness import card_class, completeness_misses, fold_key, is_covered
from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.notation import format_action, parse_action
from tests.helpers import act, legal_texts, position


def _assert_listed(game: Game, move: str) -> None:
    action = parse_action(move)
    game.check(action)  # the rules accept it ...
    assert is_covered(game, action), f"{move} passes check() but legal_actions() lists only {sorted(legal_texts(game))}"


def test_american_pure_deuces_meld_start_listed_beside_a_joker() -> None:
    """Issue 17: 'American ... hand 2c 2d 2h JK ...: legal_actions() lists meld JK 2h 2d only, yet
    check("meld 2c 2d 2h") passes': the pure-deuces canasta (3000) must be reachable holding a joker."""
    game = position(variant="american", hands={0: "2c 2d 2h JK 5c 6c 8c 10c Jc Qc 4d 4h 5d 6d"},
                    melds={0: ["Ks Kh Kd"]}, phase="play")
    _assert_listed(game, "meld 2c 2d 2h")
    _assert_listed(game, "meld JK 2h 2d")
    assert completeness_misses(game)[1] == []


@pytest.mark.parametrize("variant", ["american", "classic"])
def test_three_jokers_meld_start_listed(variant: str) -> None:
    """Issue 17: 'Same with three jokers, and in Classic with wild_canastas=true'."""
    rules = {"wild_canastas": True} if variant == "classic" else {}
    game = position(variant=variant, rules=rules, hands={0: "JK JK JK 2c 2d 2h 5c 6c 8c 10c Jc Qc"},
                    melds={0: ["Ks Kh Kd"]}, phase="play")
    for move in ("meld JK JK JK", "meld JK JK 2c", "meld JK 2c 2d", "meld 2c 2d 2h"):
        _assert_listed(game, move)
    assert completeness_misses(game)[1] == []


def test_classic_last_black_three_added_after_melding_three() -> None:
    """Issue 17: 'Classic: one canasta on the side, hand 3s 3c 3s 3c: after meld 3s 3c 3s, only
    discard 3c is listed, while add 3 3c passes check()'."""
    game = position(hands={0: "3s 3c 3s 3c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    act(game, "meld 3s 3c 3s")
    _assert_listed(game, "add 3 3c")
    assert completeness_misses(game)[1] == []


def test_fold_keeps_what_the_rules_tell_apart() -> None:
    """The folding ignores only suits the variant ignores: a joker is not a 2, a red three is not a black
    three, Mille's Q of spades is not another queen; Samba's escaleras keep suits."""
    classic = position(hands={0: "5s 5h"})
    assert card_class(classic, parse_action("discard 5s").cards[0]) == card_class(classic, parse_action("discard 5h").cards[0])
    assert fold_key(classic, parse_action("meld JK 2c 2d")) != fold_key(classic, parse_action("meld 2c 2d 2h"))
    assert fold_key(classic, parse_action("discard 3h")) != fold_key(classic, parse_action("discard 3s"))
    mille = position(players=2, variant="mille", hands={0: "Qs Qh"})
    assert fold_key(mille, parse_action("discard Qs")) != fold_key(mille, parse_action("discard Qh"))
    samba = position(variant="samba", hands={0: "5s 5h"})
    assert fold_key(samba, parse_action("discard 5s")) != fold_key(samba, parse_action("discard 5h"))
    assert fold_key(samba, parse_action("discard 2s")) == fold_key(samba, parse_action("discard 2h"))
    assert format_action(parse_action("meld 2c 2d 2h"))  # (the notation reads the moves above)


# ------------------------------------------------------------------ Hypothesis-built positions
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from canasta.errors import CanastaError, IllegalActionError  # noqa: E402
from canasta.soak import run_soak  # noqa: E402

#: Cards a built hand is drawn from: wild cards, threes of both colours, pairs and more of a few ranks,
#: the cards whose listing the generators get wrong (mixes of wild cards, black threes, special cards).
_POOL = ["JK", "JK", "JK", "JK", "2c", "2d", "2h", "2s", "2c", "3s", "3c", "3s", "3c", "3h", "3d",
         "5s", "5h", "5d", "5c", "5s", "Ks", "Kh", "Kd", "Qs", "Qs", "Qh", "Jd", "Jc", "9s", "9h"]
#: Melds a built side may have (a canasta among them, so that going out is possible).
_MELDS = ("7s 7h 7d 7c 7s 7h 7d", "9d 9c 2s", "Kc Kc 2d", "Ad Ah Ac", "5s 5h 5d")
#: Classic-family variants (set melds): the ones a position can be written for with tests.helpers.position.
_SET_VARIANTS = (("classic", 4, {}), ("classic", 4, {"wild_canastas": True}), ("uruguayan", 4, {}),
                 ("cuban", 4, {}), ("mille", 2, {}), ("american", 4, {}), ("hand-and-foot", 4, {}),
                 ("triple-play", 4, {}))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(setup=st.sampled_from(_SET_VARIANTS),
       hand=st.lists(st.sampled_from(_POOL), min_size=1, max_size=9),
       melds=st.lists(st.sampled_from(_MELDS), max_size=3, unique=True),
       opened=st.booleans(),
       phase=st.sampled_from(["play", "draw"]),
       pile=st.sampled_from(["", "8s 5c", "8s Kh", "8s 9c", "8s 2h"]))
def test_built_positions_list_every_action_check_accepts(setup: tuple[str, int, dict[str, bool]], hand: list[str],
                                                          melds: list[str], opened: bool, phase: str, pile: str) -> None:
    """Issue 17: 'for random positions of every variant (soak positions, and Hypothesis-built ones), every
    action that check() accepts among a generated superset of candidate actions ... is listed by
    legal_actions() up to the documented canonical-suit folding.'"""
    variant, players, rules = setup
    ranks = [m.split()[0][:-1] for m in melds]
    assume(len(set(ranks)) == len(ranks))
    try:
        game = position(players, variant=variant, rules=rules, hands={0: " ".join(hand)}, melds={0: melds},
                        opened=[opened or bool(melds)] + [False] * (players // 2 if players == 4 else 1),
                        pile=pile, phase=phase)
    except (CanastaError, ValueError):
        assume(False)
        return
    checked, misses = completeness_misses(game)
    assert checked > 0
    assert misses == [], (variant, rules, hand, melds, opened, phase, pile, [format_action(a) for a in misses],
                          sorted(legal_texts(game)))


@pytest.mark.parametrize("variant", ["classic", "uruguayan", "cuban", "mille", "american", "burraco", "samba",
                                     "bolivian", "brazilian", "chilean", "italian", "hand-and-foot", "triple-play"])
def test_soak_positions_complete(variant: str) -> None:
    """The completeness check on the positions of one soaked hand of every variant (`canasta soak --complete`)."""
    result = run_soak(variant=variant, players=2 if variant == "mille" else 4, hands=1, seed=11, complete=True)
    assert result["positions_checked"] > 20
    assert result["failure_count"] == 0, result["failures"][:2]
    assert result["misses"] == 0


def test_mille_special_cards_in_meld_starts_and_takes() -> None:
    """Mille's Q of spades (100) and J of diamonds (50) are worth more than the rest of their rank: a meld
    or take with k of them is a move of its own for each k, and each has an action index of its own."""
    from canasta.encoding import legal_indices

    game = position(2, variant="mille", hands={0: "Js Jc Jc Jd Jd 5s 9h"}, phase="play")
    for move in ("meld Js Jc Jc", "meld Jd Jc Jc", "meld Jd Jd Jc", "meld Js Jc Jd"):
        _assert_listed(game, move)
    assert completeness_misses(game)[1] == []
    assert len(legal_indices(game.legal_actions(), "mille")) == len(game.legal_actions())
    take = position(2, variant="mille", hands={0: "Qs Qh Qd 5s 9h"}, pile="8s Qc", melds={0: ["Ks Kh Kd"]})
    _assert_listed(take, "take Qs Qh")
    _assert_listed(take, "take Qh Qd")


_ALL_VARIANTS = ("classic", "uruguayan", "cuban", "mille", "american", "burraco", "samba", "bolivian", "brazilian",
                 "chilean", "italian", "hand-and-foot", "triple-play")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(_ALL_VARIANTS), seed=st.integers(0, 10_000),
       choices=st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=120))
def test_positions_played_by_hypothesis_list_every_action_check_accepts(variant: str, seed: int,
                                                                          choices: list[float]) -> None:
    """Every variant, positions reached by Hypothesis-chosen play that prefers melds, additions and takes
    (richer tables than uniform play): completeness at the position reached and at every tenth one before it."""
    game = Game(variant, 2 if variant == "mille" else 4, seed)
    for step, x in enumerate(choices):
        if game.is_over:
            break
        legal = game.legal_actions()
        if step % 10 == 0:
            assert completeness_misses(game)[1] == []
        building = [a for a in legal if a.kind in ("meld", "add", "take")]
        pool = building if building and x < 0.8 else legal
        game.apply(pool[int(x * len(pool)) % len(pool)])
    if not game.is_over:
        misses = completeness_misses(game)[1]
        assert misses == [], [format_action(a) for a in misses]


def test_american_initial_mixed_meld_of_two_naturals_and_two_wild_cards_listed() -> None:
    """Terms (the initial meld): 'May include multiple mixed melds of two cards and up to two wild cards';
    a second wild card cannot be added to a meld begun with one, so `meld 8h 8d JK JK` is a start of its own
    (found by `canasta soak --complete`: check() accepted it, legal_actions() did not list it)."""
    game = position(variant="american", hands={0: "8h 8d JK JK 2c 2d 5s 6h 9c 10d Jh Qs Kc 4d"}, phase="play")
    for move in ("meld 8h 8d JK JK", "meld 8h 8d JK 2d", "meld 8h 8d 2d 2c"):
        _assert_listed(game, move)
    assert completeness_misses(game)[1] == []


#: One variant of each rules family: Classic's turn with set melds (canasta.engine.game), its feet and knees
#: (canasta.engine.feet), Modern American's set rules (canasta.engine.setrules), the meld-id rules on Classic's
#: turn (Samba, canasta.engine.idturn) and Burraco's (canasta.engine.idmelds); Mille has special cards.
_FAMILIES = ("classic", "mille", "american", "hand-and-foot", "samba", "burraco")


@pytest.mark.patches_engine  # (patches Game.legal_actions: the pure-Python pass only)
@pytest.mark.parametrize("variant", _FAMILIES)
@pytest.mark.parametrize("kind", ["meld", "discard", "add"])
def test_checker_reports_an_injected_omission(variant: str, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The faster candidate generation proves nothing if it stops seeing omissions: with ``legal_actions()``
    made to drop one listed action of a kind (a meld start, a discard, an addition), the checker must report
    exactly that omission at the position where it was dropped."""
    players = 2 if variant == "mille" else 4
    game = Game(variant, players, 5)
    rng = __import__("random").Random(5)
    dropped = None
    for _ in range(3000):
        if game.is_over:
            game = Game(variant, players, rng.randrange(10_000))
        legal = game.legal_actions()
        kinds = [a for a in legal if a.kind == kind and (kind != "meld" or len(a.cards) == 3)]
        if kinds:
            dropped = rng.choice(kinds)
            break
        building = [a for a in legal if a.kind in ("meld", "add", "take")]
        game.apply(rng.choice(building if building and rng.random() < 0.8 else legal))
    assert dropped is not None, f"no position with a listed {kind} reached"
    assert completeness_misses(game)[1] == []  # complete before the omission is injected
    original = Game.legal_actions
    dropped_key = fold_key(game, dropped)

    def omitting(self: Game) -> list[Action]:
        return [a for a in original(self) if fold_key(self, a) != dropped_key]

    monkeypatch.setattr(Game, "legal_actions", omitting)
    checked, misses = completeness_misses(game)
    assert checked > 0
    assert dropped_key in {fold_key(game, a) for a in misses}, (
        f"{variant}: dropped {format_action(dropped)}, checker reported {[format_action(a) for a in misses]}")


# ------------------------------------------------------------------ what the checker may skip without asking
#: The variants on the meld-id rules, whose meld starts the checker prunes by shape (canasta.completeness).
_MELD_ID_VARIANTS = ("samba", "bolivian", "brazilian", "chilean", "italian", "burraco")


@pytest.mark.parametrize("variant", _MELD_ID_VARIANTS)
def test_clashing_cards_never_make_a_meld(variant: str) -> None:
    """The lemma `meld_start_candidates` rests on, checked exhaustively: in the meld-id variants, a
    multiset of up to four card codes holding two natural cards of different rank and different suit
    is neither a set ('three to seven cards of the same rank') nor a run ('cards of the same suit, in
    consecutive order'): the variant's ``arrange_meld`` answers with a reason, so ``check()`` refuses it."""
    from itertools import combinations_with_replacement

    from canasta.completeness import clashes_in_a_run_or_set

    game = Game(variant, 4, 1)
    codes = sorted(set(game.variant.deck()))
    tried = 0
    for size in range(2, 5):
        for cards in combinations_with_replacement(codes, size):
            if any(clashes_in_a_run_or_set(a, b) for a, b in combinations_with_replacement(cards, 2)):
                tried += 1
                assert isinstance(game.variant.arrange_meld(cards), str), [format_action(Action("meld", cards))]
    assert tried > 100_000


@pytest.mark.parametrize("variant", ["samba", "italian", "burraco", "classic", "mille", "american", "hand-and-foot",
                                     "triple-play", "cuban"])
def test_pruning_only_skips_what_check_refuses(variant: str) -> None:
    """At soaked positions, every meld start of up to four held cards that the checker does not ask ``check()``
    about is refused by ``check()``: cards no meld holds together (set melds: natural cards of two ranks, 'a
    meld is three or more cards of one rank'; meld ids: of two ranks and two suits) and, with meld ids, cards
    the variant's ``arrange_meld`` makes no meld of."""
    import random

    from canasta.completeness import (
        MAX_MELD_CARDS,
        _held_by_class,
        _sub_multisets,
        class_table,
        meld_start_candidates,
        refused_by_shape,
    )

    rng = random.Random(4)
    players = 2 if variant == "mille" else 4
    game = Game(variant, players, 4)
    shapes: dict[tuple[int, ...], bool] = {}
    positions = skipped = 0
    while positions < 30:
        if game.is_over:
            game, shapes = Game(variant, players, rng.randrange(10_000)), {}
        legal = game.legal_actions()
        if game.phase == "play":
            positions += 1
            held = _held_by_class(game, game.actor, class_table(game))
            asked = {cards for _, cards in meld_start_candidates(game, held)}
            for _, cards in _sub_multisets(held, MAX_MELD_CARDS):
                action = Action("meld", cards)
                if cards not in asked or refused_by_shape(game, action, shapes):
                    skipped += 1
                    with pytest.raises(IllegalActionError):
                        game.check(action)
        building = [a for a in legal if a.kind in ("meld", "add", "take")]
        game.apply(rng.choice(building if building and rng.random() < 0.7 else legal))
    assert skipped > 500


def test_complete_rounds_resume_without_replaying_a_seed(tmp_path: Path) -> None:
    """The long completeness run is resumable: the chunks already written count, and a second start
    continues with the seeds after them (so a faster checker can take over a running soak)."""
    import json
    from itertools import pairwise

    from canasta.soak import run_complete_rounds

    out = tmp_path / "complete.jsonl"
    run_complete_rounds(str(out), variants=["classic"], hands=2, round_seconds=0.01)
    first = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    run_complete_rounds(str(out), variants=["classic"], hands=4, round_seconds=0.01)
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows[:len(first)] == first and len(rows) > len(first)
    assert sum(row["hands"] for row in rows) >= 4 and all(row["misses"] == 0 for row in rows)
    starts = [row["seeds"][0] for row in rows]
    assert len(set(starts)) == len(starts) and starts == sorted(starts)
    seeds = [row["seeds"] for row in rows]
    assert all(earlier[1] < later[0] for earlier, later in pairwise(seeds))


def test_mille_wild_cards_alone_join_the_meld_of_wild_cards() -> None:
    """Mille: 'All cards of the same rank that are laid down by a player are considered to form one meld', and
    wild cards alone join the side's meld of 2s the same way: `meld 2h 2c 2c` is `add W 2h 2c 2c`, covered by
    listed one-card additions (found by the completeness soak: the checker followed only natural ranks)."""
    game = position(2, variant="mille", hands={0: "2h 2c 2c 5s 9h Kd"}, melds={0: ["2s 2d 2h"]}, phase="play")
    action = parse_action("meld 2h 2c 2c")
    game.check(action)
    assert is_covered(game, action)
    assert completeness_misses(game)[1] == []


def test_complete_soak_command_runs_resumes_and_sums(tmp_path: Path) -> None:
    """`canasta complete-soak --out FILE`: the long run's command; a second call resumes the same file and
    `--summary` prints the totals per variant."""
    from typer.testing import CliRunner

    from canasta.cli import app

    out = str(tmp_path / "rounds.jsonl")
    runner = CliRunner()
    first = runner.invoke(app, ["complete-soak", "--out", out, "--variants", "classic", "--hands", "1"])
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, ["complete-soak", "--out", out, "--variants", "classic", "--hands", "2"])
    assert second.exit_code == 0, second.output
    summary = runner.invoke(app, ["complete-soak", "--out", out, "--summary"])
    row = next(line for line in summary.output.splitlines() if line.startswith("| classic |"))
    hands = int(row.split("|")[2].replace(",", ""))
    assert hands >= 2 and "| 0 | 0 |" in row
    assert runner.invoke(app, ["complete-soak", "--out", out, "--variants", "nonesuch"]).exit_code != 0
