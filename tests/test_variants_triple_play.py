"""Triple Play, or Hand, Knee, and Foot (triple-play-samba-burraco-mille-hand-and-foot-classic.txt, section
"Triple Play (Hand, Knee, and Foot)", "Denexa").

Each rule test quotes the sentence of the text it enforces. Positions are built with :func:`tpos`:
the Classic helper's position plus each seat's knee and foot and each side's closed canastas.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from canasta import Game
from canasta.cards import parse_card
from canasta.errors import OptionError
from canasta.players.basic import BasicPlayer
from tests.helpers import act, assert_illegal, cards, legal_texts, position

V = "triple-play"

BOOK = {0: ["5s 5h 5d 5c 5s 5h 5d", "7s 7h 7d 7c 7s 7h 7d", "JK JK 2h 2d 2c JK JK",
            "Ks Kh Kd Kc Ks Kh Kd", "9s 9h 9d 9c 2s 9h 9d"]}


def tpos(*, knees: Mapping[int, str] | None = None, feet: Mapping[int, str] | None = None,
         in_knee: Sequence[bool] | None = None, in_foot: Sequence[bool] | None = None,
         knee_side: Sequence[bool] | None = None, books: Mapping[int, Sequence[str]] | None = None,
         hand_no: int = 1, **kw: Any) -> Game:
    """A Triple Play position: knees and feet default to 13 and 11 unnamed cards from the stock (none once
    picked up)."""
    g = position(variant=V, feet=[[] for _ in range(4)], in_foot=[False] * 4, books=[[], []],
                 knees=[[] for _ in range(4)], in_knee=[False] * 4, knee_side=[False, False], **kw)
    d = g.to_dict()
    stock: list[int] = d["stock"]

    def take(codes: list[int]) -> list[int]:
        for c in codes:
            stock.remove(c)
        return codes

    ik = list(in_knee or [False] * 4)
    inf = list(in_foot or [False] * 4)
    knees_l, feet_l = [], []
    for s in range(4):
        knees_l.append(take(cards(knees[s])) if knees and s in knees else
                       ([] if ik[s] else [stock.pop(0) for _ in range(13)]))
        feet_l.append(take(cards(feet[s])) if feet and s in feet else
                      ([] if inf[s] else [stock.pop(0) for _ in range(11)]))
    books_l: list[list[list[Any]]] = [[], []]
    for side, specs in (books or {}).items():
        for spec in specs:
            codes = take(cards(spec))
            nat = [c for c in codes if not (c == 60 or 8 <= c <= 11)]
            books_l[side].append([nat[0] >> 2 if nat else 1, codes])
    d.update({"knees": knees_l, "in_knee": ik, "feet": feet_l, "in_foot": inf, "books": books_l,
              "knee_side": list(knee_side or [bool(books_l[0]), bool(books_l[1])]), "hand_no": hand_no,
              "stock": stock})
    return Game.from_dict(d)


def test_deck_hand_knee_and_foot():
    """'six standard decks, plus twelve jokers (two per deck), 324 cards in all' ... 'deal a fifteen-card hand
    to each player. Next, deal out a thirteen-card knee pile for each player, and an eleven-card foot pile.
    Players may look at their hands, but not the knee and foot piles.'"""
    g = Game(V, 4, 1)
    assert len(g.variant.deck()) == 324 and g.card_count() == 324
    assert all(sum(h) == 15 for h in g.hands)
    assert [len(k) for k in g.knees] == [13] * 4 and [len(f) for f in g.feet] == [11] * 4
    obs = g.observation(0)
    assert obs["knee_sizes"] == [13] * 4 and obs["foot_sizes"] == [11] * 4
    h = g.copy()
    h.knees[0], h.feet[0] = list(h.feet[0]) + h.knees[0][:2], h.knees[0][2:]
    assert h.observation(0) == obs


def test_upcard_buried_when_wild_red_three_five_or_seven():
    """'If the upcard is a joker, 2, red 3, 5, or 7, bury it face-down in the middle of the stock and draw
    another card.'"""
    for seed in range(40):
        top = Game(V, 4, seed).pile[-1]
        assert not (top == 60 or 8 <= top <= 11 or top in (13, 14) or top >> 2 in (5, 7))


def test_no_wild_cards_in_fives_and_sevens():
    """'Melds of 5s and 7s can never contain wild cards.'"""
    g = tpos(hands={0: "5s 5h 2s 7s 7h JK 5d 9c 9d"}, phase="play", melds={0: ["Qs Qh Qd"]})
    texts = legal_texts(g)
    assert "meld 5s 5h 2s" not in texts and not any(t.startswith("meld 7s 7h") for t in texts)
    assert_illegal(g, "meld 5s 5h 2s", "wild-limit")
    act(g, "meld 5s 5h 5d")
    assert "add 5 2s" not in legal_texts(g)
    assert_illegal(g, "add 5 JK", "wild-limit")


def test_take_pile_whole_and_knock_instead_of_discarding():
    """'A player can also pick up the discard pile and add it to their hand. To do so, the player must have two
    cards in their hand that they can immediately meld with the top card' ... 'If a player began their turn by
    picking up the discard pile instead, they do not discard. Instead, they knock on the table'."""
    g = tpos(hands={0: "Ks Kh 4s 9d", 1: "4c 4d"}, pile="4c 4d 5c 6c 6d 8c 8d 9c 10c Kd",
             melds={0: ["Qs Qh Qd"]})
    act(g, "take Ks Kh")
    assert g.pile == [] and g.hand_sizes[0] == 2 + 9
    texts = legal_texts(g)
    assert "end" in texts and not any(t.startswith("discard") for t in texts)
    assert_illegal(g, "discard 4s", "no-discard")
    act(g, "end")
    assert g.turn == 1 and g.phase == "draw"
    assert legal_texts(g) == {"draw"}  # 'The next player has no choice but to draw from the stock.'


def test_first_canasta_picks_up_the_knee_and_the_partner_after_drawing():
    """'When a player finishes their partnership's first canasta, they pick up their knee pile and add it to
    their hand. They then continue their turn as usual. On their partner's next turn, after drawing, they also
    pick up their knee pile.'"""
    g = tpos(hands={0: "Qd Kh Kd 9c 9d", 1: "4c 4d 4h", 2: "8c 8d 8h", 3: "6c 6d 6h"},
             knees={0: "4s 4s 4s 6s 6s 6s 8s 8s 8s 9s 9s 9s 10s", 2: "4h 4h 4h 6h 6h 6h 8h 8h 8h 9h 9h 9h 10h"},
             melds={0: ["Qs Qh Qd Qc Qs Qh"]}, phase="play", stock="Js Jh")
    act(g, "add Q Qd")
    assert g.books[0] and g.in_knee[0] and g.hand_sizes[0] == 4 + 13
    assert not g.in_knee[2]
    act(g, "discard 9c", "draw", "discard 4c")
    assert not g.in_knee[2]
    act(g, "draw")
    assert g.in_knee[2] and g.hand_sizes[2] == 3 + 2 + 13


def test_first_canasta_with_the_last_cards_picks_up_the_knee():
    """'When a player finishes their partnership's first canasta, they pick up their knee pile and add it to
    their hand. They then continue their turn as usual.' Finishing it with the last cards of the hand is no
    going out: both the meld of all seven and the add of the last card are legal (issue 17, defect 2)."""
    knee = "4s 4s 4s 6s 6s 6s 8s 8s 8s 9s 9s 9s 10s"
    g = tpos(hands={0: "Ks Ks Kh Kh Kd Kc Kc"}, melds={0: ["Qs Qh Qd"]}, phase="play", knees={0: knee})
    act(g, "meld Ks Ks Kh Kh Kd Kc Kc")
    assert g.in_knee[0] and g.knee_side[0] and g.hand_sizes[0] == 13
    assert g.turn == 0 and g.phase == "play" and not g.hand_results
    assert "meld 4s 4s 4s" in legal_texts(g)
    g = tpos(hands={0: "Kc"}, melds={0: ["Qs Qh Qd", "Ks Ks Kh Kh Kd Kc"]}, phase="play", knees={0: knee})
    assert "add K Kc" in legal_texts(g)
    act(g, "add K Kc")
    assert g.in_knee[0] and g.hand_sizes[0] == 13 and g.turn == 0 and g.phase == "play"
    # no canasta completed: the last cards may still not be melded without the knee
    g = tpos(hands={0: "Ks Kh Kd"}, melds={0: ["Qs Qh Qd"]}, phase="play", knees={0: knee})
    assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")


def test_no_red_three_replacement_after_the_knee():
    """'Beginning when a player picks up their knee pile, they no longer draw a card to replace red 3s.'"""
    g = tpos(hands={0: "Ks Kh Kd 9c 9d"}, in_knee=[True, False, False, False], knee_side=[True, False],
             melds={0: ["Qs Qh Qd"]}, books={0: ["4s 4h 4d 4c 4s 4h 4d"]}, stock="3h 8c 6d")
    act(g, "draw")
    assert g.red_threes[0] == cards("3h") and g.hand_sizes[0] == 6
    assert g.hands[0][parse_card("8c")] == 1 and g.hands[0][parse_card("6d")] == 0


def test_foot_after_the_knee_and_basic_book_to_go_out():
    """'After a player has picked up their knee pile, when they run out of cards, they pick up their foot pile
    and continue play from there' ... 'When a player runs out of cards after picking up their foot pile, they may
    go out if their partnership has completed their basic book. To do so, they must first ask their partner'."""
    g = tpos(hands={0: "Ks Kh Kd"}, in_knee=[True, False, False, False], feet={0: "6s 6h 6d 8s 8h 8d 9s 9h 10s 10h 4c"},
             melds={0: ["Qs Qh Qd"]}, books={0: ["4s 4h 4d 4c 4s 4h 4d"]}, phase="play")
    act(g, "meld Ks Kh Kd")
    assert g.in_foot[0] and g.hand_sizes[0] == 11
    # a player without the knee keeps a card
    g = tpos(hands={0: "Ks Kh Kd 9c"}, melds={0: ["Qs Qh Qd"]}, phase="play")
    act(g, "meld Ks Kh Kd", "discard 9c")
    assert g.hand_sizes[0] == 0 and not g.in_foot[0] and not g.hand_results
    # going out: the basic book and permission
    books = {0: BOOK[0][:4]}
    g = tpos(hands={0: "Ks Kh Kd 4c"}, in_knee=[True] * 4, in_foot=[True, False, False, False],
             melds={0: ["Qs Qh Qd"]}, books=books, phase="play")
    act(g, "ask", "yes")
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "a mixed canasta" in err.message
    g = tpos(hands={0: "Ks Kh Kd 4c"}, in_knee=[True] * 4, in_foot=[True, False, False, False],
             melds={0: ["Qs Qh Qd"]}, books=BOOK, phase="play")
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "permission" in err.message
    act(g, "ask", "yes", "meld Ks Kh Kd", "discard 4c")
    assert g.hand_results[-1]["went_out"] == 0


def test_scoring():
    """'7s: 5,000 points per canasta. 5s: 3,000 per canasta. Wild cards: 2,500 points per canasta. Natural
    canastas: 500 points per canasta. Mixed canastas: 300 points per canasta.' ... 'Red 3s: 100 points each.
    Collecting seven or more red 3s: 300 points. Going out: 200 points.' ... 'Unplayed red 3s have a value of
    -500 points each; unplayed black 3s are -100 points each.' ... 'they deduct the value of any cards remaining
    in their hands, as well as their knee and foot piles' (seat 3 never picked up its knee)."""
    g = tpos(hands={0: "Ks Kh Kd 4c", 1: "3s"}, in_knee=[True, True, True, False], in_foot=[True, True, True, False],
             melds={0: ["Qs Qh Qd"]}, books=BOOK, phase="play", permission=True, asked=True,
             red_threes={0: "3h 3h 3h 3d 3d 3d 3h"}, feet={3: "3d"}, knees={3: "8c 9c 3c"}, knee_side=[True, True])
    act(g, "meld Ks Kh Kd", "discard 4c")
    it = g.hand_results[-1]["sides"]
    assert it[0]["items"]["natural_canastas"] == 5000 + 3000 + 500
    assert it[0]["items"]["wild_canastas"] == 2500 and it[0]["items"]["mixed_canastas"] == 300
    assert it[0]["items"]["red_threes"] == 700 + 300 and it[0]["items"]["going_out"] == 200
    assert it[1]["items"]["cards_in_hand"] == -(100 + 500 + 10 + 10 + 100)


def test_knees_not_picked_up_count_against_the_side():
    """'Each partnership totals the value of the cards it has melded. From this total, they deduct the value of
    any cards remaining in their hands, as well as their knee and foot piles.' (issue 17, defect 1: the knee of
    a side that never completed a canasta was left off its score.)"""
    knee_1 = "Ks Kh Kd 4s 4h 4d 6s 6h 6d 9s 9h 3h 3c"   # 30 + 15 + 15 + 20 + 500 + 100
    knee_3 = "As Ah Ad 8s 8h 8d 10s 10h 10d Js Jh Jd 2s"  # 60 + 30 + 30 + 30 + 20 = 170
    g = tpos(hands={0: "Ks Kh Kd 4c", 1: "5c"}, in_knee=[True, False, True, False], in_foot=[True, False, False, False],
             knees={1: knee_1, 3: knee_3}, feet={1: "Qs Qh", 2: "6c", 3: "JK"},
             melds={0: ["Qs Qh Qd"]}, books=BOOK, phase="play", permission=True, asked=True)
    act(g, "meld Ks Kh Kd", "discard 4c")
    assert g.hand_results[-1]["went_out"] == 0
    them = g.hand_results[-1]["sides"][1]["items"]
    # hand 5c (5); knees 680 and 170; feet Qs Qh (20) and JK (50)
    assert them["cards_in_hand"] == -(5 + 680 + 170 + 20 + 50)
    us = g.hand_results[-1]["sides"][0]["items"]
    assert us["cards_in_hand"] == -5  # seat 2's foot (6c); seat 0 went out, both knees picked up


def test_four_deals_and_playouts():
    """'The partnership with the highest score at the end of four hands is the winner.'"""
    for seed in range(2):
        g = Game(V, 4, seed)
        rng = random.Random(seed)
        basic = BasicPlayer(seed)
        n = 0
        while not g.is_over:
            legal = g.legal_actions()
            assert legal
            a = basic.choose(g.observation(g.actor), legal) if seed == 0 else rng.choice(legal)
            g.apply(a)
            n += 1
            assert g.card_count() == 324
            if n % 113 == 0:
                h = Game.from_json(g.to_json())
                assert h.to_json() == g.to_json() and h.legal_actions() == g.legal_actions()
        assert len(g.hand_results) == 4


def test_options():
    """'Triple Play ... is a variation on Canasta for four players in partnerships.'"""
    with pytest.raises(OptionError):
        Game(V, 2, 0)
    assert len(Game(V, 4, 0, {"decks": 7}).variant.deck()) == 7 * 54


def test_golden_triple_play_record():
    """The golden record tests/data/triple-play-4p-seed1.txt (a whole game of BasicPlayers: four hands, the
    first three ended by a player going out, the fourth by the end of the stock; knees and feet picked up on the
    way; regenerated after the one-retract-a-turn rule and the knees' scoring) replays, re-exports byte for byte,
    and rescores: 'The partnership with the highest score at the end of four hands is the winner.'"""
    from pathlib import Path

    from canasta.record import export_record, replay_command, replay_record

    path = Path(__file__).parent / "data" / "triple-play-4p-seed1.txt"
    text = path.read_text()
    g = replay_record(text)
    assert export_record(g, date="2026.11.23") == text
    assert [r["went_out"] for r in g.hand_results] == [0, 3, 2, None]
    assert g.is_over and g.winner == 0 and g.scores == [78940, 63330]
    for result in g.hand_results:
        for s in result["sides"]:
            assert s["total"] == sum(s["items"].values())
    summary = replay_command(text).splitlines()
    assert "1166 actions in 4 hand(s)" in summary[0] and summary[-1] == "side 0 wins with 78940; side 1 63330"


def test_a_player_stranded_with_one_card_ends_the_turn_without_a_discard():
    """Denexa 'Triple Play': 'Beginning when a player picks up their knee pile, they no longer draw a card to
    replace red 3s. They simply play them and continue their turn.' In this arena game (expert and basic, seed
    arena/2805/12) seat 3, in its foot with one card, draws two red threes and keeps one card it may neither
    discard (that would be going out, and its side lacks the books) nor meld. The game had no legal move there;
    now the turn ends without a discard (`end`), the card staying in hand, and the hand plays on to its end."""
    from pathlib import Path

    from canasta.notation import parse_action

    g = Game(V, 4, "arena/2805/12")
    moves = (Path(__file__).parent / "data" / "triple-play-stranded.moves").read_text().split("\n")
    for text in filter(None, moves):
        g.push(parse_action(text))
    assert g.turn == 3 and g.phase == "play" and g.in_foot[3] and g.permission is True
    assert g.observation(3)["hand"] == ["7d"]
    assert legal_texts(g) == {"end"}
    assert_illegal(g, "discard 7d", "cannot-go-out")
    act(g, "end")
    assert g.actor == 0 and g.phase == "draw" and g.observation(3)["hand"] == ["7d"]
    player = BasicPlayer()
    while not g.hand_results:
        g.push(player.choose(g.observation(g.actor), g.legal_actions()))
    assert len(g.hand_results) == 1


def test_scorekeeper_triple_play_knee_foot_and_reminder_penalty():
    """Denexa 'Triple Play': 'Unplayed red 3s have a value of -500 points each; unplayed black 3s are -100
    points each' (knee and foot cards go in 'hands'); '7s: 5,000 points per canasta. 5s: 3,000 per canasta.
    Wild cards: 2,500 points per canasta. Natural canastas: 500 points per canasta. Mixed canastas: 300 points
    per canasta. Red 3s: 100 points each ... Going out: 200 points.'; and 'Nobody can remind them to do so;
    anyone who does is subject to a stiff 1,000-point penalty!' (a scorekeeper penalty entry)."""
    import json
    from pathlib import Path

    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import render_sheet, score_input

    data = json.loads((Path(__file__).parent / "data" / "triple-play-score.json").read_text())
    out = score_input(data)
    we, they = out["teams"][0]["items"], out["teams"][1]["items"]
    # melded 7s 35 + 5s 35 + wild 230 + Ks 70 + 9s 80 + Qs 30 = 480; canastas 5000 + 3000 + 2500 + 500 + 300
    assert we["melded_cards"] == 480 and we["natural_canastas"] == 8500
    assert we["wild_canastas"] == 2500 and we["mixed_canastas"] == 300
    assert we["red_threes"] == 200 and we["going_out"] == 200 and we["cards_in_hand"] == -5
    assert we["knee_reminder"] == -1000
    assert out["teams"][0]["total"] == 11175
    # a knee left with 8c 3h 3c: 10 + 500 + 100; a foot: Kc JK 2c 5s 7h 9d 10d Jd Qd Kd Ac 4d = 165
    assert they["cards_in_hand"] == -775 and out["teams"][1]["total"] == 60 - 775
    assert out["game"]["over"] and out["game"]["winner"] == 0
    assert "Knee reminder         -1000" in render_sheet(data, out)
    data["teams"][0]["melds"].pop(1)  # no canasta of 5s: no basic book
    with pytest.raises(ScoreInputError, match="basic book"):
        score_input(data)
