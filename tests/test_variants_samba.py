"""Samba (triple-play-samba-burraco-mille-hand-and-foot-classic.txt, section "Samba": "Denexa").

Each rule test quotes the sentence of the text it enforces (or, for an option, the
Encyclopedia's "Samba" section). Positions are built with :func:`spos` from cards in
the text notation; melds are written as card strings and arranged by the variant.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from canasta import Game
from canasta.cards import format_cards, parse_card
from canasta.completeness import completeness_misses
from canasta.encoding import action_mask, encode_observation, legal_indices, num_actions, obs_size
from canasta.errors import IllegalActionError, OptionError
from canasta.notation import ID_BASE, format_action, parse_action
from canasta.players.basic import BasicPlayer
from canasta.scorekeeper import score_input
from canasta.variants import VARIANTS, find_variant
from canasta.variants.samba import Samba


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def spos(*, hands: Mapping[int, str] | None = None, pile: str = "", melds: Mapping[int, Sequence[str]] | None = None,
         stock: str = "", turn: int = 0, phase: str = "draw", red_threes: Sequence[str] = ("", ""),
         opened: Sequence[bool] = (True, True), frozen: bool = False, scores: Sequence[int] = (0, 0),
         rules: Mapping[str, Any] | None = None, rest: str = "stock", variant: str = "samba", **fields: Any) -> Game:
    """A Samba position: the cards not named fill the bottom of the stock (or of the pile)."""
    base = Game(variant, 4, 0, dict(rules or {}))
    d = base.to_dict()
    v: Any = base.variant
    pack = Counter(v.deck())
    hands_c = [cards((hands or {}).get(s, "")) for s in range(4)]
    pile_c = cards(pile)
    stock_c = cards(stock)
    reds = [cards(r) for r in red_threes]
    meld_lists: list[list[list[Any]]] = [[], []]
    next_id = 1
    for side in range(2):
        for text in (melds or {}).get(side, []):
            got = v.arrange_meld(cards(text))
            assert not isinstance(got, str), (text, got)
            kind, (order, wild_index, low) = got
            meld_lists[side].append([next_id, kind, list(order), wild_index, low])
            next_id += 1
    named = [c for h in hands_c for c in h] + pile_c + stock_c + [c for r in reds for c in r]
    named += [c for side in meld_lists for m in side for c in m[2]]
    assert not (Counter(named) - pack), "more copies named than the pack holds"
    rest_cards = sorted((pack - Counter(named)).elements())
    if rest == "stock":
        full_stock = rest_cards + list(reversed(stock_c))
    else:
        full_stock = list(reversed(stock_c))
        pile_c = rest_cards + pile_c
    d.update({
        "stock": full_stock, "pile": pile_c, "hands": [sorted(h) for h in hands_c], "melds": meld_lists,
        "next_meld_id": next_id, "turn": turn, "phase": phase, "drawn": phase == "play",
        "red_threes": reds, "opened": list(opened), "frozen": frozen, "scores": list(scores),
        "history": [], "deals": [],
    })
    d.update(fields)
    return Game.from_dict(d)


def act(g: Game, text: str) -> Game:
    return g.apply(parse_action(text))


def illegal(g: Game, text: str, rule: str) -> None:
    before = g.to_json()
    with pytest.raises(IllegalActionError) as e:
        g.apply(parse_action(text))
    assert e.value.rule == rule, (e.value.rule, str(e.value))
    assert g.to_json() == before


def legal_texts(g: Game) -> set[str]:
    return {format_action(a) for a in g.legal_actions()}


def meld_texts(g: Game, side: int) -> list[str]:
    return [format_cards(m.cards) for m in g.melds[side].values()]


# ------------------------------------------------------------------ setup
def test_pack_of_162():
    """'Samba uses a gargantuan deck of cards ... 162 cards in all ... three decks ... being sure to include
    the jokers.'"""
    deck = find_variant("samba")(4).deck()
    assert len(deck) == 162
    assert Counter(deck)[parse_card("JK")] == 6 and Counter(deck)[parse_card("Kh")] == 3


def test_four_players_only():
    """'Like Canasta, it is a partnership game for four players.'"""
    with pytest.raises(OptionError):
        Game("samba", 2, 0)


def test_deal_fifteen_and_an_upcard():
    """'Shuffle and deal fifteen cards to each player ... Turn the top card of the stock face up ... This
    turned-up card is the first card in the discard pile.' Red threes dealt are laid out and replaced."""
    for seed in range(20):
        g = Game("samba", 4, seed)
        assert len(g.pile) == 1
        assert all(n == 15 for n in g.hand_sizes)
        reds = sum(len(r) for r in g.red_threes)
        assert len(g.stock) == 162 - 60 - 1 - reds
        assert not any(g.hands[s][c] for s in range(4) for c in cards("3h 3d"))
        up = g.pile[0]
        assert g.frozen == (up in cards("3h 3d JK 2s 2h 2d 2c"))


def test_red_three_or_wild_upcard_freezes():
    """'Should a red 3 or wild card end up in the discard pile, either by being the initial upcard, or ...
    by being intentionally discarded there, the discard pile is considered frozen.'"""
    seen = set()
    for seed in range(300):
        g = Game("samba", 4, seed)
        up = g.pile[0]
        kind = "red3" if up in cards("3h 3d") else "wild" if up in cards("JK 2s 2h 2d 2c") else "other"
        seen.add(kind)
        assert g.frozen == (kind != "other")
    assert seen == {"red3", "wild", "other"}


# ------------------------------------------------------------------ melds
def test_sets_and_escaleras():
    """'A set consists of three to seven cards of the same rank. An escalera is made up of three to seven cards
    of the same suit, in consecutive order. For the purposes of escaleras, aces rank high, and the cards proceed
    in their usual order down to the 4. (Black 3s cannot be used in escaleras.)'"""
    v: Any = find_variant("samba")(4)
    assert v.arrange_meld(cards("Kh Kd Ks"))[0] == "set"
    assert v.arrange_meld(cards("6h 4h 5h")) == ("run", (tuple(cards("4h 5h 6h")), -1, 4))
    assert v.arrange_meld(cards("Qs Ks As"))[0] == "run"
    assert isinstance(v.arrange_meld(cards("Ks As 2s")), str)  # no wrap, and 2s are wild
    assert isinstance(v.arrange_meld(cards("As 2s 3s")), str)
    assert isinstance(v.arrange_meld(cards("3c 4c 5c")), str)
    assert isinstance(v.arrange_meld(cards("4h 5h 7h")), str)
    assert isinstance(v.arrange_meld(cards("4h 5d 6h")), str)
    assert isinstance(v.arrange_meld(cards("Kh Kd Ks Kc Kh Kd Ks Kc")), str)  # 'three to seven'


def test_no_wild_cards_in_escaleras():
    """'Wild cards can only be used in sets; they are prohibited in escaleras.'"""
    g = spos(hands={0: "4h 5h JK 9c 9d"}, melds={0: ["6h 7h 8h"]}, phase="play")
    illegal(g, "meld 4h 5h JK", "wild-limit")
    illegal(g, f"add #{1} JK", "wild-limit")
    assert "add #1 JK" not in legal_texts(g)
    assert "add #1 5h" in legal_texts(g)


def test_at_most_two_wild_cards_in_a_set():
    """'Any given set may not contain more than two wild cards.'"""
    g = spos(hands={0: "JK 2c 9c 9d"}, melds={0: ["Kh Kd Ks 2s JK"]}, phase="play")
    illegal(g, "add #1 2c", "wild-limit")
    g = spos(hands={0: "JK 2c 9c 9d"}, melds={0: ["Kh Kd Ks 2s"]}, phase="play")
    act(g, "add #1 JK")
    assert meld_texts(g, 0) == ["Kh Kd Ks 2s JK"]


def test_several_sets_of_a_rank_and_escaleras_of_a_suit():
    """'A partnership can have multiple sets of the same rank, or multiple escaleras of the same suit.'"""
    g = spos(hands={0: "Kh Kd Ks 4h 5h 6h 9c 9d"}, melds={0: ["Kc Kc Ks", "9h 10h Jh"]}, phase="play")
    act(g, "meld Kh Kd Ks")
    act(g, "meld 4h 5h 6h")
    assert meld_texts(g, 0) == ["Kc Kc Ks", "9h 10h Jh", "Kh Kd Ks", "4h 5h 6h"]


def test_seven_cards_close_a_meld():
    """'Melds are capped at a maximum size of seven cards ... No more cards can be added to a canasta or samba.'"""
    g = spos(hands={0: "Kc Jh 9c 9d"}, melds={0: ["Kh Kd Ks Kh Kd Ks Kc", "4h 5h 6h 7h 8h 9h 10h"]},
             phase="play")
    illegal(g, "add #1 Kc", "canasta-closed")
    illegal(g, "add #2 Jh", "canasta-closed")


def test_black_threes_only_when_going_out():
    """Black 3s: 'Can only be melded at the end of the hand'."""
    sevens = ["Kh Kd Ks Kh Kd Ks Kc", "5s 6s 7s 8s 9s 10s Js"]
    g = spos(hands={0: "3s 3c 3s 9c 9d"}, melds={0: sevens}, phase="play")
    illegal(g, "meld 3s 3c 3s", "black-three-timing")
    g = spos(hands={0: "3s 3c 3s 9c"}, melds={0: sevens}, phase="play")
    act(g, "meld 3s 3c 3s")
    act(g, "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0


def test_four_black_threes_going_out_are_listed():
    """Black 3s 'can only be melded at the end of the hand' and 'a set consists of three to seven cards of the
    same rank': holding 3s 3s 3c 3c 7h, the four threes go out (then the discard) while three of them cannot
    (two cards would be left), so the four-card meld is a listed start of its own (found by the completeness
    soak: check() accepted `meld 3s 3s 3c 3c`, legal_actions() listed only the discards)."""
    sevens = ["Kh Kd Ks Kh Kd Ks Kc", "5s 6s 7s 8s 9s 10s Js"]
    g = spos(hands={0: "3s 3s 3c 3c 7h"}, melds={0: sevens}, phase="play")
    illegal(g, "meld 3s 3s 3c", "black-three-timing")
    assert "meld 3s 3s 3c 3c" in legal_texts(g)
    assert completeness_misses(g)[1] == []
    assert len(legal_indices(g.legal_actions(), "samba")) == len(g.legal_actions())  # each has an action index
    act(g, "meld 3s 3s 3c 3c")
    act(g, "discard 7h")
    assert g.hand_results[-1]["went_out"] == 0


# ------------------------------------------------------------------ the pile
def test_take_with_a_natural_pair():
    """'if ... they hold two other natural cards of the same rank to form a new meld with, they can take the
    entire discard pile into their hand ... they must immediately meld the top card'."""
    g = spos(hands={0: "9c 9d 4s 5s", 1: "Qs Qd Qc"}, pile="7c 8d 9h", melds={0: ["Ks Kd Kc"]})
    assert "take 9d 9c" in legal_texts(g) or "take 9c 9d" in legal_texts(g)
    act(g, "take 9c 9d")
    assert meld_texts(g, 0)[-1] == "9h 9c 9d"
    assert g.hands[0][parse_card("7c")] == 1 and g.hands[0][parse_card("8d")] == 1
    assert not g.pile


def test_take_with_a_natural_and_a_wild_card_is_refused():
    """'they hold two other natural cards of the same rank to form a new meld with': a wild card does not
    count."""
    g = spos(hands={0: "9c JK 4s 5s"}, pile="7c 9h")
    illegal(g, "take 9c JK", "take-naturals")


def test_take_onto_an_existing_meld():
    """'if the top card of the discard pile can, by itself, be legally added to a meld that the player's team
    already holds ... they can take the entire discard pile'."""
    g = spos(hands={0: "4s 5s Jc"}, pile="7c 9h", melds={0: ["9s 9d 9c", "6h 7h 8h"]})
    assert {"take #1", "take #2"} <= legal_texts(g)
    act(g, "take #2")
    assert meld_texts(g, 0)[1] == "6h 7h 8h 9h"


def test_pile_cannot_start_an_escalera():
    """'Note that the discard pile cannot be taken in order to form a new escalera. The discard pile can be taken
    if its top card would be able to extend the escalera without any other cards from the hand being used.'"""
    g = spos(hands={0: "7h 8h Jc Qd"}, pile="7c 9h")
    assert not any(a.kind == "take" for a in g.legal_actions())
    illegal(g, "take 7h 8h", "take-naturals")
    g = spos(hands={0: "Jc Qd"}, pile="7c 9h", melds={0: ["6h 7h 8h"]})
    act(g, "take #1")


def test_frozen_pile_only_with_a_natural_pair():
    """'When the discard pile is frozen, it may only be taken if its top card can be used to form a new meld with
    two or more natural cards of the same rank from the hand (i.e. you cannot take a frozen discard pile to add
    to an existing meld).'"""
    g = spos(hands={0: "9c 9d Jc"}, pile="2c 7c 9h", melds={0: ["9s 9d 9c"]}, frozen=True)
    illegal(g, "take #1", "pile-frozen")
    assert "take 9d 9c" in legal_texts(g) and "take #1" not in legal_texts(g)
    act(g, "take 9c 9d")
    assert not g.frozen


def test_wild_discard_freezes_and_blocks():
    """'A discard pile topped by a wild card can never be taken.' A wild card 'intentionally discarded there'
    freezes the pile."""
    g = spos(hands={0: "JK 4c 5d", 1: "Qs Qd 9h"}, pile="Qc", melds={1: ["Qh Qh Qd"]}, phase="play")
    act(g, "discard JK")
    assert g.frozen
    illegal(g, "take Qs Qd", "pile-blocked")


def test_black_three_blocks_the_next_player():
    """Black 3s 'prevent the discard pile from being taken when one is the upcard'."""
    g = spos(hands={0: "3s 4c 5d", 1: "Qs Qd 9h"}, pile="Qc", phase="play")
    act(g, "discard 3s")
    illegal(g, "take Qs Qd", "pile-blocked")
    assert not g.frozen


# ------------------------------------------------------------------ the initial meld
@pytest.mark.parametrize(("score", "need"), [(-10, 15), (0, 50), (1499, 50), (1500, 90), (2999, 90),
                                             (3000, 120), (6999, 120), (7000, 160), (9999, 160)])
def test_initial_meld_minimum_table(score: int, need: int):
    """'Score Minimum: Below 0 15*; 0-1,499 50; 1,500-2,999 90; 3,000-6,999 120; 7,000-9,999 160'."""
    assert find_variant("samba")(4).minimum(score) == need  # type: ignore[attr-defined]


def test_top_minimum_option():
    """Option ``top_minimum=150``: Encyclopedia 'The minimum initial meld is 150 if a partnership has 7,000 or
    more'."""
    v: Any = find_variant("samba")(4, {"top_minimum": 150})
    assert v.minimum(7000) == 150 and v.minimum(6999) == 120


def test_initial_meld_over_several_melds():
    """'The player may use as many melds as they need to in order to exceed this threshold. Once a partnership
    has made their initial meld, they are no longer subject to any minimum meld value.'"""
    g = spos(hands={0: "Kh Kd Ks 8h 9h 10h 4c 5d"}, phase="play", opened=(False, False))
    act(g, "meld Kh Kd Ks")  # 30
    illegal(g, "discard 4c", "minimum-count")
    act(g, "meld 8h 9h 10h")  # 60
    assert g.opened[0]
    act(g, "discard 4c")


def test_insufficient_initial_meld_is_retracted():
    """A player who cannot reach the minimum takes the melds back (Classic's rule, Bicycle 'Insufficient
    Melds': the minimum rises by 10 for the deal; the Samba text is silent, docs/variants/samba.md)."""
    g = spos(hands={0: "Kh Kd Ks 4c 5d"}, phase="play", opened=(False, False))
    act(g, "meld Kh Kd Ks")
    assert "retract" in legal_texts(g) and not any(a.kind == "discard" for a in g.legal_actions())
    act(g, "retract")
    assert g.hand_sizes[0] == 5 and not g.melds[0] and g.minimum(0) == 60


def test_pile_taken_for_the_initial_meld_waits_for_the_minimum():
    """Taking the pile before the side's initial meld: the top card and the pair count towards the minimum, and
    the rest of the pile joins the hand once it is reached."""
    g = spos(hands={0: "Ah Ad Kh Kd Ks 4c"}, pile="7c 8d Ac", opened=(False, False))
    act(g, "take Ah Ad")  # 60
    assert g.opened[0] and g.hands[0][parse_card("7c")] == 1
    g = spos(hands={0: "9h 9d Kh Kd Ks 4c"}, pile="7c 8d 9c", opened=(False, False))
    act(g, "take 9h 9d")  # 30: the rest waits
    assert g.pile_aside == cards("7c 8d") and not g.opened[0]
    act(g, "meld Kh Kd Ks")  # 60
    assert g.opened[0] and g.pile_aside is None and g.hands[0][parse_card("7c")] == 1


# ------------------------------------------------------------------ going out
def test_two_seven_card_melds_to_go_out():
    """'In order to go out, a partnership must have formed at least two seven-card melds (canastas or sambas).'"""
    one = ["Kh Kd Ks Kh Kd Ks Kc"]
    g = spos(hands={0: "9c 4d"}, melds={0: one}, phase="play")
    act(g, "discard 4d")
    g = spos(hands={0: "9c"}, melds={0: one}, phase="play")
    illegal(g, "discard 9c", "cannot-go-out")
    g = spos(hands={0: "9c"}, melds={0: [*one, "5s 6s 7s 8s 9s 10s Js"]}, phase="play")
    act(g, "discard 9c")
    res = g.hand_results[-1]
    assert res["went_out"] == 0 and res["sides"][0]["items"]["going_out"] == 200


def test_going_out_by_melding_the_last_cards():
    """'a player may go out by disposing of their remaining cards, either by forming new melds, adding to
    existing ones, or discarding': the last two cards go onto a meld one at a time, the first leaving one card
    that can then go out."""
    g = spos(hands={0: "9s 10s"}, melds={0: ["Kh Kd Ks Kh Kd Ks Kc", "4s 5s 6s 7s 8s"]}, phase="play")
    assert "add #2 9s" in legal_texts(g)
    act(g, "add #2 9s")
    act(g, "add #2 10s")
    assert g.hand_results[-1]["went_out"] == 0


def test_may_i_go_out_binds():
    """'Before going out, a player may ask their partner "May I go out?" ... The answer the partner gives is
    binding.' A 'no' forbids going out this turn; 'Not being able to go out after having asked "May I go
    out?": -100 points.'"""
    two = ["Kh Kd Ks Kh Kd Ks Kc", "5s 6s 7s 8s 9s 10s Js"]
    g = spos(hands={0: "9c", 2: "Qs"}, melds={0: [*two, "9s 9d 9h"]}, stock="9d")
    act(g, "ask")
    assert g.actor == 2
    act(g, "no")
    act(g, "draw")
    illegal(g, "add #3 9c", "cannot-go-out")  # the last card could only go out
    act(g, "discard 9c")  # keeps 9d
    g = spos(hands={0: "9c 4d Jh", 2: "Qs"}, melds={0: two}, stock="8c")
    act(g, "ask")
    act(g, "yes")
    act(g, "draw")
    act(g, "discard 4d")  # does not go out
    assert g.penalties[0] == [("failed_go_out", -100)]


# ------------------------------------------------------------------ the stock
def test_stock_used_up_take_or_the_hand_ends():
    """'if it does happen, the game simply continues without a stock; play continues with players taking the
    discard pile ... until a player goes out as normal, or is unable to take the discard pile, at which point
    the hand ends'."""
    g = spos(hands={0: "Qs Qd 4c", 1: "9c 9d 5c"}, pile="Qc", rest="pile", melds={0: ["Kh Kd Ks"]})
    assert not g.stock
    assert legal_texts(g) == {"take Qs Qd"}
    illegal(g, "end", "forced-take")
    act(g, "take Qs Qd")
    act(g, "discard 4c")
    assert legal_texts(g) == {"end"}
    act(g, "end")
    assert len(g.hand_results) == 1 and g.hand_results[0]["went_out"] is None


def test_red_three_as_the_last_card():
    """'If, however, the final card of the stock is a red 3 ... The player taking the 3 declares it as usual,
    then does any melding possible, after which play stops. This player is not entitled to discard.'"""
    g = spos(hands={0: "Kh Kd Ks 4c"}, stock="3h", rest="pile", pile="9c")
    act(g, "draw")
    assert g.red_threes[0] == cards("3h") and g.no_discard
    illegal(g, "discard 4c", "no-discard")
    act(g, "meld Kh Kd Ks")
    act(g, "end")
    assert len(g.hand_results) == 1


def test_drawn_red_three_is_replaced():
    """Red 3s: 'When a player gets one, they simply lay them out in front of them, and a new card is drawn to
    replace the 3.'"""
    g = spos(hands={0: "4c"}, stock="3d 8s")
    act(g, "draw")
    assert g.red_threes[0] == cards("3d") and g.hands[0][parse_card("8s")] == 1


# ------------------------------------------------------------------ scoring
def _score(g: Game) -> dict[str, int]:
    return dict(g.hand_results[-1]["sides"][0]["items"])


def test_scoring_items():
    """'Natural canastas and sambas: 500 points each. Mixed canastas ... 300 points each. Red 3s: 100 points
    each ... Going out: 200 points.' Melded cards count, cards in hand are deducted."""
    melds = ["Kh Kd Ks Kh Kd Ks Kc", "5s 6s 7s 8s 9s 10s Js", "Qh Qd Qs Qc Qh 2c JK"]
    g = spos(hands={0: "9c", 2: "4h 4d"}, melds={0: melds}, phase="play", red_threes=("3h 3d", ""))
    act(g, "discard 9c")
    s = _score(g)
    assert s["natural_canastas"] == 500 and s["sambas"] == 500 and s["mixed_canastas"] == 300
    assert s["red_threes"] == 200 and s["going_out"] == 200 and s["cards_in_hand"] == -10
    assert s["melded_cards"] == 70 + (15 + 40) + (50 + 20 + 50)


def test_samba_bonus_option():
    """Option ``samba_bonus=1500``: Encyclopedia 'this is a samba and is worth 1,500 points'."""
    melds = ["Kh Kd Ks Kh Kd Ks Kc", "5s 6s 7s 8s 9s 10s Js"]
    g = spos(hands={0: "9c"}, melds={0: melds}, phase="play", rules={"samba_bonus": 1500})
    act(g, "discard 9c")
    assert _score(g)["sambas"] == 1500


def test_red_threes_negative_without_two_seven_card_melds():
    """'If a partnership has not completed at least two seven-card melds, they score -100 for each red 3, or
    -1,000 for all six.'"""
    g = spos(hands={0: "9c 9d", 1: "4c 5d", 2: "Jc Qd"}, melds={0: ["Kh Kd Ks Kh Kd Ks Kc"]}, stock="",
             rest="pile",
             pile="5c", red_threes=("3h 3h 3d", "3h 3d 3d"), turn=1, phase="play")
    act(g, "discard 4c")
    act(g, "end")
    sides = g.hand_results[-1]["sides"]
    assert sides[0]["items"]["red_threes"] == -300 and sides[1]["items"]["red_threes"] == -300


def test_all_six_red_threes():
    """'If you collect all six, they score 1,000 for the whole set.'"""
    v: Any = find_variant("samba")(4)
    sevens = [("set", cards("Kh Kd Ks Kh Kd Ks Kc"), 0), ("run", cards("5s 6s 7s 8s 9s 10s Js"), 0)]
    got = v.score_team(melds=sevens, red_threes=6, all_red_threes=True, hands=[], went_out=False)
    assert got["items"]["red_threes"] == 1000
    got = v.score_team(melds=sevens[:1], red_threes=6, all_red_threes=True, hands=[], went_out=False)
    assert got["items"]["red_threes"] == -1000


def test_game_to_ten_thousand():
    """'The object of Samba is to be the first partnership to reach the lofty score of 10,000 points.'"""
    v: Any = find_variant("samba")(4)
    assert v.game_won([10000, 9000]) == 0 and v.game_won([9999, 500]) is None and v.game_won([10500, 10500]) is None


def test_scorekeeper_reads_escaleras_in_sequence():
    """In ``canasta score`` a meld given in sequence (``["4h", "5h", "6h"]``) is an escalera; the example file
    scores as the engine would."""
    data = json.loads((Path(__file__).parent / "data" / "score" / "samba.json").read_text())
    out = score_input(data)
    assert [t["total"] for t in out["teams"]] == [1395, 505]
    assert out["teams"][0]["items"]["sambas"] == 500


# ------------------------------------------------------------------ the engine's contracts
def test_notation_take_a_meld_round_trips():
    a = parse_action("take #3")
    assert a.kind == "take" and a.target == ID_BASE + 3 and format_action(a) == "take #3"


def test_random_playouts_conserve_cards_and_offer_a_legal_action():
    for seed in range(6):
        g = Game("samba", 4, seed)
        rng = random.Random(seed)
        total = g.card_count()
        while not g.is_over and g.hand_no == 1:
            legal = g.legal_actions()
            assert legal
            a = rng.choice(legal)
            g.apply(a)
            assert g.card_count() == total
        assert Game.from_json(g.to_json()).to_json() == g.to_json()


def test_encoding_of_every_legal_action():
    g = Game("samba", 4, 3)
    rng = random.Random(3)
    n = num_actions("samba")
    while not g.is_over and g.hand_no == 1:
        legal = g.legal_actions()
        mask = action_mask(legal, "samba")
        assert mask.sum() == len(legal) and len(mask) == n
        obs = encode_observation(g.observation(g.actor))
        assert obs.shape == (obs_size("samba"),)
        g.apply(rng.choice(legal))


@pytest.mark.parametrize("variant", ["samba", "bolivian", "brazilian", "chilean"])
def test_observation_hides_other_hands_and_the_stock(variant: str):
    """observation(seat) never shows another hand's unseen cards or the stock order: positions that differ only
    there look the same to the seat (also to the action encoding)."""
    from tests.test_properties import _hide_variant

    rng = random.Random(5)
    for seed in range(3):
        g = Game(variant, 4, seed)
        for _ in range(120):
            if g.is_over:
                break
            for seat in range(4):
                other = _hide_variant(g, seat, rng)
                if other is not None:
                    assert other.observation(seat) == g.observation(seat)
                    assert (encode_observation(other.observation(seat)) == encode_observation(g.observation(seat))).all()
            g.apply(rng.choice(g.legal_actions()))


def test_golden_samba_record():
    """The golden record tests/data/samba-4p-seed11.txt (BasicPlayers, table rule target_score 3000) replays,
    re-exports byte for byte, and ends with the recorded scores."""
    from canasta.record import export_record, replay_record

    text = (Path(__file__).parent / "data" / "samba-4p-seed11.txt").read_text()
    g = replay_record(text)
    assert export_record(g, date="2026.11.23") == text
    assert g.is_over and g.winner == 1 and g.scores == [2705, 4155]
    assert [r["went_out"] for r in g.hand_results] == [2, 1, 3]


def test_basic_player_finishes_hands():
    p = BasicPlayer()
    for seed in range(3):
        g = Game("samba", 4, seed)
        steps = 0
        while not g.is_over and g.hand_no == 1 and steps < 5000:
            g.apply(p.choose(g.observation(g.actor), g.legal_actions()))
            steps += 1
        assert g.hand_results, "a hand of BasicPlayers ends"


def test_listed_melds_and_additions_are_exactly_the_legal_ones():
    """legal_actions() lists every legal meld of three cards and every legal one-card addition (a 2 of
    another suit is the same move as the 2 listed: suits of wild cards never matter), and nothing else."""
    from itertools import combinations_with_replacement

    rng = random.Random(1)
    for seed in range(3):
        g = Game("samba", 4, seed)
        while not g.is_over and g.hand_no == 1:
            legal = g.legal_actions()
            if g.phase == "play":
                seat = g.turn
                hand = g.hands[seat]
                two = next((c for c in (8, 9, 10, 11) if hand[c]), None)
                codes = [c for c in range(8, 61) if hand[c] and (not 8 <= c <= 11 or c == two)]
                want = set()
                for combo in combinations_with_replacement(codes, 3):
                    if all(hand[c] >= combo.count(c) for c in combo):
                        a = parse_action("meld " + format_cards(list(combo)))
                        if g._check_meld(a, False):
                            want.add(a)
                for mid in g.melds[g._sides[seat]]:
                    for c in codes:
                        a = parse_action(f"add #{mid} " + format_cards([c]))
                        if g._check_meld(a, False):
                            want.add(a)
                assert {a for a in legal if a.kind in ("meld", "add")} == want
            g.apply(rng.choice(legal))


# ------------------------------------------------------------------ merging sets
MERGE_TEXT = ("'A player may combine two existing sets into one big set, although they cannot divide a larger set "
              "into smaller ones. (Escaleras may not be merged or split.)'")


def test_merge_two_sets_of_a_rank():
    """'A player may combine two existing sets into one big set, although they cannot divide a larger set into
    smaller ones.' The merged set keeps the lower id; it can make a canasta."""
    g = spos(hands={0: "4s 5c Jd"}, melds={0: ["9s 9d 9c", "Kh Kd Ks", "9h 9d 2c 9s"]}, phase="play")
    assert "merge #1 #3" in legal_texts(g)
    before = g.card_count()
    act(g, "merge #1 #3")
    assert list(g.melds[0]) == [1, 2]
    assert sorted(g.melds[0][1].cards) == sorted(cards("9s 9d 9c 9h 9d 2c 9s"))
    assert g.card_count() == before and g.hand_sizes[0] == 3
    assert g.melds[0][1].wilds == 1 and len(g.melds[0][1].cards) == 7  # a mixed canasta
    assert g.phase == "play" and g.turn == 0
    assert not any(a.kind == "merge" for a in g.legal_actions())  # nothing splits it again


def test_merge_respects_seven_cards_and_two_wild_cards():
    """'Melds are capped at a maximum size of seven cards'; 'Any given set may not contain more than two wild
    cards': a merged set obeys both."""
    g = spos(hands={0: "4s 5c Jd"}, melds={0: ["9s 9d 9c 9h", "9h 9d 9c 9s", "Kh Kd 2s 2c", "Ks Kc JK"]},
             phase="play")
    assert not any(a.kind == "merge" for a in g.legal_actions())
    illegal(g, "merge #1 #2", "canasta-closed")
    illegal(g, "merge #3 #4", "wild-limit")


def test_escaleras_and_sets_of_two_ranks_do_not_merge():
    """'(Escaleras may not be merged or split.)' and only 'two existing sets' of one rank combine."""
    g = spos(hands={0: "4s 5c Jd"}, melds={0: ["4h 5h 6h", "7h 8h 9h", "Kh Kd Ks", "Qh Qd Qs"], 1: ["Kc Kd Kh"]},
             phase="play")
    assert not any(a.kind == "merge" for a in g.legal_actions())
    illegal(g, "merge #1 #2", "merge-sets")
    illegal(g, "merge #3 #4", "merge-rank")
    illegal(g, "merge #3 #5", "no-such-meld")  # #5 is the other side's
    illegal(g, "merge #3 #9", "no-such-meld")


def test_merge_names_the_lower_id_first_and_only_in_the_play_phase():
    """'A player may combine two existing sets into one big set' on their turn, after drawing (open point:
    one spelling per merge, the lower id first)."""
    g = spos(hands={0: "4s 5c Jd"}, melds={0: ["9s 9d 9c", "9h 9d 9s"]}, phase="play")
    illegal(g, "merge #2 #1", "merge-order")
    illegal(g, "merge #1 #1", "merge-order")
    g = spos(hands={0: "4s 5c Jd"}, melds={0: ["9s 9d 9c", "9h 9d 9s"]}, phase="draw")
    illegal(g, "merge #1 #2", "draw-first")


def test_merge_is_not_a_classic_or_burraco_action():
    """Only the Samba family combines sets ('A player may combine two existing sets into one big set' is Samba's)."""
    from canasta.engine.actions import Action
    from canasta.notation import merge_target

    for variant in ("classic", "burraco"):
        g = Game(variant, 4, 0)
        before = g.to_json()
        with pytest.raises(IllegalActionError):
            g.apply(Action("merge", (), merge_target(1, 2)))
        assert g.to_json() == before


def test_notation_merge_round_trips():
    from canasta.errors import NotationError
    from canasta.notation import merge_ids

    a = parse_action("merge #3 #5")
    assert a.kind == "merge" and not a.cards and merge_ids(a.target) == (3, 5) and format_action(a) == "merge #3 #5"
    for bad in ("merge #3", "merge 3 5", "merge #3 #5 Kc", "merge #0 #2"):
        with pytest.raises(NotationError):
            parse_action(bad)


def test_encoding_of_merges_after_the_older_indices():
    """Merges have indices after every earlier Samba index (those are unchanged) and decode back."""
    from canasta.encoding import _layout, decode, describe_index, encode_action

    lay = _layout("samba")
    assert lay.merge_base == lay.simple_base + 5 and lay.black_three_base == lay.merge_base + 80 * 79 // 2
    assert num_actions("samba") == lay.black_three_base + 4  # melds of 4 to 7 black threes, after the merges
    assert encode_action(parse_action("ask"), "samba") == lay.simple_base
    seen = set()
    for b in range(2, 81):
        for a in range(1, b):
            i = encode_action(parse_action(f"merge #{a} #{b}"), "samba")
            assert describe_index(i, "samba") == f"merge #{a} #{b}"
            seen.add(i)
    assert seen == set(range(lay.merge_base, lay.black_three_base))
    g = spos(hands={0: "4s 5c Jd"}, melds={0: ["9s 9d 9c", "9h 9d 9s"]}, phase="play")
    legal = g.legal_actions()
    assert decode(encode_action(parse_action("merge #1 #2"), "samba"), legal, "samba") == parse_action("merge #1 #2")
    assert action_mask(legal, "samba").sum() == len(legal)


def test_listed_merges_are_exactly_the_legal_ones():
    """legal_actions() lists every merge that check accepts, and nothing else (random Samba games)."""
    from canasta.engine.actions import Action
    from canasta.notation import merge_target

    rng = random.Random(2)
    seen = 0
    for seed in range(4):
        g = Game("samba", 4, seed)
        while not g.is_over and g.hand_no == 1:
            legal = g.legal_actions()
            if g.phase == "play":
                ids = sorted(g.melds[g._sides[g.turn]])
                want = {Action("merge", (), merge_target(a, b)) for a in ids for b in ids
                        if g._check_merge(Action("merge", (), merge_target(a, b)), False)}
                got = {a for a in legal if a.kind == "merge"}
                assert got == want
                seen += len(got)
            merges = [a for a in legal if a.kind == "merge"]
            g.apply(merges[0] if merges and rng.random() < 0.5 else rng.choice(legal))
    assert seen, "some random games offer a merge"


class _NoEscaleraSamba(Samba):
    """A house rule for the memo test: Samba without escaleras (its ``arrange_meld`` refuses every run)."""

    name: ClassVar[str] = "samba-no-escaleras"

    def arrange_meld(self, cards: tuple[int, ...] | list[int]) -> Any:
        got = super().arrange_meld(cards)
        return "house rule: no escaleras" if not isinstance(got, str) and got[0] == "run" else got


def test_the_variant_answers_are_memoised_per_variant_and_table_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/architecture.md, 'The compiled build': the Samba family's hook answers are kept per (variant class,
    table rules) and shared by its games; another set of table rules, or a house rule's subclass, has its own,
    so an answer of one is never given to the other."""
    escalera = tuple(parse_card(c) for c in ("4h", "5h", "6h"))
    samba = Game("samba", 4, 1)
    assert samba._arrange_meld(escalera)[0] == "run"
    assert Game("samba", 4, 2)._meld_memo is samba._meld_memo  # the same variant and table rules: one memo
    assert samba.copy()._meld_memo is samba._meld_memo
    other_rules = Game("samba", 4, 1, {"samba_bonus": 1500})
    assert other_rules._meld_memo is not samba._meld_memo
    monkeypatch.setitem(VARIANTS, _NoEscaleraSamba.name, _NoEscaleraSamba)
    house = Game(_NoEscaleraSamba.name, 4, 1)
    assert house._meld_memo is not samba._meld_memo
    assert house._arrange_meld(escalera) == "house rule: no escaleras"
    assert samba._arrange_meld(escalera)[0] == "run"


def test_an_escalera_with_a_wild_card_is_refused_with_the_escalera_sentence():
    """'Wild cards can only be used in sets; they are prohibited in escaleras': the refusal quotes that sentence,
    not only the one about sets."""
    g = spos(hands={0: "5s 6s 7s 2c 8s Kh Kd 4c 9d"}, phase="play", opened=(True, False))
    with pytest.raises(IllegalActionError) as refused:
        g.apply(parse_action("meld 5s 6s 7s 2c"))
    assert refused.value.rule == "wild-limit"
    assert "Wild cards can only be used in sets; they are prohibited in escaleras'" in " ".join(str(refused.value).split())
