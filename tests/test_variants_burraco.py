"""Burraco (triple-play-samba-burraco-mille-hand-and-foot-classic.txt, section "Burraco").

Each rule test quotes the sentence of the text it enforces. Positions are built
with :func:`bpos` from cards in the text notation; melds are written as card
strings and arranged by the variant (a run's order is the engine's).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import Game
from canasta.cards import format_cards, parse_card
from canasta.engine.actions import Action
from canasta.errors import IllegalActionError, OptionError
from canasta.notation import format_action, parse_action
from canasta.players.basic import BasicPlayer
from canasta.players.expert import ExpertPlayer, ExpertSettings
from canasta.players.random_player import RandomPlayer
from canasta.runs import arrange_run
from canasta.scoring import score_meld_side
from canasta.variants import find_variant


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def bpos(players: int = 4, *, hands: Mapping[int, str] | None = None, pile: str = "",
         melds: Mapping[int, Sequence[str]] | None = None, stock: str = "", turn: int = 0,
         phase: str = "draw", piles_taken: Sequence[int] | None = None, extra_piles: Sequence[str] | None = None,
         face_down: Mapping[int, str] | None = None, scores: Sequence[int] | None = None,
         rules: Mapping[str, Any] | None = None, rest: str = "stock", **fields: Any) -> Game:
    """A Burraco position: the cards not named fill the stock (under ``stock``) or the extra piles."""
    base = Game("burraco", players, 0, dict(rules or {}))
    d = base.to_dict()
    v = base.variant
    pack = Counter(v.deck())
    hands_c = [cards((hands or {}).get(s, "")) for s in range(players)]
    pile_c = cards(pile)
    stock_c = cards(stock)
    sides = v.num_sides
    meld_lists: list[list[list[Any]]] = [[] for _ in range(sides)]
    next_id = 1
    for side in range(sides):
        for text in (melds or {}).get(side, []):
            got = v.arrange_meld(cards(text))
            assert not isinstance(got, str), (text, got)
            kind, (order, wild_index, low) = got
            meld_lists[side].append([next_id, kind, list(order), wild_index, low])
            next_id += 1
    fd = [cards((face_down or {}).get(s, "")) for s in range(players)]
    named: list[int] = [c for h in hands_c for c in h] + pile_c + stock_c + [c for p in fd for c in p]
    named += [c for side in meld_lists for m in side for c in m[2]]
    if extra_piles is not None:
        xp = [cards(p) for p in extra_piles]
        named += [c for p in xp for c in p]
    left = pack - Counter(named)
    assert not (Counter(named) - pack), "more copies named than the pack holds"
    rest_cards = sorted(left.elements())
    if extra_piles is None:
        n_piles = v.EXTRA_PILES - sum(piles_taken or [0] * sides)
        xp = []
        for _ in range(n_piles):
            xp.append(rest_cards[-11:])
            rest_cards = rest_cards[:-11]
    if rest == "stock":
        full_stock = rest_cards + list(reversed(stock_c))
    else:  # the unnamed cards go to the bottom of the pile
        full_stock = list(reversed(stock_c))
        pile_c = rest_cards + pile_c
    d.update({
        "stock": full_stock, "pile": pile_c, "hands": [sorted(h) for h in hands_c], "melds": meld_lists,
        "extra_piles": xp, "piles_taken": list(piles_taken or [0] * sides), "face_down": fd,
        "next_meld_id": next_id, "turn": turn, "phase": phase, "drawn": phase == "play",
        "scores": list(scores or [0] * sides), "history": [], "deals": [],
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


def meld_texts(g: Game, side: int) -> list[str]:
    return [format_cards(m.cards) for m in g.melds[side].values()]


# ------------------------------------------------------------------ setup
def test_pack_of_108():
    """'shuffle together two decks ... including the jokers. This will give you a 108-card deck.'"""
    v = find_variant("burraco")(4)
    deck = v.deck()
    assert len(deck) == 108 and deck.count(60) == 4


@pytest.mark.parametrize("players,stock", [(4, 108 - 44 - 22 - 1), (2, 108 - 22 - 22 - 1)])
def test_deal_and_pozzetti(players: int, stock: int):
    """'deals eleven cards to each player ... makes two piles of eleven cards each. These two piles
    are called the pozzetti ... Turn the top card of the stock face up, forming the discard pile.'"""
    g = Game("burraco", players, 3)
    assert g.hand_sizes == [11] * players
    assert [len(p) for p in g.extra_piles] == [11, 11]
    assert len(g.pile) == 1 and len(g.stock) == stock
    assert g.card_count() == 108
    assert g.turn == (g.dealer + 1) % players  # 'The player to the dealer's left goes first.'
    obs = g.observation(0)
    assert obs["extra_piles"] == [11, 11]


def test_player_counts():
    """'It is best played by four players in partnerships'; two players (each with a pozzetto) is an option."""
    with pytest.raises(OptionError):
        Game("burraco", 3)


# --------------------------------------------------------- drawing, pile
def test_take_whole_pile_without_condition():
    """'when you draw from the discard, you take the entire pile ... there is no requirement that you have
    to be able to immediately use the top card of the discard—you can take the discard pile whenever you want'"""
    g = bpos(hands={0: "4h 9c Kd"}, pile="5s 7d Qc")
    assert Action("take") in g.legal_actions()
    illegal(g, "take Qc Qd", "take-whole-pile")
    act(g, "take")
    assert g.hand_cards(0) == sorted(cards("4h 9c Kd 5s 7d Qc"), key=lambda c: (c >> 2, c & 3))
    assert g.pile == [] and g.phase == "play"


def test_draw_from_stock():
    """'They may draw either the top card of the stock or take the entire discard pile into their hand.'"""
    g = bpos(hands={0: "4h 9c Kd"}, pile="5s", stock="8h")
    act(g, "draw")
    assert g.hands[0][parse_card("8h")] == 1 and g.phase == "play"


def test_one_card_pile_cannot_be_discarded_again():
    """'if there is only one card in the discard pile and you take it, you cannot discard this card
    on the same turn.'"""
    g = bpos(hands={0: "4h 9c Kd"}, pile="5s")
    act(g, "take")
    illegal(g, "discard 5s", "one-card-pile")
    assert Action("discard", (parse_card("5s"),)) not in g.legal_actions()
    act(g, "discard 9c")


def test_one_card_pile_other_copy_may_be_discarded():
    """'(Note that if you have the other card of the same rank and suit as the card you just drew,
    discarding the other card is totally fine!)'"""
    g = bpos(hands={0: "4h 5s Kd"}, pile="5s")
    act(g, "take")
    act(g, "discard 5s")
    assert g.pile == cards("5s")


# ------------------------------------------------------------------ sets
def test_set_of_three_and_one_set_per_rank():
    """'The first is the set, which is three or more cards of the same rank.' / 'Each partnership can
    only have one set for each rank.'"""
    g = bpos(hands={0: "5s 5h 5d 5c 5s 5h 9d 9c"}, phase="play")
    act(g, "meld 5s 5h 5d")
    assert g.melds[0][1].kind == "set"
    illegal(g, "meld 5c 5s 5h", "duplicate-set")
    act(g, "add #1 5c")
    assert len(g.melds[0][1].cards) == 4


def test_partner_melds_are_shared():
    """'Each player shares melds with their partner, and can add on to melds laid down by either player'"""
    g = bpos(hands={2: "7h 9c Kd"}, melds={0: ["7s 7d 7c"]}, turn=2, phase="play")
    act(g, "add #1 7h")
    assert g.melds[0][1].size == 4


def test_no_set_of_wild_cards():
    """'You cannot have a set of jokers or 2s.'"""
    g = bpos(hands={0: "2s 2h 2d JK JK JK 9c Kd"}, phase="play")
    illegal(g, "meld 2s 2h 2d", "meld-invalid")
    illegal(g, "meld JK JK JK", "meld-invalid")


# ------------------------------------------------------------------ runs
def test_run_of_one_suit():
    """'The second is the run or sequence, which is three or more consecutive cards of the same suit'"""
    g = bpos(hands={0: "4h 5h 6h 7s 8d 9s 10s Kd"}, phase="play")
    act(g, "meld 4h 5h 6h")
    assert g.melds[0][1].kind == "run"
    illegal(g, "meld 7s 8d 9s", "meld-invalid")
    illegal(g, "meld 7s 9s 10s", "meld-invalid")  # not consecutive, no wild card


def test_ace_high_or_low_but_once():
    """'Aces may be played either high or low in sequences, but a meld cannot have more than one ace in it
    (i.e. you cannot have an ace at each end of the sequence).'"""
    assert arrange_run(cards("Qh Kh Ah")) is not None
    assert arrange_run(cards("Ah 2h 3h")) is not None
    assert arrange_run(cards("Kh Ah 3h 4h")) is None  # no going round the corner
    assert arrange_run(cards("Kh Ah 2h")) == (tuple(cards("2h Kh Ah")), 0, 12)  # the 2 plays wild (Q)
    full = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"
    assert arrange_run(cards(full)) is not None
    assert arrange_run(cards(full + " Ah")) is None
    assert arrange_run(cards(full + " JK")) is None  # a wild ace at the other end is a second ace
    g = bpos(hands={0: "Ah 9c Kd"}, melds={0: [full]}, phase="play")
    illegal(g, "add #1 Ah", "meld-invalid")


def test_several_runs_of_a_suit():
    """'You can have more than one sequence of a given suit'"""
    g = bpos(hands={0: "4h 5h 6h 9c Kd"}, melds={0: ["9h 10h Jh"]}, phase="play")
    act(g, "meld 4h 5h 6h")
    assert len(g.melds[0]) == 2


# ------------------------------------------------------------ wild cards
def test_one_wild_card_per_meld():
    """'Each meld can only contain one wild card (one joker or one 2, not one of each).'"""
    g = bpos(hands={0: "5s 5h JK 2c 7s 8s 2d 9c Kd"}, phase="play")
    illegal(g, "meld 5s JK 2c", "wild-limit")
    act(g, "meld 5s 5h JK")
    illegal(g, "add #1 2c", "wild-limit")
    act(g, "meld 7s 8s 2c")
    illegal(g, "add #2 2d", "wild-limit")


def test_two_as_natural_in_a_run():
    """'In runs, a 2 can also be used as its natural value ... 2s are not counted as wild cards when they
    are used in such a way. For example, 2-3-4♥-★ contains just one wild card—the joker.'"""
    g = bpos(hands={0: "2h 3h 4h JK 9c Kd"}, phase="play")
    act(g, "meld 2h 3h 4h")
    m = g.melds[0][1]
    assert m.wilds == 0 and m.wild_index == -1
    act(g, "add #1 JK")
    m = g.melds[0][1]
    assert m.wilds == 1 and m.cards == cards("JK 2h 3h 4h")


def test_natural_two_pressed_into_service_as_wild():
    """'If there is no other wild card in a meld, a 2 used as its natural value can be pressed into service
    as a wild card. With a meld of 2-3-4♥, a player could add the 6♥ by changing the 2 into a wild (i.e.
    form 3-4-2-6♥, with the 2 standing in for the 5♥).'"""
    g = bpos(hands={0: "6h 9c Kd"}, melds={0: ["2h 3h 4h"]}, phase="play")
    act(g, "add #1 6h")
    m = g.melds[0][1]
    assert m.cards == cards("3h 4h 2h 6h") and m.wild_index == 2 and m.wilds == 1


def test_wild_card_at_the_low_end():
    """'A wild card must always be placed at the low end of a run if it is not being used for one of the
    inside cards. For example, 7♠-★-9♠ is a valid meld, but 7-8♠-★ is not (it should be corrected to ★-7-8♠).'"""
    g = bpos(hands={0: "7s 8s JK 7d 9d JK 4c Kd"}, phase="play")
    act(g, "meld 7s 8s JK")
    assert g.melds[0][1].cards == cards("JK 7s 8s")
    act(g, "meld 7d JK 9d")
    assert g.melds[0][2].cards == cards("7d JK 9d")


def test_wild_card_moves_to_extend_upward():
    """'if a player holds the 10♠ with a meld on the table of ★-7-8♠, they can move the joker to the end to
    make 7-8♠-★-10♠.'"""
    g = bpos(hands={0: "10s 9c Kd"}, melds={0: ["JK 7s 8s"]}, phase="play")
    act(g, "add #1 10s")
    assert g.melds[0][1].cards == cards("7s 8s JK 10s")


def test_natural_replaces_the_wild_card():
    """'with a meld of 7-8♠-★-10♠, a player could replace the joker if they pick up a 9♠. The resulting meld
    would be ★-7-8-9-10♠. The melded wild card then moves to its usual position at the low end'"""
    g = bpos(hands={0: "9s 4c Kd"}, melds={0: ["7s 8s JK 10s"]}, phase="play")
    act(g, "add #1 9s")
    assert g.melds[0][1].cards == cards("JK 7s 8s 9s 10s")


def test_wild_cannot_replace_wild():
    """'Note that you cannot replace one wild card with another wild card (e.g. to force a wild 2 into
    becoming a natural card).'"""
    g = bpos(hands={0: "JK 4c Kd"}, melds={0: ["3h 4h 2h 6h"]}, phase="play")
    assert g.melds[0][1].cards == cards("3h 4h 2h 6h")
    illegal(g, "add #1 JK", "wild-limit")


# -------------------------------------------------------------- burracos
def test_burraco_clean_and_dirty():
    """'Any meld of seven or more cards is called a burraco. If a burraco has no wild cards, it is called
    a clean burraco. Otherwise, it is a dirty burraco.' / 'Clean burrachi: 200 points each. Dirty burrachi:
    100 points each.'"""
    v = find_variant("burraco")(4)
    clean = cards("2h 3h 4h 5h 6h 7h 8h")  # the 2 plays natural: clean
    dirty = cards("JK 3h 4h 5h 6h 7h 8h")
    six = cards("3h 4h 5h 6h 7h 8h")
    items = score_meld_side(v, melds=[(clean, 0), (dirty, 1), (six, 0)], hands=[[], []], closed=False,
                            pile_missed=False)["items"]
    assert items["clean_burracos"] == 200 and items["dirty_burracos"] == 100
    g = bpos(hands={0: "9h 4c Kd"}, melds={0: ["2h 3h 4h 5h 6h 7h 8h"]}, phase="play")
    obs = g.observation(0)
    assert obs["melds"][0][0]["canasta"] and obs["melds"][0][0]["natural"]


# ------------------------------------------------------------- pozzetti
def test_pozzetto_mid_turn():
    """'If they take the pozzetto in the middle of a turn (i.e. before they discard), they simply pick it up
    and continue on with their turn.'"""
    g = bpos(hands={0: "4h 5h 6h"}, phase="play", extra_piles=["Ks Kd Kc 9s 9d 9c 3s 3d 3c 7s 7d",
                                                              "Qs Qd Qc 8s 8d 8c 4s 4d 4c 6s 6d"])
    act(g, "meld 4h 5h 6h")
    assert g.hand_sizes[0] == 11 and g.phase == "play" and g.turn == 0
    assert g.hands[0][parse_card("Ks")] == 1
    assert g.piles_taken == [1, 0] and len(g.extra_piles) == 1


def test_pozzetto_face_down_after_discarding_out():
    """'When a player discards their last card instead, they take the pozzetto but keep it face down in front
    of them until their next turn.'"""
    g = bpos(hands={0: "4h", 1: "9c 9d", 2: "Jc Jd", 3: "Qc Qd"}, phase="play")
    act(g, "discard 4h")
    assert g.hand_sizes[0] == 0 and len(g.face_down[0]) == 11 and g.piles_taken == [1, 0]
    obs = g.observation(1)
    assert obs["face_down"] == [11, 0, 0, 0] and "hand" in obs
    for seat in (1, 2, 3):
        act(g, "draw")
        act(g, f"discard {'9c' if seat == 1 else 'Jc' if seat == 2 else 'Qc'}")
    assert g.turn == 0 and g.hand_sizes[0] == 11 and g.face_down[0] == []


def test_first_taker_side_gets_first_pozzetto_other_side_the_second():
    """'After one player has taken a pozzetto, the other one is reserved for their opponents. The first
    player of the opposing partnership to run out of cards takes that pozzetto.'"""
    first = "Ks Kd Kc 9s 9d 9c 3s 3d 3c 7s 7d"
    second = "Qs Qd Qc 8s 8d 8c 4s 4d 4c 6s 6d"
    g = bpos(hands={0: "4h 5h 6h", 1: "Jh Qh Kh"}, phase="play", extra_piles=[first, second])
    act(g, "meld 4h 5h 6h")
    assert sorted(g.hand_cards(0)) == sorted(cards(first))
    act(g, "discard 3s")
    act(g, "draw")
    act(g, "meld Jh Qh Kh")
    act(g, "discard " + format_cards(g.hand_cards(1)))
    assert g.piles_taken == [1, 1] and g.extra_piles == []
    assert sorted(g.face_down[1]) == sorted(cards(second))


def test_side_with_pozzetto_cannot_take_another():
    """'Once a partnership has taken care of their pozzetti, when either player runs out of cards, they must
    be able to close instead.'"""
    g = bpos(hands={0: "4h 5h 6h"}, phase="play", piles_taken=[1, 0])
    assert len(g.extra_piles) == 1
    illegal(g, "meld 4h 5h 6h", "close-with-discard")


# ------------------------------------------------------------- closing
def test_close_needs_burraco_and_pozzetto_and_discard():
    """'A player can close, ending the hand, as long as the following conditions are met: That partnership
    has already picked up their pozzetto ... That side has at least one burraco. They end their final turn
    with a discard ... The final discard cannot be a wild card.'"""
    burraco = "3s 4s 5s 6s 7s 8s 9s"
    g = bpos(hands={0: "Kd", 1: "4c 5c"}, melds={0: [burraco]}, piles_taken=[1, 0], phase="play")
    act(g, "discard Kd")
    assert g.hand_results[-1]["went_out"] == 0
    items = g.hand_results[-1]["sides"][0]["items"]
    assert items["closing"] == 100 and items["clean_burracos"] == 200 and items["pozzetto_not_taken"] == 0
    assert g.hand_results[-1]["sides"][1]["items"]["pozzetto_not_taken"] == -100
    # no burraco
    g = bpos(hands={0: "Kd"}, melds={0: ["3s 4s 5s 6s 7s 8s"]}, piles_taken=[1, 0], phase="play")
    illegal(g, "discard Kd", "cannot-close")
    assert g.legal_actions() == []
    # wild final discard
    g = bpos(hands={0: "JK Kd"}, melds={0: [burraco]}, piles_taken=[1, 0], phase="play")
    act(g, "discard Kd")  # keeps the joker: allowed (not closing)
    g = bpos(hands={0: "JK"}, melds={0: [burraco]}, piles_taken=[1, 0], phase="play")
    illegal(g, "discard JK", "cannot-close")
    # melding out without a discard
    g = bpos(hands={0: "Jd Qd Kd"}, melds={0: [burraco]}, piles_taken=[1, 0], phase="play")
    illegal(g, "meld Jd Qd Kd", "close-with-discard")
    assert Action("meld", tuple(cards("Jd Qd Kd"))) not in g.legal_actions()


def test_last_card_must_be_discardable():
    """'They end their final turn with a discard': melding down to a last card that cannot close is refused
    ('The final discard cannot be a wild card')."""
    g = bpos(hands={0: "Jd Qd Kd JK"}, melds={0: ["3s 4s 5s 6s 7s 8s 9s"]}, piles_taken=[1, 0], phase="play")
    illegal(g, "meld Jd Qd Kd", "cannot-close")


# ------------------------------------------------------------- ending
def test_stock_down_to_two_cards_ends_the_hand():
    """'The hand also ends automatically if the stock is drawn down to two cards. After the player who drew
    the third-from-last card completes their turn, game play stops.'"""
    g = bpos(hands={0: "4h 9c", 1: "Kd Qs"}, pile="5c", stock="8h 7h 6h", rest="pile",
             extra_piles=["Ks Kd Kc 9s 9d 9c 3s 3d 3c 7s 7d", "Qh Qd Qc 8s 8d 8c 4s 4d 4c 6s 6d"])
    assert len(g.stock) == 3
    act(g, "draw")
    assert g.hand_results == []
    act(g, "discard 8h")
    assert len(g.hand_results) == 1 and g.hand_results[0]["went_out"] is None
    assert g.hand_results[0]["sides"][0]["items"]["closing"] == 0


def test_stalemate_after_an_orbit_of_one_card_takes():
    """'This is when the discard pile only has one card in it, and each of the players takes a turn where
    they simply draw the preceding player's discard. After four turns (a complete orbit) of this, the hand
    ends.'"""
    g = bpos(hands={0: "4h 9c", 1: "Kd Qs", 2: "5d 6c", 3: "8c 10d"}, pile="Jc")
    for seat, card in enumerate(["9c", "Qs", "6c"]):
        act(g, "take")
        act(g, f"discard {card}")
        assert g.orbit == seat + 1 and not g.hand_results
    act(g, "take")
    act(g, "discard 10d")
    assert len(g.hand_results) == 1 and g.hand_results[0]["went_out"] is None


def test_stalemate_option_off():
    """Table rule ``stalemate=false``: the orbit of one-card takes does not end the hand."""
    g = bpos(hands={0: "4h 9c", 1: "Kd Qs", 2: "5d 6c", 3: "8c 10d"}, pile="Jc", rules={"stalemate": False})
    for card in ["9c", "Qs", "6c", "10d"]:
        act(g, "take")
        act(g, f"discard {card}")
    assert not g.hand_results


# ------------------------------------------------------------- scoring
@pytest.mark.parametrize("card,value", [("JK", 30), ("2c", 20), ("Ah", 15), ("Kd", 10), ("8s", 10),
                                        ("7h", 5), ("3c", 5)])
def test_card_values(card: str, value: int):
    """'Jokers: 30 points each. 2s: 20 points each. Aces: 15 points each. Ks–8s: 10 points each.
    7s–3s: 5 points each.'"""
    v = find_variant("burraco")(4)
    assert v.values[parse_card(card)] == value
    items = score_meld_side(v, melds=[], hands=[cards(card), []], closed=False, pile_missed=False)["items"]
    assert items["cards_in_hand"] == -value


def test_melds_minus_hands():
    """'each partnership totals the values of the cards in their melds, then subtracts the values of the
    cards left in their hands.'"""
    v = find_variant("burraco")(4)
    r = score_meld_side(v, melds=[(cards("Qh Kh Ah"), 0), (cards("5s 5d JK"), 1)], hands=[cards("3c 9d"), []],
                        closed=True, pile_missed=True)
    assert r["items"]["melded_cards"] == 10 + 10 + 15 + 5 + 5 + 30
    assert r["items"]["cards_in_hand"] == -15
    assert r["items"]["closing"] == 100 and r["items"]["pozzetto_not_taken"] == -100
    assert r["total"] == 75 - 15 + 100 - 100


def test_unlooked_pozzetto_scored_as_hand():
    """'If a partnership failed to pick up their pozzetto, they take a –100 point penalty. The only exception
    is if a player got their pozzetto but never got to look at it; in this case the pozzetto is treated like
    the player's hand and scored appropriately.'"""
    pz = "Ks Kd Kc 9s 9d 9c 3s 3d 3c 7s 7d"
    g = bpos(hands={0: "4h", 1: "9h 6s", 2: "Jc Jd", 3: "Qc Qd"}, phase="play", stock="8h 7h 6h", rest="pile",
             extra_piles=[pz, "Qs Qh 10c 8s 8d 8c 4s 4d 4c 6c 6d"])
    act(g, "discard 4h")  # out: the first pozzetto face down
    act(g, "draw")
    act(g, "discard 6s")  # the stock is down to two: the hand ends
    res = g.hand_results[-1]["sides"]
    assert res[0]["items"]["pozzetto_not_taken"] == 0
    assert res[0]["items"]["cards_in_hand"] == -sum(g.variant.values[c] for c in cards(pz)) - 20
    assert res[1]["items"]["pozzetto_not_taken"] == -100


def test_game_to_2000():
    """'Game play continues until one partnership exceeds a score of 2,000 points. Whichever team has the
    higher score at that point is the winner.' (default: reaching 2000 ends it, as in 'score 2,000 points
    before your opponent'; ``target_reached=exceed`` needs more than 2000)"""
    def end_with(rules: dict[str, Any]) -> Game:
        g = bpos(hands={0: "Kd", 1: "4c 5c"}, melds={0: ["3s 4s 5s 6s 7s 8s 9s"]}, piles_taken=[1, 0],
                 phase="play", scores=[2000 - 400, 100], rules=rules)
        act(g, "discard Kd")  # 35+... melds 3..9 = 5*5+10*2 = 45, +200 clean, +100 closing = 345; hand 0
        return g
    g = end_with({})
    assert g.scores[0] == 1600 + 45 + 200 + 100 and not g.is_over
    g = end_with({"target_score": 1945})
    assert g.is_over and g.winner == 0
    g = end_with({"target_score": 1945, "target_reached": "exceed"})
    assert not g.is_over


def test_two_players_each_with_a_pozzetto():
    """Two players: each plays alone and has a pozzetto of their own ('the first taker's side gets the first
    pozzetto and the other side the second')."""
    g = bpos(2, hands={0: "4h 5h 6h", 1: "Jh Qh Kh"}, phase="play")
    assert g.num_sides == 2
    act(g, "meld 4h 5h 6h")
    assert g.piles_taken == [1, 0]
    act(g, "discard " + format_cards([g.hand_cards(0)[0]]))
    act(g, "draw")
    act(g, "meld Jh Qh Kh")
    act(g, "discard " + format_cards(g.hand_cards(1)))
    assert g.piles_taken == [1, 1] and len(g.face_down[1]) == 11


# ------------------------------------------------------------- whole games
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("kind", ["random", "basic", "expert"])
def test_whole_games(players: int, kind: str):
    """Whole games to the end with every kind of computer player, card count conserved at every step."""
    # Random play rarely closes and drifts below zero (in a two-player game almost always), so random
    # games are played to a lower target, or, for two players, for ten whole hands.
    rules = {"target_score": 600} if kind == "random" else {}
    max_hands = 10 if (kind, players) == ("random", 2) else None
    for seed in range(2 if kind != "expert" else 1):
        g = Game("burraco", players, seed, rules)
        bots = [RandomPlayer(seed + s) if kind == "random" else BasicPlayer(seed) if kind == "basic"
                else ExpertPlayer(seed, ExpertSettings(worlds=1, max_rollouts=4, max_rollout=8))
                for s in range(players)]
        steps = 0
        while not g.is_over and (max_hands is None or len(g.hand_results) < max_hands):
            legal = g.legal_actions()
            assert legal
            a = bots[g.actor].choose(g.observation(g.actor), legal)
            assert a in legal
            g.apply(a)
            assert g.card_count() == 108
            steps += 1
            assert steps < 300_000
        assert g.winner is not None or len(g.hand_results) == max_hands


def test_replay_determinism_and_conservation():
    """A game is a function of (variant, players, seed, actions): replaying the actions gives the same state."""
    for seed in range(3):
        g = Game("burraco", 4, seed, {"target_score": 300})
        rng = random.Random(seed)
        for _ in range(1500):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
            assert g.card_count() == 108
        h = Game("burraco", 4, seed, {"target_score": 300})
        for _, a, _ in g.history:
            h.apply(a)
        assert h.to_dict() == g.to_dict()


def test_round_trip_and_listed_actions_check():
    """to_dict/from_dict round trip at every step; every listed action passes check()."""
    g = Game("burraco", 4, 7)
    rng = random.Random(7)
    for _ in range(300):
        legal = g.legal_actions()
        assert len(set(legal)) == len(legal)
        for a in legal:
            g.check(a)
        d = json.loads(g.to_json())
        assert json.loads(Game.from_json(json.dumps(d)).to_json()) == d
        c = g.copy()
        g.apply(rng.choice(legal))
        assert json.loads(c.to_json()) == d
        if g.is_over:
            break


def test_observation_does_not_leak():
    """observation(seat) shows other hands, the pozzetti and face-down piles only by their sizes."""
    g = bpos(hands={0: "4h", 1: "9c 9d", 2: "Jc Jd", 3: "Qc Qd"}, phase="play")
    act(g, "discard 4h")
    h = g.copy()
    # swap hidden cards: a stock card with one of the face-down pozzetto and one of seat 2's hand
    a, b = h.face_down[0][0], h.stock[0]
    h.face_down[0][0], h.stock[0] = b, a
    x, y = h.extra_piles[0][0], h.stock[1]
    h.extra_piles[0][0], h.stock[1] = y, x
    for seat in (1, 3):
        assert json.dumps(g.observation(seat), sort_keys=True) == json.dumps(h.observation(seat), sort_keys=True)
    text = json.dumps(g.observation(1))
    assert "face_down" in text and format_cards(g.face_down[0]) not in text


def test_notation_meld_ids():
    """The notation's reserved '#n' names a meld by id: 'add #3 6h'."""
    a = parse_action("add #3 6h")
    assert a.target == 103 and format_action(a) == "add #3 6h"


# ------------------------------------------------------------- clients
def test_scorekeeper_scores_runs_and_sets():
    """``canasta score`` for Burraco: a meld in sequence such as ["4h","5h","6h"] is a run."""
    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import score_input

    data = {"variant": "burraco", "teams": [
        {"melds": [["6h", "4h", "5h"], ["3s", "4s", "5s", "6s", "7s", "8s", "9s"], ["Kd", "Kc", "JK"]],
         "hands": [[], ["9c"]], "closed": True},
        {"melds": [["Qh", "Qs", "Qd"]], "hands": [["2c"], ["Ah", "Ac"]], "pozzetto_taken": False}]}
    out = score_input(data)["teams"]
    assert out[0]["items"] == {"melded_cards": 110, "cards_in_hand": -10, "clean_burracos": 200,
                               "dirty_burracos": 0, "closing": 100, "pozzetto_not_taken": 0}
    assert out[1]["total"] == 30 - 50 - 100
    bad = {"variant": "burraco", "teams": [{"melds": [["4h", "5h", "7h"]], "hands": [["3c"], ["4c"]]},
                                           {"hands": [["5c"], ["6c"]]}]}
    with pytest.raises(ScoreInputError, match="not a valid meld"):
        score_input(bad)
    two_sets = {"variant": "burraco", "teams": [{"melds": [["5h", "5s", "5d"], ["5c", "5h", "JK"]],
                                                 "hands": [["3c"], ["4c"]]}, {"hands": [["5c"], ["6c"]]}]}
    with pytest.raises(ScoreInputError, match="one set for each rank"):
        score_input(two_sets)


def test_terminal_game_renders_runs_and_pozzetti():
    """``canasta play --variant burraco`` shows melds by id, runs in order and the pozzetti."""
    import io

    from canasta.tui import run_play

    lines = iter(["1", "meld 4h 5h 6h", "table", "quit"])
    out = io.StringIO()
    g = bpos(hands={0: "4h 5h 6h 9c Kd"}, pile="8s")
    import canasta.tui as tui

    tui.TerminalGame(g, 0, lambda _: next(lines), tui._make_console(out)).run()
    text = out.getvalue()
    assert "pozzetti left: 2" in text and "#1 run 4h 5h 6h" in text
    assert run_play  # the entry point the CLI uses


def test_record_export_and_replay():
    """A whole Burraco game exported as a record ('add #n' for additions) replays to the identical state,
    and the record redacted for a seat hides the other seats' cards."""
    from canasta.record import export_record, replay_record

    g = Game("burraco", 4, 5)
    p = BasicPlayer()
    while not g.is_over:
        g.apply(p.choose(g.observation(g.actor), g.legal_actions()))
    text = export_record(g)
    assert "add #" in text and '[Variant "burraco"]' in text
    assert replay_record(text).to_json() == g.to_json()
    mine = export_record(g, seat=1)
    dealt0 = " ".join(format_cards([c]) for c in g.deals[0]["hands"][0])
    assert f"deal 0: {dealt0}" in text and f"deal 0: {dealt0}" not in mine


def test_cli_legal_lists_burraco_actions(tmp_path: Any):
    """``canasta legal`` prints the legal actions of a saved Burraco position in the notation."""
    from typer.testing import CliRunner

    from canasta.cli import app

    g = bpos(hands={0: "4h 5h 6h 9c"}, melds={0: ["7h 8h 9h"]}, phase="play")
    path = tmp_path / "pos.json"
    path.write_text(g.to_json())
    out = CliRunner().invoke(app, ["legal", str(path)])
    assert out.exit_code == 0, out.output
    lines = out.output.split("\n")
    assert {"0: meld 4h 5h 6h", "0: add #1 6h", "0: discard 9c"} <= set(lines)


# ------------------------------------------------------------- properties
@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 4]), seed=st.integers(0, 10**6), rng_seed=st.integers(0, 2**32),
       bad=st.lists(st.tuples(st.sampled_from(["meld", "add", "discard", "take", "draw"]),
                              st.lists(st.integers(8, 60), max_size=4), st.integers(0, 110)), max_size=40))
def test_property_conservation_refusals_and_replay(players: int, seed: int, rng_seed: int,
                                                   bad: list[tuple[str, list[int], int]]):
    """Random legal play interleaved with arbitrary (mostly illegal) actions: the 108 cards are conserved,
    a refused action changes nothing, and replaying the accepted actions gives the identical game."""
    g = Game("burraco", players, seed, {"target_score": 400})
    rng = random.Random(rng_seed)
    junk = iter(bad)
    for _ in range(400):
        if g.is_over:
            break
        probe = next(junk, None)
        if probe is not None:
            kind, codes, target = probe
            a = Action(kind, tuple(codes), target if kind == "add" else 0)
            before = g.to_json()
            try:
                g.apply(a)
            except IllegalActionError:
                assert g.to_json() == before
            assert g.card_count() == 108
            if g.is_over:
                break
        g.apply(rng.choice(g.legal_actions()))
        assert g.card_count() == 108
    h = Game("burraco", players, seed, {"target_score": 400})
    for _, a, _ in g.history:
        h.apply(a)
    assert h.to_json() == g.to_json()


def test_expert_determinization_matches_the_observation():
    """The expert's sampled Burraco worlds agree with everything the seat sees (pozzetti by size only)."""
    from canasta.players.expert import determinize_ids

    rng = random.Random(0)
    for players in (4, 2):
        g = Game("burraco", players, 11)
        basic = BasicPlayer()
        for _ in range(150):
            if g.is_over:
                break
            obs = g.observation(g.actor)
            world = determinize_ids(obs, rng)
            wobs = world.observation(g.actor)
            for key in ("hand", "melds", "hand_sizes", "stock_size", "pile", "extra_piles", "face_down",
                        "piles_taken", "barred", "scores", "phase", "turn"):
                assert wobs[key] == obs[key], key
            assert world.legal_actions() == g.legal_actions()
            g.apply(basic.choose(obs, g.legal_actions()))


def test_legal_actions_are_every_legal_meld_and_addition():
    """legal_actions() lists exactly the three-card melds and one-card additions check() accepts
    (brute force over every three cards of the hand and every card onto every meld)."""
    import itertools

    from canasta.notation import ID_BASE

    for seed in range(2):
        g = Game("burraco", 4, seed, {"target_score": 300})
        rng = random.Random(seed)
        for _ in range(400):
            if g.is_over:
                break
            legal = g.legal_actions()
            if g.phase == "play":
                hand = g.hands[g.turn]
                held = [c for c in range(8, 61) for _ in range(hand[c])]
                want = set()
                for combo in set(itertools.combinations(sorted(held), 3)):
                    a = Action("meld", combo)
                    if g._check_meld(a, False):
                        want.add(a)
                for mid in g.melds[g._sides[g.turn]]:
                    for c in set(held):
                        a = Action("add", (c,), ID_BASE + mid)
                        if g._check_meld(a, False):
                            want.add(a)
                assert {a for a in legal if a.kind in ("meld", "add")} == want
            g.apply(rng.choice(legal))


def test_golden_burraco_record():
    """The golden record tests/data/burraco-4p-seed5.txt (a whole game of BasicPlayers, three hands each
    ended by a closing) replays, re-exports byte for byte, and rescores from its final tables."""
    from pathlib import Path

    from canasta.record import export_record, replay_command, replay_record

    path = Path(__file__).parent / "data" / "burraco-4p-seed5.txt"
    text = path.read_text()
    g = replay_record(text)
    assert export_record(g, date="2026.11.23") == text
    assert [r["went_out"] for r in g.hand_results] == [1, 2, 2]
    assert g.is_over and g.winner == 0 and g.scores == [2005, 1665]
    summary = replay_command(text).splitlines()
    assert "384 actions in 3 hand(s)" in summary[0] and summary[-1] == "side 0 wins with 2005; side 1 1665"


def test_clean_burraco_to_close_option():
    """Table rule ``clean_burraco_to_close``: a dirty burraco is not enough to close (the text's default,
    'That side has at least one burraco', accepts any)."""
    dirty = "JK 4s 5s 6s 7s 8s 9s"
    g = bpos(hands={0: "Kd"}, melds={0: [dirty]}, piles_taken=[1, 0], phase="play",
             rules={"clean_burraco_to_close": True})
    illegal(g, "discard Kd", "cannot-close")
    g = bpos(hands={0: "Kd"}, melds={0: [dirty]}, piles_taken=[1, 0], phase="play")
    act(g, "discard Kd")
    assert g.hand_results[-1]["went_out"] == 0
    assert g.hand_results[-1]["sides"][0]["items"]["dirty_burracos"] == 100


def test_stock_end_option_zero():
    """Table rule ``stock_end=0``: play goes on until the stock is empty."""
    g = bpos(hands={0: "4h 9c", 1: "Kd Qs", 2: "Jc Jd", 3: "Qc Qd"}, pile="5c", stock="8h 7h 6h", rest="pile",
             rules={"stock_end": 0},
             extra_piles=["Ks Kd Kc 9s 9d 9c 3s 3d 3c 7s 7d", "Qh Qd Qc 8s 8d 8c 4s 4d 4c 6s 6d"])
    act(g, "draw")
    act(g, "discard 8h")
    assert not g.hand_results
    act(g, "draw")
    act(g, "discard 7h")
    assert not g.hand_results
    act(g, "draw")
    act(g, "discard 6h")
    assert len(g.hand_results) == 1


def test_no_close_before_the_pozzetto():
    """'That partnership has already picked up their pozzetto': with a burraco but no pozzetto yet, discarding
    the last card picks up the pozzetto (face down) instead of closing."""
    g = bpos(hands={0: "Kd", 1: "4c 5c", 2: "Jc Jd", 3: "Qc Qd"}, melds={0: ["3s 4s 5s 6s 7s 8s 9s"]},
             phase="play")
    act(g, "discard Kd")
    assert not g.hand_results and len(g.face_down[0]) == 11 and g.piles_taken == [1, 0]


def test_classic_only_actions_are_refused():
    """Burraco has no 'may I go out?', no retract and no end: those actions are refused by name, state unchanged."""
    g = bpos(hands={0: "4h 9c Kd"}, phase="play")
    for text in ("ask", "retract", "end", "yes"):
        illegal(g, text, "unknown-action")
    illegal(g, "draw", "already-drawn")
    illegal(g, "meld 4h 9c Kd", "meld-invalid")
    illegal(g, "add #7 4h", "no-such-meld")
    illegal(g, "discard 5s", "not-in-hand")
