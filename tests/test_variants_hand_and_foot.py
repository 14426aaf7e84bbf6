"""Hand and Foot (triple-play-samba-burraco-mille-hand-and-foot-classic.txt, section "Hand and Foot",
"Denexa"; options from encyclopedia-canasta-and-variants.txt, "Hand and Foot" and its "Variations").

Each rule test quotes the sentence of the text it enforces. Positions are built with
:func:`hpos`: the Classic helper's position plus each seat's foot and each side's books.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from canasta import Game
from canasta.cards import format_card, parse_card
from canasta.errors import OptionError
from canasta.players.basic import BasicPlayer
from canasta.variants import VARIANTS
from tests.helpers import act, assert_illegal, cards, legal_texts, position

V = "hand-and-foot"


def hpos(*, feet: Mapping[int, str] | None = None, in_foot: Sequence[bool] | None = None,
         books: Mapping[int, Sequence[str]] | None = None, hand_no: int = 1, **kw: Any) -> Game:
    """A Hand and Foot position: ``feet`` seat -> cards (default: 11 unnamed cards from the stock),
    ``books`` side -> closed piles (card strings)."""
    players = kw.get("players", 4)
    sides = VARIANTS[V](players, kw.get("rules")).num_sides  # team_size 3: two sides of three
    g = position(variant=V, feet=[[] for _ in range(players)], in_foot=[False] * players,
                 books=[[] for _ in range(sides)], **kw)
    d = g.to_dict()
    stock: list[int] = d["stock"]

    def take(codes: list[int]) -> list[int]:
        for c in codes:
            stock.remove(c)
        return codes

    feet_l = []
    for s in range(players):
        if feet is not None and s in feet:
            feet_l.append(take(cards(feet[s])))
        else:
            feet_l.append([stock.pop(0) for _ in range(11)] if not (in_foot and in_foot[s]) else [])
    books_l: list[list[list[Any]]] = [[] for _ in range(g.num_sides)]
    for side, specs in (books or {}).items():
        for spec in specs:
            codes = take(cards(spec))
            nat = [c for c in codes if not (c == 60 or 8 <= c <= 11)]
            books_l[side].append([nat[0] >> 2 if nat else 1, codes])
    d.update({"feet": feet_l, "in_foot": list(in_foot or [False] * players), "books": books_l,
              "hand_no": hand_no, "stock": stock})
    return Game.from_dict(d)


def test_deck_hands_and_feet():
    """'a 270-card deck consisting of five standard 52-card decks plus jokers' ... 'deals two piles of
    eleven cards face down' ... 'the other eleven cards are passed to their right, forming that player's foot'."""
    g = Game(V, 4, 1)
    assert len(g.variant.deck()) == 270
    assert g.card_count() == 270
    assert all(len(f) == 11 for f in g.feet)
    assert all(sum(h) == 11 for h in g.hands)  # red threes laid out are replaced one for one
    obs = g.observation(0)
    assert obs["foot_sizes"] == [11, 11, 11, 11]
    assert "feet" not in obs
    # the encyclopedia's 'typically one more than the number of players'
    assert len(Game(V, 2, 1).variant.deck()) == 3 * 54
    assert len(Game(V, 4, 1, {"decks": 6}).variant.deck()) == 6 * 54


def test_observation_does_not_leak_feet_or_hands():
    """'The foot is kept face-down in front of the player.'"""
    g = Game(V, 4, 3)
    h = g.copy()
    # swap hidden cards: seat 1's foot with part of the stock
    h.feet[1], h.stock[:11] = list(h.stock[:11]), list(h.feet[1])
    h.feet[0].reverse()
    for seat in (0, 2, 3):  # seat 0's own foot is face down too: only its size shows
        assert g.observation(seat) == h.observation(seat)
    text = json.dumps(g.observation(0))
    assert "feet" not in text


def test_upcard_wild_or_red_three_is_buried():
    """'If the upcard is a joker, 2, or red 3, discard it face-down into one of the stocks and draw another card.'"""
    for seed in range(30):
        g = Game(V, 4, seed)
        top = g.pile[-1]
        assert len(g.pile) == 1
        assert not (top == 60 or 8 <= top <= 11 or top in (13, 14))


def test_draw_two():
    """'They may draw either the top two cards of one of the stock piles ...'"""
    g = hpos(hands={0: "4s 5s 9h", 1: "Kd"}, pile="6c", stock="8h 8d")
    act(g, "draw")
    assert sorted(g.hand_cards(0)) == sorted(cards("4s 5s 9h 8h 8d"))


def test_take_top_seven_only():
    """'... or the top seven cards of the discard pile (or the whole pile if it contains less than seven
    cards). In order to draw from the discards, the player must be able to immediately meld the top card
    of the discard pile with two cards from their hand.'"""
    g = hpos(hands={0: "Ks Kh 4s 5s 6s"}, pile="4c 4d 5c 5d 6c 6d 7c 8c 9c Kd", melds={0: ["Qs Qh Qd"]})
    act(g, "take Ks Kh")
    assert g.pile == cards("4c 4d 5c")
    assert sorted(g.hand_cards(0)) == sorted(cards("4s 5s 6s 5d 6c 6d 7c 8c 9c"))
    assert g.melds[0][13].cards[0] == parse_card("Kd")
    g2 = hpos(hands={0: "Ks 4s 5s 6s"}, pile="9c Kd", melds={0: ["Qs Qh Qd"]})
    assert_illegal(g2, "take", "take-cards")


def test_take_with_natural_and_wild_and_blocked_by_black_three():
    """'Because black 3s cannot be melded, a player may never draw from the discard pile if the upcard is a
    black 3.'"""
    g = hpos(hands={0: "Ks 2h 4s 5s"}, pile="9c Kd", melds={0: ["Qs Qh Qd"]})
    assert "take Ks 2h" in legal_texts(g)
    g2 = hpos(hands={0: "3s 3c 4s 5s"}, pile="9c 3s", melds={0: ["Qs Qh Qd"]})
    assert not any(t.startswith("take") for t in legal_texts(g2))
    assert_illegal(g2, "take 3s 3c", "pile-blocked")


def test_wild_on_top_needs_two_of_its_kind():
    """'If the top card of the discard pile is a wild card, then the player can only draw from the discard pile
    if the player is holding two other cards of the same rank (e.g. if there is a joker on the discard pile,
    you need two other jokers to draw from it, you cannot substitute twos for the jokers).'"""
    g = hpos(hands={0: "JK 2h 2s 5s"}, pile="9c JK", melds={0: ["Qs Qh Qd"]})
    assert_illegal(g, "take JK 2h", "take-wild")
    g2 = hpos(hands={0: "JK JK 2s 5s"}, pile="9c JK", melds={0: ["Qs Qh Qd"]})
    act(g2, "take JK JK")
    assert g2.melds[0][1].size == 3


def test_wild_limit_by_size():
    """'A meld can contain no more than one wild card in a meld of three, four, or five cards and no more than
    two in a meld of six or seven.'"""
    g = hpos(hands={0: "9s 9h 9d 9c 2s 2h JK 4s"}, phase="play", melds={1: ["Qs Qh Qd"]}, opened=[True, True])
    assert_illegal(g, "meld 9s 9h 2s 2h", "wild-limit")
    act(g, "meld 9s 9h 2s", "add 9d")
    assert_illegal(g, "add 9 2h", "wild-limit")  # 5 cards, two wild
    act(g, "add 9c", "add 9 2h")  # 6 cards, two wild
    assert_illegal(g, "add 9 JK", "wild-limit")


def test_pile_closes_at_seven_and_a_new_meld_may_begin():
    """'A pile cannot contain more than seven cards; once a pile has been completed, a new meld of the same
    rank can be established.'"""
    g = hpos(hands={0: "9s 9h 9d 9c 9s 9h 9d 9c 9s 9h 4s 4d"}, phase="play", opened=[True, False])
    act(g, "meld 9s 9h 9d", "add 9c", "add 9s", "add 9h", "add 9d")
    assert 9 not in g.melds[0]
    assert [r for r, _ in g.books[0]] == [9]
    act(g, "meld 9c 9s 9h")
    assert g.melds[0][9].size == 3
    assert g.observation(1)["books"][0][0]["kind"] == "clean"


def test_black_threes_cannot_be_melded():
    """'Black 3s: Cannot be melded.'"""
    g = hpos(hands={0: "3s 3c 3s 4h"}, phase="play", melds={0: ["Qs Qh Qd"]})
    assert_illegal(g, "meld 3s 3c 3s", "black-three-meld")


def test_meld_of_wild_cards():
    """'A player can also make a meld that consists of all wild cards.'"""
    g = hpos(hands={0: "JK 2s 2h 4h 5h"}, phase="play", melds={0: ["Qs Qh Qd"]})
    act(g, "meld JK 2s 2h")
    assert g.melds[0][1].size == 3


@pytest.mark.parametrize("hand_no,need", [(1, 50), (2, 90), (3, 120), (4, 150)])
def test_minimum_by_round(hand_no, need):
    """'First round: 50 points / Second round: 90 points / Third round: 120 points / Fourth round: 150 points'"""
    g = hpos(hands={0: "Ks Kh Kd 4s"}, phase="play", hand_no=hand_no)
    assert g.minimum(0) == need


def test_melding_out_picks_up_the_foot_at_once():
    """'If the player manages to run out of cards before discarding (i.e. through melding), they may simply
    pick up their foot at that time and continue their turn.'"""
    g = hpos(hands={0: "Ks Kh Kd"}, feet={0: "4s 4h 4d 5s 5h 5d 6s 6h 6d 7s 7h"}, phase="play",
             melds={0: ["Qs Qh Qd"]})
    act(g, "meld Ks Kh Kd")
    assert g.in_foot[0] and g.hand_sizes[0] == 11 and g.phase == "play" and g.turn == 0


def test_discarding_out_picks_up_the_foot_next_turn():
    """'If the player gets rid of their final card through discarding, they pick up the foot at the beginning
    of their next turn.'"""
    g = hpos(hands={0: "Ks", 1: "4c 4c 5c", 2: "8c 8c", 3: "9c 9c"},
             feet={0: "4s 4h 4d 5s 5h 5d 6s 6h 6d 7s 7h"}, phase="play", melds={0: ["Qs Qh Qd"]})
    act(g, "discard Ks")
    assert not g.is_over and g.hand_sizes[0] == 0 and not g.in_foot[0]
    assert g.observation(1)["foot_sizes"][0] == 11
    act(g, "draw", "discard 4c", "draw", "discard 8c", "draw", "discard 9c")
    assert g.turn == 0 and g.in_foot[0] and g.hand_sizes[0] == 11


BOOKS = {0: ["4s 4h 4d 4c 4s 4h 4d", "5s 5h 5d 5c 5s 5h 5d", "6s 6h 6d 6c 2s 6h 6d",
             "7s 7h 7d 7c 2s 7h 7d", "JK JK 2h 2d 2c JK JK"]}


def test_going_out_needs_books_feet_and_permission():
    """'In order to go out, a partnership must meet the following conditions: they must have completed two
    clean piles, two dirty piles, and one wild pile, both players must have played at least part of one turn
    with their foot piles, and the player wishing to go out must have received permission to go out from
    their partner.'"""
    # books missing
    # (a player in the foot may not keep a single card unless the discard of it goes out)
    g = hpos(hands={0: "Ks Kh Kd 9c", 2: "8s 8h"}, in_foot=[True, False, True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books={0: BOOKS[0][:4]})
    act(g, "ask", "yes")
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "0 wild" in err.message
    # partner not in foot
    g = hpos(hands={0: "Ks Kh Kd 9c", 2: "8s 8h"}, in_foot=[True, False, False, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books=BOOKS)
    assert "ask" not in legal_texts(g) or True
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "both partners" in err.message
    # no permission asked
    g = hpos(hands={0: "Ks Kh Kd 9c", 2: "8s 8h"}, in_foot=[True, False, True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books=BOOKS)
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "permission" in err.message
    act(g, "ask", "yes", "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0
    assert g.hand_no == 2


def test_partner_says_no():
    """'The answer given is binding.'"""
    g = hpos(hands={0: "Ks Kh Kd 9c", 2: "8s 8h"}, in_foot=[True, False, True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books=BOOKS)
    act(g, "ask", "no")
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "said no" in err.message
    act(g, "discard 9c")
    assert g.turn == 1 and not g.hand_results


def test_scoring_piles_red_threes_going_out_and_the_unplayed_foot():
    """'Wild piles: 1500 points each. Clean piles: 500 points each. Dirty piles: 300 points each. Red threes:
    100 points each. Going out: 100 points.' ... 'the value of cards held in hand is deducted'."""
    g = hpos(hands={0: "Ks Kh Kd 9c", 1: "Ac", 3: "8s"}, in_foot=[True, False, True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books=BOOKS, red_threes={0: "3h"},
             feet={1: "Ad", 3: "4c"}, permission=True, asked=True)
    act(g, "meld Ks Kh Kd", "discard 9c")
    it = g.hand_results[-1]["sides"]
    assert it[0]["items"]["wild_canastas"] == 1500
    assert it[0]["items"]["natural_canastas"] == 1000
    assert it[0]["items"]["mixed_canastas"] == 600
    assert it[0]["items"]["red_threes"] == 100
    assert it[0]["items"]["going_out"] == 100
    # side 1: Ac and 8s in hand, Ad and 4c in the unplayed feet
    assert it[1]["items"]["cards_in_hand"] == -(20 + 10 + 20 + 5)


def test_four_hands_a_game():
    """'The game ends after four hands have been played. The partnership with the highest score at that point
    is the winner.'"""
    g = Game(V, 4, 0)
    rng = random.Random(0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert len(g.hand_results) == 4
    top = max(g.scores)
    assert g.winner == (g.scores.index(top) if g.scores.count(top) == 1 else None)


def test_options_and_errors():
    """Encyclopedia: 'Both the hand and foot are dealt as 11 cards each, or sometimes as 13 cards each.'"""
    g = Game(V, 4, 0, {"hand_size": 13, "foot_size": 13})
    assert all(len(f) == 13 for f in g.feet)
    with pytest.raises(OptionError):
        Game(V, 4, 0, {"hand_size": 12})
    with pytest.raises(OptionError):
        Game(V, 4, 0, {"draw_count": 1})
    assert Game(V, 4, 0, {"eights_five": True}).variant.values[parse_card("8h")] == 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_basic_playouts(players):
    """Random legal play and the basic player: no stuck state, cards conserved, JSON round trip."""
    for seed in range(3):
        g = Game(V, players, seed)
        rng = random.Random(seed)
        basic = BasicPlayer(seed)
        n = 0
        while not g.is_over:
            legal = g.legal_actions()
            assert legal
            a = basic.choose(g.observation(g.actor), legal) if seed == 0 else rng.choice(legal)
            g.apply(a)
            n += 1
            assert g.card_count() == len(g.variant.deck())
            if n % 97 == 0:
                h = Game.from_json(g.to_json())
                assert h.to_json() == g.to_json()
                assert h.legal_actions() == g.legal_actions()


def test_golden_hand_and_foot_record():
    """The golden record tests/data/hand-and-foot-4p-seed2.txt (a whole game of BasicPlayers: four hands,
    each ended by a player going out) replays, re-exports byte for byte, and rescores."""
    from pathlib import Path

    from canasta.record import export_record, replay_command, replay_record

    path = Path(__file__).parent / "data" / "hand-and-foot-4p-seed2.txt"
    text = path.read_text()
    g = replay_record(text)
    assert export_record(g, date="2026.11.23") == text
    assert [r["went_out"] for r in g.hand_results] == [0, 2, 3, 1]
    assert g.is_over and g.winner == 1 and g.scores == [16215, 20750]
    for result in g.hand_results:
        for s in result["sides"]:
            assert s["total"] == sum(s["items"].values())
    summary = replay_command(text).splitlines()
    assert "822 actions in 4 hand(s)" in summary[0] and summary[-1] == "side 1 wins with 20750; side 0 16215"


def test_scorekeeper_counts_the_unplayed_foot_and_checks_the_books():
    """Issue 4: 'For `score`, `hands` lists every card a player still holds in hand, knee and foot
    together'; Denexa: 'they must have completed two clean piles, two dirty piles, and one wild pile'."""
    from pathlib import Path

    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import render_sheet, score_input

    data = json.loads((Path(__file__).parent / "data" / "hand-and-foot-score.json").read_text())
    out = score_input(data)
    assert [t["total"] for t in out["teams"]] == [3860, -230]
    # the foot (with a red three in it) counts against: Ah 3s + JK 6c 3h 8c 8d 9s 10s Jc Qc Kc Ac 4s 5s
    assert out["teams"][1]["items"]["cards_in_hand"] == -280
    assert out["game"] == {"scores": [5060, 670], "hands": 4, "hand": 2, "over": False, "winner": None,
                           "settlement": None}
    assert "hand 2 of 4" in render_sheet(data, out)
    data["game"]["hand"] = 4
    assert score_input(data)["game"]["winner"] == 0
    data["teams"][0]["melds"].pop(4)  # no wild pile
    with pytest.raises(ScoreInputError, match="went out, but to go out your side needs"):
        score_input(data)


def play_terminal_by_hints(monkeypatch: Any, players: int, rules: dict[str, Any],
                           check: Any = None) -> str:
    """`canasta play` (seat 0, seed 2) through the prompt with the hint as every input; ``check`` sees the
    TerminalGame before it runs. The text the player saw."""
    import io

    from canasta.notation import format_action
    from canasta.players import hint
    from canasta.tui import TerminalGame, run_play

    state: dict[str, Any] = {}

    def typer_(prompt: str) -> str:
        g = state["game"]
        return format_action(hint(g.observation(0), g.legal_actions())[0])

    real_run = TerminalGame.run

    def run_and_capture(self: TerminalGame) -> None:
        state["game"] = self.game
        if check is not None:
            check(self)
        real_run(self)

    monkeypatch.setattr(TerminalGame, "run", run_and_capture)
    out = io.StringIO()
    run_play(variant=V, players=players, seed=2, rules=rules, seat=0, load=None, input_fn=typer_, output=out)
    return out.getvalue()


@pytest.mark.parametrize("passing", [False, True])
def test_terminal_game_plays_hand_and_foot(monkeypatch, passing):
    """`canasta play --variant hand-and-foot`: a whole game through the prompt, with hints as input (with the
    hand-passing deal: the turned-up cards and the prompt to keep a foot; the others' choices shown only once
    all have chosen)."""
    rules = {"hands_per_game": 1, **(PASSING if passing else {})}
    text = play_terminal_by_hints(monkeypatch, 4, rules)
    assert "books 0/0/0 of " in text and "+foot 11" in text
    if passing:
        assert "Turned up (pile 1 / pile 2)" in text and "Keep a pile as your foot" in text
        assert "keeps a foot" in text
        assert "Feet kept: " in text and ": keep " not in text and "(top " in text
    assert "End of hand 1" in text and "Game over" in text
    assert "Not allowed" not in text and "Traceback" not in text


def test_environments_run_hand_and_foot():
    """The RL environments and the encoding: num_actions / obs_size of the variant, a masked episode,
    PettingZoo's api_test, and OpenSpiel's resampling, which must redeal every foot (all are face down)."""
    import numpy as np

    from canasta.encoding import encode_observation, legal_indices, num_actions, obs_size
    from canasta.env.gym_env import CanastaGymEnv

    assert num_actions(V) == num_actions("classic") + 4  # two wild takes, keep 1 / keep 2
    g = hpos(hands={0: "JK JK 5s 6s"}, pile="9c JK", melds={0: ["Qs Qh Qd"]})
    idx = legal_indices(g.legal_actions(), V)
    assert any(i >= num_actions("classic") for i in idx)
    obs = encode_observation(g.observation(0))
    assert obs.shape == (obs_size(V),) and np.isfinite(obs).all()

    env = CanastaGymEnv(variant=V, players=4, opponents="random")
    env.reset(seed=1)
    done = False
    steps = 0
    while not done and steps < 3000:
        legal = np.flatnonzero(env.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[0]))
        done = term or trunc
        steps += 1

    from pettingzoo.test import api_test

    from canasta.env.pettingzoo_env import env as pz_env
    api_test(pz_env(variant=V, players=4), num_cycles=200)

    pyspiel = pytest.importorskip("pyspiel")
    import canasta.env.openspiel_game as osg

    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": V, "players": 4})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(3)
    player = state.current_player()
    info = state.information_state_string(player)
    r = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.information_state_string(player) == info
    assert r.game.feet != state.game.feet
    assert [len(f) for f in r.game.feet] == [len(f) for f in state.game.feet]
    assert r.game.observation(player) == state.game.observation(player)


def _shuffle_hidden_with_feet(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with every card ``seat`` cannot see dealt anew: the other hands (but their
    publicly known cards), the stock and every foot (the seat's own foot is face down too)."""
    d = game.to_dict()
    others = [s for s in range(game.num_players) if s != seat]
    hidden: dict[int, list[int]] = {}
    for s in others:
        rest = list(d["hands"][s])
        for c in d["known"][s]:
            rest.remove(c)
        hidden[s] = rest
    pool = [c for s in others for c in hidden[s]] + list(d["stock"]) + [c for f in d["feet"] for c in f]
    rng.shuffle(pool)
    for s in others:
        n = len(hidden[s])
        d["hands"][s], pool = sorted(list(d["known"][s]) + pool[:n]), pool[n:]
    feet = []
    for f in d["feet"]:
        feet.append(pool[:len(f)])
        pool = pool[len(f):]
    d["feet"] = feet
    d["stock"] = pool
    return Game.from_dict(d)


def test_players_and_observations_ignore_hidden_cards_and_feet():
    """'The foot is kept face-down in front of the player': two positions that differ only in cards a seat
    cannot see (other hands, the stock, every foot) give that seat the same observation, the same legal
    actions and the same choices of the computer players."""
    from canasta.players import hint
    from canasta.players.random_player import RandomPlayer

    rng = random.Random(4)
    game = Game(V, 4, 7)
    movers = [BasicPlayer(s) for s in range(4)]
    changed = 0
    for _ in range(150):
        actor = game.actor
        obs = game.observation(actor)
        legal = game.legal_actions()
        twin = _shuffle_hidden_with_feet(game, actor, rng)
        changed += twin.feet != game.feet
        assert twin.observation(actor) == obs
        assert twin.legal_actions() == legal
        for make in (BasicPlayer, RandomPlayer):
            assert make(5).choose(obs, legal) == make(5).choose(twin.observation(actor), twin.legal_actions())
        assert hint(obs, legal) == hint(twin.observation(actor), twin.legal_actions())
        game.apply(movers[actor].choose(obs, legal))
    assert changed > 100


def test_take_joins_the_unfinished_meld_of_that_rank():
    """'Players cannot move cards between melds, or establish two separate incomplete melds of the same
    rank': the top card and the two cards go onto the side's unfinished meld of that rank, if they fit."""
    g = hpos(hands={0: "Ks Kh 4s 5s"}, pile="9c Kd", melds={0: ["Kc Kd Ks 2h"]})
    act(g, "take Ks Kh")
    assert g.melds[0] == {} and [len(c) for _, c in g.books[0]] == [7]
    g = hpos(hands={0: "Ks Kh 4s 5s"}, pile="9c Kd", melds={0: ["Kc Kd Ks Kh 2h"]})
    assert not any(t.startswith("take") for t in legal_texts(g))
    assert_illegal(g, "take Ks Kh", "meld-size")


def test_stock_used_up_take_or_end():
    """'the game simply continues without a stock; play continues with players drawing from the discard pile
    ... until a player goes out as normal, or is unable or unwilling to draw from the discard pile, at which
    point the hand ends'."""
    g = hpos(hands={0: "Ks Kh 4s 5s", 1: "4c"}, pile="9c Kd", melds={0: ["Qs Qh Qd"]}, rest="pile",
             in_foot=[True] * 4)
    assert g.stock == []
    assert legal_texts(g) >= {"take Ks Kh", "end"} and "draw" not in legal_texts(g)
    act(g, "end")
    assert g.hand_results and g.hand_results[-1]["went_out"] is None


def test_red_three_last_card_of_the_stock():
    """'If, however, the final card of the stock is a red 3, special rules apply. The player taking the 3
    declares it as usual, then does any melding possible, after which play ceases. This player is not entitled
    to discard.'"""
    g = hpos(hands={0: "Ks Kh Kd 4s", 1: "4c"}, pile="9c", melds={0: ["Qs Qh Qd"]}, stock="5c 3h", rest="pile",
             in_foot=[True] * 4)
    act(g, "draw")
    assert g.red_threes[0] == cards("3h") and g.no_discard
    assert not any(t.startswith("discard") for t in legal_texts(g))
    act(g, "meld Ks Kh Kd", "end")
    assert g.hand_results[-1]["went_out"] is None


def test_retract_takes_back_a_pile_closed_below_the_minimum():
    """'A partnership's first melds of the hand must meet a minimum value' (seven 4s are 35, below 50):
    the opening is taken back whole, the closed pile included."""
    g = hpos(hands={0: "4s 4h 4d 4c 4s 4h 4d 9c 8d"}, phase="play")
    act(g, "meld 4s 4h 4d", "add 4c", "add 4s", "add 4h", "add 4d")
    assert len(g.books[0]) == 1 and g.pending_value == 35
    assert_illegal(g, "discard 9c", "minimum-count")
    act(g, "retract")
    assert g.books[0] == [] and g.hand_sizes[0] == 9 and g.melds[0] == {}


def test_two_players_go_out_without_asking():
    """Encyclopedia: 'When playing a singles game (that is, without partners)': no partner to ask or to wait
    for (the books needed are the table rules' defaults)."""
    g = hpos(players=2, hands={0: "Ks Kh Kd 9c", 1: "8s"}, in_foot=[True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books=BOOKS)
    assert "ask" not in legal_texts(g)
    act(g, "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0


def test_permission_and_partner_options():
    """Encyclopedia: 'some versions require both teammates to be in their foot, while others allow you to go
    out even if your partner is still in their hand ... some versions require asking for and receiving your
    partner's permission before going out, while other versions specifically disallow asking'."""
    rules = {"permission": "none", "partner_in_foot": False}
    g = hpos(hands={0: "Ks Kh Kd 9c", 2: "8s 8h"}, in_foot=[True, False, False, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books=BOOKS, rules=rules)
    assert "ask" not in legal_texts(g)
    act(g, "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0
    g = hpos(hands={0: "Ks Kh Kd 9c", 2: "8s 8h"}, in_foot=[True, False, True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books=BOOKS, rules={"permission": "optional"})
    assert "ask" in legal_texts(g)
    act(g, "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0


def test_red_three_in_the_foot_is_laid_out_and_replaced():
    """'any red 3s encountered throughout the game are laid down and new cards drawn to replace them'."""
    g = hpos(hands={0: "Ks Kh Kd"}, feet={0: "3h 4h 4d 5s 5h 5d 6s 6h 6d 7s 7h"}, phase="play",
             melds={0: ["Qs Qh Qd"]}, stock="8c")
    act(g, "meld Ks Kh Kd")
    assert g.red_threes[0] == cards("3h") and g.hand_sizes[0] == 11 and g.hands[0][parse_card("8c")] == 1


# ---------------------------------------------------------------------------------------------------------
# Encyclopedia "Variations" as table rules (docs/variants/hand-and-foot.md, "Options")

TAKE_POS = {"hands": {0: "Ks Kh 4s"}, "pile": "4c 4d 5c 5d 6c 6d 7c 8c 9c Kd", "melds": {0: ["Qs Qh Qd"]}}


def test_option_no_discards_picked_up():
    """Encyclopedia: 'No discards may be picked up.' (pile_pickup 'none')"""
    g = hpos(**TAKE_POS, rules={"pile_pickup": "none"})
    assert not any(t.startswith("take") for t in legal_texts(g))
    assert_illegal(g, "take Ks Kh", "no-pickup")
    act(g, "draw")
    assert g.phase == "play"


def test_option_pick_up_the_whole_pile():
    """Encyclopedia: 'Still some variants allow you to pick up a discard, but only if you pick up the whole
    deck' (pile_pickup 'whole')."""
    g = hpos(**TAKE_POS, rules={"pile_pickup": "whole"})
    act(g, "take Ks Kh")
    assert g.pile == []
    assert sorted(g.hand_cards(0)) == sorted(cards("4s 4c 4d 5c 5d 6c 6d 7c 8c 9c"))


def test_option_whole_pile_only_from_the_foot():
    """Encyclopedia: 'If a player is currently in their foot, and is able to play the top discard, then they
    may pick up the entire discard pile instead of drawing two cards from the stock. This is the only method
    by which discards can be picked up.' (pile_pickup 'foot_whole')"""
    rules = {"pile_pickup": "foot_whole"}
    g = hpos(**TAKE_POS, rules=rules)
    assert not any(t.startswith("take") for t in legal_texts(g))
    assert_illegal(g, "take Ks Kh", "pickup-foot-only")
    g = hpos(**TAKE_POS, rules=rules, in_foot=[True, False, False, False])
    act(g, "take Ks Kh")
    assert g.pile == [] and g.hand_sizes[0] == 10


def test_option_whole_pile_when_able_to_play_the_top_discard():
    """Encyclopedia: 'If a player is currently in their foot, and is able to play the top discard, then they may
    pick up the entire discard pile instead of drawing two cards from the stock.' Playing the top discard onto
    the side's meld of its rank is enough: no two cards from the hand (pile_pickup 'foot_whole'; issue 17,
    defect 6)."""
    rules = {"pile_pickup": "foot_whole"}
    g = hpos(hands={0: "9c 8d 5s"}, pile="4c 5d 2s 6h 8s Kc", melds={0: ["Ks Kh Kd"]}, rules=rules,
             in_foot=[True, False, False, False])
    assert "take" in legal_texts(g)
    act(g, "take")
    assert g.pile == [] and g.melds[0][13].size == 4
    assert sorted(g.hand_cards(0)) == sorted(cards("9c 8d 5s 4c 5d 2s 6h 8s"))
    assert g.phase == "play"
    # a wild top card onto the pile of wild cards
    g = hpos(hands={0: "9c 8d 5s"}, pile="4c 2c", melds={0: ["JK JK 2h"]}, rules=rules,
             in_foot=[True, False, False, False])
    act(g, "take")
    assert g.melds[0][1].size == 4 and g.hand_sizes[0] == 4
    # not able to play it: no meld of its rank, or a meld with no room for it
    g = hpos(hands={0: "9c 8d 5s"}, pile="4c Qc", melds={0: ["Ks Kh Kd"]}, rules=rules,
             in_foot=[True, False, False, False])
    assert_illegal(g, "take", "take-needs-meld")
    g = hpos(hands={0: "9c 8d 5s"}, pile="4c 2c", melds={0: ["Ks Kh Kd 2d"]}, rules=rules,
             in_foot=[True, False, False, False])
    assert_illegal(g, "take", "take-needs-meld")
    # still only in the foot, and with the other pick-ups never with 'take' alone
    g = hpos(hands={0: "9c 8d 5s"}, pile="4c Kc", melds={0: ["Ks Kh Kd"]}, rules=rules)
    assert_illegal(g, "take", "pickup-foot-only")
    g = hpos(hands={0: "9c 8d 5s"}, pile="4c Kc", melds={0: ["Ks Kh Kd"]}, in_foot=[True, False, False, False])
    assert_illegal(g, "take", "take-cards")


def test_option_pick_up_with_a_natural_pair_only():
    """Encyclopedia: 'Some variants allow picking up discards with a natural pair, but a player may take at most
    seven cards from the discard pile.' (pile_pickup 'natural_pair'; issue 17, defect 12)"""
    rules = {"pile_pickup": "natural_pair"}
    g = hpos(hands={0: "Ks Kh 2c JK 4s"}, pile="4c 4d 5c 5d 6c 6d 7c 8c 9c Kd", melds={0: ["Qs Qh Qd"]},
             rules=rules)
    assert {t for t in legal_texts(g) if t.startswith("take")} == {"take Ks Kh"}
    assert_illegal(g, "take Ks 2c", "take-natural-pair")
    assert_illegal(g, "take Ks JK", "take-natural-pair")
    act(g, "take Ks Kh")
    assert len(g.pile) == 3 and g.hand_sizes[0] == 3 + 6  # the top card melded, six more taken
    g = hpos(hands={0: "2s 2h 4s"}, pile="4c 2c", melds={0: ["Qs Qh Qd"]}, rules=rules)
    assert_illegal(g, "take 2s 2h", "take-natural-pair")


def test_option_no_wild_canastas():
    """Encyclopedia: 'Some variants allow a wildcard canasta, and then the requirement can be at least one black
    canasta, at least one red canasta, and a wild card canasta.' Without it (wild_canastas false) melds of wild
    cards only are refused, and no pile of wild cards can be required (issue 17, defect 12)."""
    rules = {"wild_canastas": False, "wild_books": 0}
    g = hpos(hands={0: "2s 2h JK 4s 9c"}, phase="play", melds={0: ["Qs Qh Qd"]}, rules=rules)
    assert not any(t.startswith("meld") for t in legal_texts(g))
    err = assert_illegal(g, "meld 2s 2h JK", "meld-naturals")
    assert "wild_canastas" in err.message and "Bicycle" not in err.message
    g = hpos(hands={0: "2s 2h 4s"}, pile="4c 2c", melds={0: ["Qs Qh Qd"]}, rules=rules)
    assert not any(t.startswith("take") for t in legal_texts(g))
    assert_illegal(g, "take 2s 2h", "take-wild")
    with pytest.raises(OptionError, match="wild_books"):
        Game(V, 4, 0, {"wild_canastas": False})
    assert Game(V, 2, 0, {"wild_canastas": False}).variant.wild_books == 0  # singles need none
    g = hpos(hands={0: "2s 2h JK 4s 9c"}, phase="play", melds={0: ["Qs Qh Qd"]})
    act(g, "meld 2s 2h JK")  # Denexa's default: 'a meld that consists of all wild cards'


def test_option_red_threes_kept_in_hand():
    """Encyclopedia: 'Black threes do not count any points and are thus useful only as discards; however, you may
    not go out with one in your hand. The same is true of red threes; in fact these are even worse. Red threes
    count 300 to 500 points each against you, the amount depending on local variation, if you hold any in your
    hand (or foot) when a team goes out.' (red_threes_laid_out false; issue 17, defect 12)"""
    rules = {"red_threes_laid_out": False}
    g = hpos(hands={0: "Ks Kh 9c 3d 3d"}, stock="3h 8c", melds={0: ["Qs Qh Qd"]}, rules=rules)
    act(g, "draw")
    assert g.red_threes[0] == [] and sorted(g.hand_cards(0)) == sorted(cards("Ks Kh 9c 3d 3d 3h 8c"))
    assert "discard 3h" in legal_texts(g) or "discard 3d" in legal_texts(g)
    assert_illegal(g, "meld 3h 3d 3d", "red-three")
    act(g, "discard 3h")
    assert g.pile[-1] == parse_card("3h")
    # a red three on top blocks the pile as a black three does: it cannot be melded
    g = hpos(hands={0: "3d 3h 9c", 1: "5c"}, pile="Kd 3d", melds={0: ["Qs Qh Qd"]}, rules=rules)
    assert not any(t.startswith("take") for t in legal_texts(g))
    assert_illegal(g, "take 3d 3h", "pile-blocked")
    # held at the end: 300 against by default, red_three_held for 400 or 500
    for extra, points in (({}, 300), ({"red_three_held": 500}, 500)):
        g = hpos(players=2, hands={0: "Ks Kh Kd 9c", 1: "3h 3d"}, in_foot=[True, False], phase="play",
                 melds={0: ["Qs Qh Qd"]}, books={0: ["4s 4h 4d 4c 4s 4h 4d", "6s 6h 6d 6c 2s 6h 6d"]},
                 feet={1: "8c"}, rules={**rules, **extra})
        act(g, "meld Ks Kh Kd", "discard 9c")
        assert g.hand_results[-1]["sides"][1]["items"]["cards_in_hand"] == -(2 * points + 10)
    # the default (Denexa): laid out and replaced
    g = hpos(hands={0: "Ks Kh 9c"}, stock="3h 8c 6d", melds={0: ["Qs Qh Qd"]})
    act(g, "draw")
    assert g.red_threes[0] == cards("3h") and g.hand_sizes[0] == 5


def test_option_floating():
    """Encyclopedia: 'A player currently in their foot may choose to pass, or "float", rather than discard at
    the end of their turn (the rest of the turn plays as normal). This allows the player to play all but one
    card but still avoid going out.' (floating)"""
    pos = {"hands": {0: "Ks Kh Kd 9c", 1: "5c"}, "phase": "play", "melds": {0: ["Qs Qh Qd"]}}
    g = hpos(**pos, in_foot=[True, False, False, False])
    assert "end" not in legal_texts(g)
    assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")  # the books are not made: the 9c must be discarded
    g = hpos(**pos, in_foot=[True, False, False, False], rules={"floating": True})
    assert "end" in legal_texts(g)
    act(g, "meld Ks Kh Kd", "end")
    assert g.turn == 1 and g.hand_cards(0) == cards("9c") and g.pile == []  # no discard
    # only from the foot
    g = hpos(**pos, rules={"floating": True})
    assert "end" not in legal_texts(g)
    assert_illegal(g, "end", "end-timing")


def test_option_floating_after_permission_is_the_failed_go_out_penalty():
    """Denexa 'Penalties': 'Not being able to go out after having asked "May I go out?": -100 points' (a
    float after a yes does not go out)."""
    g = hpos(hands={0: "Ks Kh Kd 9c", 1: "5c"}, phase="play", melds={0: ["Qs Qh Qd"]},
             in_foot=[True, False, True, False], rules={"floating": True})
    act(g, "ask", "yes", "end")
    assert g.penalties[0] == [("failed_go_out", -100)]


def test_option_no_going_out_with_a_black_three():
    """Encyclopedia: 'Black threes do not count any points and are thus useful only as discards; however, you
    may not go out with one in your hand.' (black_three_out false: the last card may not be a black three)"""
    pos = {"hands": {0: "Ks Kh Kd 3c", 2: "8s 8h"}, "in_foot": [True, False, True, False], "phase": "play",
           "melds": {0: ["Qs Qh Qd"]}, "books": BOOKS, "permission": True, "asked": True}
    g = hpos(**pos, rules={"black_three_out": False})
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "black three" in err.message
    act(g, "discard 3c")
    assert g.turn == 1
    g = hpos(**{**pos, "hands": {0: "3c", 2: "8s 8h"}}, rules={"black_three_out": False})
    assert_illegal(g, "discard 3c", "cannot-go-out")
    g = hpos(**pos)  # the default (Denexa): a black three may be the last discard
    act(g, "meld Ks Kh Kd", "discard 3c")
    assert g.hand_results[-1]["went_out"] == 0


def test_option_red_threes_held_count_against():
    """Encyclopedia: 'Red threes count 300 to 500 points each against you, the amount depending on local
    variation, if you hold any in your hand (or foot) when a team goes out.' (red_three_held)"""
    g = hpos(hands={0: "Ks Kh Kd 9c", 1: "Ac", 3: "8s"}, in_foot=[True, False, True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books=BOOKS, red_threes={0: "3h"},
             feet={1: "3d", 3: "4c"}, permission=True, asked=True, rules={"red_three_held": 300})
    act(g, "meld Ks Kh Kd", "discard 9c")
    it = g.hand_results[-1]["sides"]
    assert it[0]["items"]["red_threes"] == 100  # laid out: red_three_value
    assert it[1]["items"]["cards_in_hand"] == -(20 + 10 + 300 + 5)


@pytest.mark.parametrize(("clean", "dirty", "wild", "books", "ok"), [
    (2, 3, 0, ["4s 4h 4d 4c 4s 4h 4d", "5s 5h 5d 5c 5s 5h 5d", "6s 6h 6d 6c 2s 6h 6d", "7s 7h 7d 7c 2s 7h 7d",
               "8s 8h 8d 8c 2d 8h 8d"], True),
    (2, 3, 0, ["4s 4h 4d 4c 4s 4h 4d", "5s 5h 5d 5c 5s 5h 5d", "6s 6h 6d 6c 2s 6h 6d", "7s 7h 7d 7c 2s 7h 7d",
               "JK JK 2h 2d 2c JK JK"], False),
    (3, 2, 0, ["4s 4h 4d 4c 4s 4h 4d", "5s 5h 5d 5c 5s 5h 5d", "6s 6h 6d 6c 2s 6h 6d", "7s 7h 7d 7c 2s 7h 7d",
               "8s 8h 8d 8c 8s 8h 8d"], True),
    (1, 1, 1, ["4s 4h 4d 4c 4s 4h 4d", "6s 6h 6d 6c 2s 6h 6d", "JK JK 2h 2d 2c JK JK"], True),
    (1, 1, 1, ["4s 4h 4d 4c 4s 4h 4d", "5s 5h 5d 5c 5s 5h 5d", "JK JK 2h 2d 2c JK JK"], False),
])
def test_red_and_black_canastas_to_go_out(clean, dirty, wild, books, ok):
    """Encyclopedia: 'The number of canastas required to go out varies. It can be at least two red and at least
    three black, or at least two black and at least three red canastas. Some variants allow a wildcard canasta,
    and then the requirement can be at least one black canasta, at least one red canasta, and a wild card
    canasta.' With 'In many variations, there are "dirty" canastas (represented by a black card, dirty meaning
    having one or more wild card) and "clean" (represented by a red card ...)': red is clean_books, black is
    dirty_books."""
    g = hpos(hands={0: "Ks Kh Kd 9c", 2: "9s 9h"}, in_foot=[True, False, True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books={0: books}, permission=True, asked=True,
             rules={"clean_books": clean, "dirty_books": dirty, "wild_books": wild})
    if ok:
        act(g, "meld Ks Kh Kd", "discard 9c")
        assert g.hand_results[-1]["went_out"] == 0
    else:
        assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")


def test_singles_one_red_and_one_black_canasta():
    """Encyclopedia: 'When playing a singles game (that is, without partners), the requirement is one red
    canasta and one black canasta.'"""
    rules = {"clean_books": 1, "dirty_books": 1, "wild_books": 0}
    g = hpos(players=2, hands={0: "Ks Kh Kd 9c", 1: "8s"}, in_foot=[True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books={0: ["4s 4h 4d 4c 4s 4h 4d", "6s 6h 6d 6c 2s 6h 6d"]}, rules=rules)
    act(g, "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0


def test_singles_requirement_is_the_default_without_partners():
    """Encyclopedia: 'When playing a singles game (that is, without partners), the requirement is one red
    canasta and one black canasta.' With 2 or 3 players alone it is the default, not Denexa's partnership
    requirement of two clean, two dirty and one wild pile (issue 17, defect 5)."""
    for players in (2, 3):
        v = Game(V, players, 0).variant
        assert (v.clean_books, v.dirty_books, v.wild_books) == (1, 1, 0)
    assert (Game(V, 4, 0).variant.clean_books, Game(V, 4, 0).variant.wild_books) == (2, 1)
    g = hpos(players=2, hands={0: "Ks Kh Kd 9c", 1: "8s"}, in_foot=[True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books={0: ["4s 4h 4d 4c 4s 4h 4d", "6s 6h 6d 6c 2s 6h 6d"]})
    act(g, "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0
    g = hpos(players=2, hands={0: "Ks Kh Kd 9c", 1: "8s"}, in_foot=[True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books={0: ["4s 4h 4d 4c 4s 4h 4d"]})
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "singles game" in err.message
    # Denexa's requirement stays a choice for a game without partners
    g = hpos(players=2, hands={0: "Ks Kh Kd 9c", 1: "8s"}, in_foot=[True, False], phase="play",
             melds={0: ["Qs Qh Qd"]}, books={0: ["4s 4h 4d 4c 4s 4h 4d", "6s 6h 6d 6c 2s 6h 6d"]},
             rules={"clean_books": 2, "dirty_books": 2, "wild_books": 1})
    assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")


def test_option_unlimited_black_canastas():
    """Encyclopedia: 'A red canasta can contain no more than 7 cards, while a black canasta can grow to
    unlimited size as long as the number of natural cards exceeds the number of wild cards. Wild cards may be
    added to black canastas even after 7 cards have been established, so long as the number of natural cards
    exceeds the number of wild cards.' (black_unlimited)"""
    rules = {"black_unlimited": True, "clean_books": 1, "dirty_books": 1, "wild_books": 0}
    g = hpos(hands={0: "Ks Kh 2c 2d 2h 2s JK Qc 4s 5s 6s 7s 8s"}, phase="play",
             melds={0: ["Ks Kd Kc Kh 2s", "Qs Qh Qd Qc Qs Qh"]}, rules=rules)
    act(g, "add Ks", "add Kh")
    assert g.melds[0][13].size == 7 and g.books[0] == []  # a black canasta stays open
    assert g.observation(0)["books_ready"][0] is False
    act(g, "add Qc")  # a red canasta closes at seven
    assert 12 not in g.melds[0] and len(g.books[0]) == 1
    assert g.observation(0)["books_ready"][0] is True  # the open black canasta counts
    act(g, "add K 2c", "add K 2d", "add K 2h", "add K 2s")
    assert g.melds[0][13].size == 11 and g.melds[0][13].wilds == 5
    assert_illegal(g, "add K JK", "wild-limit")  # six wild cards to six natural ones
    # without the option a pile closes at seven
    g = hpos(hands={0: "Ks Kh 2c 4s"}, phase="play", melds={0: ["Ks Kd Kc Kh 2s"]})
    act(g, "add Ks", "add Kh")
    assert 13 not in g.melds[0] and len(g.books[0]) == 1


def test_option_unlimited_black_canasta_scores_as_a_dirty_pile():
    """Encyclopedia (black_unlimited): the black canasta of more than seven cards is still one black
    (dirty) canasta: Denexa 'Dirty piles: 300 points each', its cards at their values."""
    rules = {"black_unlimited": True, "clean_books": 0, "dirty_books": 1, "wild_books": 0}
    g = hpos(hands={0: "Ks 9c", 1: "5c"}, in_foot=[True, False, True, False], phase="play",
             melds={0: ["Ks Kd Kc Kh 2s Kh Kd 2c"]}, permission=True, asked=True, rules=rules)
    act(g, "add Ks", "discard 9c")
    it = g.hand_results[-1]["sides"][0]["items"]
    assert it["mixed_canastas"] == 300 and it["melded_cards"] == 7 * 10 + 2 * 20


def test_option_ask_from_the_hand():
    """Encyclopedia: 'some versions require asking for and receiving your partner's permission before going
    out' (ask_in_hand: the question may come before the foot, to play out the hand and the foot in one turn)."""
    pos = {"hands": {0: "Ks Kh Kd", 2: "8s 8h"}, "feet": {0: "5s 5h 5d"}, "in_foot": [False, False, True, False],
           "phase": "play", "melds": {0: ["Qs Qh Qd"]}, "books": BOOKS}
    g = hpos(**pos)
    assert "ask" not in legal_texts(g)
    g = hpos(**pos, rules={"ask_in_hand": True})
    act(g, "ask", "yes", "meld Ks Kh Kd")
    assert g.in_foot[0] and g.hand_sizes[0] == 3
    act(g, "meld 5s 5h 5d")
    assert g.hand_results[-1]["went_out"] == 0


def test_option_self_deal_exact_22_bonus():
    """Denexa: 'Each player takes a small portion of one of the stocks and deals two piles of eleven cards face
    down in front of them. If a player managed to pull exactly 22 cards from the stock, they immediately score a
    100-point bonus. Otherwise, any excess cards are returned to the stock.' (self_deal: the pull is 22 + e,
    e in -2..2 with weights 1, 2, 3, 2, 1 from the deal's seeded chance)"""
    seen = set()
    for seed in range(6):
        g = Game(V, 4, seed, {"self_deal": True})
        plain = Game(V, 4, seed)
        pulls = g.deals[0]["pulls"]
        assert all(20 <= p <= 24 for p in pulls)
        seen.update(pulls)
        assert g.deals[0]["hands"] == plain.deals[0]["hands"] and g.feet == plain.feet  # the same cards
        assert Game(V, 4, seed, {"self_deal": True}).deals[0]["pulls"] == pulls  # seeded
        for side in range(2):
            exact = sum(1 for s in (side, side + 2) if pulls[s] == 22)
            assert g.penalties[side] == [("exact_deal", 100)] * exact
        rng = random.Random(seed)
        while not g.hand_results:
            g.apply(rng.choice(g.legal_actions()))
        assert g.hand_results[0]["pulls"] == pulls
        for side in range(2):
            exact = sum(1 for s in (side, side + 2) if pulls[s] == 22)
            assert g.hand_results[0]["sides"][side]["items"].get("exact_deal", 0) == 100 * exact
    assert 22 in seen and len(seen) > 2
    assert "pulls" not in Game(V, 4, 0).deals[0]


def test_option_hand_with_the_lowest_bottom_card():
    """Encyclopedia: 'Each player is dealt a hand of 11 and a second hand of 13, usually referred to as the
    "hand" and the "foot", respectively. The hand with the lowest bottom card is played first.'
    (hand_choice 'lowest_bottom': the bottom card is each pile's first card dealt)"""
    swapped = kept = 0
    for seed in range(4):
        rules = {"hand_size": 11, "foot_size": 13}
        plain = Game(V, 4, seed, rules)
        g = Game(V, 4, seed, {**rules, "hand_choice": "lowest_bottom"})
        for seat in range(4):
            hand, foot = plain.deals[0]["hands"][seat], plain.feet[seat]
            if foot[0] >> 2 < hand[0] >> 2:
                assert g.deals[0]["hands"][seat] == foot and g.feet[seat] == hand
                swapped += 1
            else:
                assert g.deals[0]["hands"][seat] == hand and g.feet[seat] == foot
                kept += 1
        assert g.card_count() == len(g.variant.deck())
    assert swapped and kept


def test_three_or_four_teams_of_two():
    """Encyclopedia: 'played by teams of two players (usually two teams, but it also works with three or four
    teams). The number of decks used is typically one more than the number of players'."""
    for players, sides in ((6, 3), (8, 4)):
        g = Game(V, players, 0)
        v = g.variant
        assert v.num_sides == sides and len(v.deck()) == (players + 1) * 54
        assert [v.side_of(s) for s in range(players)] == [s % sides for s in range(players)]
        assert [v.partner_of(s) for s in range(players)] == [(s + sides) % players for s in range(players)]
        assert len(g.scores) == sides and len(g.books) == sides
    # whole hands with a record round trip; the observation vector has a slot per seat (obs_size(V, 6))
    from canasta.encoding import encode_observation, obs_size
    from canasta.record import export_record, replay_record

    g = Game(V, 6, 3, {"hands_per_game": 1})
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert replay_record(export_record(g)).to_json() == g.to_json()
    assert encode_observation(g.observation(0)).shape == (obs_size(V, 6),) != (obs_size(V),)


NON_DEFAULT = [
    {"pile_pickup": "none", "floating": True},
    {"pile_pickup": "whole", "black_three_out": False, "red_three_held": 500},
    {"pile_pickup": "foot_whole", "ask_in_hand": True, "permission": "optional"},
    {"black_unlimited": True, "clean_books": 2, "dirty_books": 3, "wild_books": 0},
    {"self_deal": True, "hand_choice": "lowest_bottom", "hand_size": 11, "foot_size": 13, "floating": True},
    {"hand_passing": True, "self_deal": True, "foot_size": 13, "floating": True},
]


@pytest.mark.parametrize("rules", NON_DEFAULT)
@pytest.mark.parametrize("players", [4, 6])
def test_basic_and_random_players_under_the_options(rules, players):
    """The basic player and random play stay legal under the table rules (every action checked)."""
    for seed in range(2):
        g = Game(V, players, seed, {**rules, "hands_per_game": 1})
        rng = random.Random(seed)
        basic = BasicPlayer(seed)
        while not g.is_over:
            legal = g.legal_actions()
            assert legal
            a = basic.choose(g.observation(g.actor), legal) if seed == 0 else rng.choice(legal)
            g.apply(a)
            assert g.card_count() == len(g.variant.deck())
        h = Game.from_json(g.to_json())
        assert h.to_json() == g.to_json()


def test_soak_under_the_options():
    """A short soak (every invariant at every step) under the non-default table rules."""
    from canasta.soak import run_soak

    for rules in NON_DEFAULT:
        result = run_soak(variant=V, hands=2, seed=0, rules=rules)
        assert result["failures"] == [] and result["hands"] >= 2


def test_scorekeeper_real_card_penalties_and_the_exact_deal_bonus():
    """Denexa 'Penalties': 'Attempting to go out anyway when a partner says no: -100 points.' / 'Attempting to
    draw from the discard pile when unable to use the upcard: -50 points.' (the engine refuses both actions;
    with real cards the scorekeeper takes them as penalties) and 'If a player managed to pull exactly 22 cards
    from the stock, they immediately score a 100-point bonus' (a bonus)."""
    from pathlib import Path

    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import render_sheet, score_input

    data = json.loads((Path(__file__).parent / "data" / "hand-and-foot-score.json").read_text())
    before = [t["total"] for t in score_input(data)["teams"]]
    data["teams"][0]["bonuses"] = {"exact_deal": 100}
    data["teams"][1]["penalties"] = {"went_out_after_no": -100, "upcard_unusable": -50}
    out = score_input(data)
    assert [t["total"] for t in out["teams"]] == [before[0] + 100, before[1] - 150]
    assert out["teams"][1]["items"]["went_out_after_no"] == -100
    assert out["teams"][1]["items"]["upcard_unusable"] == -50
    assert out["teams"][0]["items"]["exact_deal"] == 100
    sheet = render_sheet(data, out)
    assert "Went out after no" in sheet and "Exact deal" in sheet
    data["teams"][1]["penalties"] = {"upcard_unusable": 50}  # a penalty is negative
    with pytest.raises(ScoreInputError):
        score_input(data)


def test_option_penalty_for_going_out_with_the_partner_in_the_hand():
    """Encyclopedia: 'others allow you to go out even if your partner is still in their hand (though points in
    their foot still count against you, possibly with an additional 100 point penalty)'
    (partner_in_foot false, partner_in_hand_penalty 100)."""
    rules = {"partner_in_foot": False, "partner_in_hand_penalty": 100}
    pos = {"hands": {0: "Ks Kh Kd 9c", 2: "8s 8h"}, "phase": "play", "melds": {0: ["Qs Qh Qd"]},
           "books": BOOKS, "permission": True, "asked": True}
    g = hpos(**pos, in_foot=[True, False, False, False], rules=rules)
    act(g, "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["sides"][0]["items"]["partner_in_hand"] == -100
    g = hpos(**pos, in_foot=[True, False, True, False], rules=rules)
    act(g, "meld Ks Kh Kd", "discard 9c")
    assert "partner_in_hand" not in g.hand_results[-1]["sides"][0]["items"]


def test_scorekeeper_takes_the_table_rules():
    """The scorekeeper reads the same table rules: Encyclopedia 'a black canasta can grow to unlimited size as
    long as the number of natural cards exceeds the number of wild cards' (black_unlimited) and 'Red threes
    count 300 to 500 points each against you ... if you hold any in your hand (or foot)' (red_three_held)."""
    from pathlib import Path

    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import score_input

    data = json.loads((Path(__file__).parent / "data" / "hand-and-foot-score.json").read_text())
    data["teams"][0]["melds"][3] = ["7h", "7d", "7s", "7c", "JK", "7d", "7s", "2c", "7h"]
    with pytest.raises(ScoreInputError, match="more than seven cards"):
        score_input(data)
    data["rules"] = {"black_unlimited": True, "red_three_held": 500}
    out = score_input(data)
    assert out["teams"][0]["items"]["mixed_canastas"] == 600  # the nine-card black canasta is one dirty pile
    # They hold Ah 3s + JK 6c 3h 8c 8d 9s 10s Jc Qc Kc Ac 4s 5s: 280 with the 3h at 100, 680 at 500
    assert out["teams"][1]["items"]["cards_in_hand"] == -680
    assert out["teams"][0]["items"]["red_threes"] == 200  # laid out: still red_three_value


def test_scorekeeper_three_teams_of_two():
    """Encyclopedia: 'played by teams of two players (usually two teams, but it also works with three or four
    teams)': the scorekeeper takes 3 or 4 entries of 2 hands each as 6 or 8 players in partnerships."""
    from pathlib import Path

    from canasta.errors import CanastaError
    from canasta.scorekeeper import render_sheet, score_input

    data = json.loads((Path(__file__).parent / "data" / "hand-and-foot-score.json").read_text())
    two = [t["total"] for t in score_input(data)["teams"]]
    data["teams"].append({"name": "Third", "melds": [["Jh", "Jd", "Js"]], "hands": [["5c"], ["9d", "9c"]]})
    out = score_input(data | {"game": {"scores": [1200, 900, 1000], "hand": 2}})
    assert [t["total"] for t in out["teams"]] == [*two, 30 - 5 - 20]
    assert out["game"]["scores"] == [1200 + two[0], 900 + two[1], 1000 + 5]
    assert render_sheet(data, out).splitlines()[0] == "Hand and Foot: score of the hand, 6 players (3 partnerships)"
    data["players"] = 6
    score_input(data | {"game": {"scores": [0, 0, 0], "hand": 1}})
    with pytest.raises(CanastaError):
        score_input(data | {"variant": "classic"})  # Classic has no 6-player game


# ---------------------------------------------------------------- teams of three (option team_size)
THREES = {"team_size": 3}
#: seat 0 in the foot, able to go out with 9c left to discard; its teammates are seats 2 and 4
THREES_OUT = {"players": 6, "rules": THREES, "hands": {0: "Ks Kh Kd 9c", 2: "8s 8h", 4: "7c 7d"}, "phase": "play",
              "melds": {0: ["Qs Qh Qd"]}, "books": BOOKS}


def test_two_teams_of_three_sides_and_partners():
    """The Hand and Foot issue: 'Options from the encyclopedia's variations: ... 2-4 players and teams of three';
    Encyclopedia: 'The number of decks used is typically one more than the number of players'. Six players in two
    teams of three sit alternately, as partnerships do (seats 0, 2, 4 against 1, 3, 5)."""
    g = Game(V, 6, 0, THREES)
    v = g.variant
    assert v.num_sides == 2 and len(g.scores) == 2 and len(g.books) == 2 and len(g.opened) == 2
    assert [v.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [v.partner_of(s) for s in range(6)] == [2, 3, 4, 5, 0, 1]  # the next teammate in turn order
    assert [v.teammates_of(s) for s in range(6)] == [(2, 4), (3, 5), (4, 0), (5, 1), (0, 2), (1, 3)]
    assert len(v.deck()) == 7 * 54
    obs = g.observation(3)
    assert obs["side"] == 1 and obs["partner"] == 5 and len(obs["books_ready"]) == 2
    # the default team_size 2 is unchanged: 6 players are three teams of two, 4 players two
    assert Game(V, 6, 0).variant.num_sides == 3 and Game(V, 6, 0).variant.teammates_of(0) == (3,)
    assert Game(V, 4, 0).variant.teammates_of(1) == (3,)
    assert Game(V, 3, 0).variant.teammates_of(0) == ()
    assert Game("classic", 4, 0).variant.teammates_of(0) == (2,)


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_teams_of_three_need_six_players(players):
    """'2-4 players and teams of three': two teams of three are six players; team_size 3 with any other number of
    players is refused (OptionError), team_size 2 keeps that count's seating."""
    with pytest.raises(OptionError, match="needs 6 players"):
        Game(V, players, 0, THREES)
    assert Game(V, players, 0, {"team_size": "2"}).variant.num_sides == (players if players < 4 else players // 2)
    with pytest.raises(OptionError, match="team_size must be one of 2, 3"):
        Game(V, 6, 0, {"team_size": 4})
    with pytest.raises(OptionError, match="no table rule 'team_size'"):
        Game("triple-play", 4, 0, THREES)


def test_teams_of_three_going_out_needs_every_teammate_in_the_foot():
    """Encyclopedia: 'A team may not go out until each member has played one card from the second hand'; Denexa:
    'both players must have played at least part of one turn with their foot piles' (with three: all three)."""
    for in_foot, waiting in (([True, False, True, False, False, False], "seat 4"),
                             ([True, False, False, False, True, False], "seat 2"),
                             ([True, False, False, False, False, False], "seat 2 and seat 4")):
        g = hpos(**THREES_OUT, in_foot=in_foot)
        act(g, "ask", "yes")
        err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
        assert "all 3 partners" in err.message and f"({waiting} not yet" in err.message
    g = hpos(**THREES_OUT, in_foot=[True, False, True, False, True, False])
    act(g, "ask", "yes", "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0 and g.hand_no == 2
    # the relaxation (partner_in_foot false) lets the side go out with both teammates in the hand
    g = hpos(**{**THREES_OUT, "rules": {**THREES, "partner_in_foot": False}}, in_foot=[True] + [False] * 5)
    act(g, "ask", "yes", "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0


def test_teams_of_three_ask_the_next_teammate():
    """Denexa: 'the player wishing to go out must have received permission to go out from their partner' and
    'The answer given is binding': with three partners the question goes to one of them, the next teammate in
    turn order (on the player's left), and that answer binds the side."""
    g = hpos(**THREES_OUT, in_foot=[True, False, True, False, True, False])
    act(g, "ask")
    assert g.phase == "answer" and g.actor == 2 and g.observation(4)["actor"] == 2
    act(g, "no")
    err = assert_illegal(g, "meld Ks Kh Kd", "cannot-go-out")
    assert "said no" in err.message
    # seat 5 asks seat 1, round the table; a yes lets seat 5 go out
    g = hpos(players=6, rules=THREES, hands={5: "Ks Kh Kd 9c"}, phase="play", turn=5, melds={1: ["Qs Qh Qd"]},
             books={1: BOOKS[0]}, in_foot=[False, True, False, True, False, True])
    act(g, "ask")
    assert g.actor == 1
    act(g, "yes", "meld Ks Kh Kd", "discard 9c")
    assert g.hand_results[-1]["went_out"] == 5


def test_teams_of_three_partner_in_hand_penalty_for_each_teammate():
    """Encyclopedia: 'others allow you to go out even if your partner is still in their hand (though points in
    their foot still count against you, possibly with an additional 100 point penalty)': with three, the penalty
    for each teammate still in the hand."""
    rules = {**THREES, "partner_in_foot": False, "partner_in_hand_penalty": 100}
    pos = {**THREES_OUT, "hands": {0: "Ks Kh Kd 9c"}, "rules": rules, "permission": True, "asked": True}
    for in_foot, penalty in (([True, False, False, False, False, False], -200),
                             ([True, False, False, False, True, False], -100),
                             ([True, False, True, False, True, False], None)):
        g = hpos(**pos, in_foot=in_foot)
        act(g, "meld Ks Kh Kd", "discard 9c")
        assert g.hand_results[-1]["sides"][0]["items"].get("partner_in_hand") == penalty


def test_teams_of_three_whole_games_of_basic_and_random_players():
    """'The game ends after four hands have been played. The partnership with the highest score at that point is
    the winner': seeded games of six basic (and random) players in two teams of three end, every player who goes
    out has both teammates in the foot, the basic player asks 'May I go out?' only then; the games survive the
    JSON round trip and replay from their records."""
    from canasta.record import export_record, replay_record

    g = Game(V, 6, 0, THREES)
    basic = BasicPlayer(0)
    asks = 0
    while not g.is_over:
        legal = g.legal_actions()
        a = basic.choose(g.observation(g.actor), legal)
        mates_in_foot = all(g.in_foot[m] for m in g.variant.teammates_of(g.turn))
        results = len(g.hand_results)
        if a.kind == "ask":
            asks += 1
            assert mates_in_foot, "the basic player asked with a teammate still in the hand"
        g.apply(a)
        if len(g.hand_results) > results and g.hand_results[-1]["went_out"] is not None:
            assert mates_in_foot
    assert len(g.hand_results) == 4 and asks
    assert any(r["went_out"] is not None for r in g.hand_results)
    assert g.card_count() == len(g.variant.deck())
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    assert replay_record(export_record(g)).to_json() == g.to_json()
    g = Game(V, 6, 1, {**THREES, "hands_per_game": 1})
    rng = random.Random(1)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        assert g.card_count() == len(g.variant.deck())
    assert replay_record(export_record(g)).to_json() == g.to_json()


def test_teams_of_three_soak_and_terminal_game(monkeypatch):
    """A short soak (every invariant at every step) of two teams of three, and `canasta play --players 6 --rule
    team_size=3` through the prompt (the partner asked and the other teammate are labelled)."""
    from canasta.soak import run_soak

    result = run_soak(variant=V, players=6, hands=2, seed=0, rules=THREES)
    assert result["failures"] == [] and result["hands"] >= 2

    def labels(game: Any) -> None:
        assert game.who(2) == "seat 2 (partner)" and game.who(4) == "seat 4 (teammate)" and game.who(1) == "seat 1"

    text = play_terminal_by_hints(monkeypatch, 6, {**THREES, "hands_per_game": 1}, check=labels)
    assert "You & seat 2 & seat 4" in text
    assert "End of hand 1" in text and "Game over" in text
    assert "Not allowed" not in text and "Traceback" not in text


def test_scorekeeper_two_teams_of_three():
    """'2-4 players and teams of three' with Denexa's 'Each team scores the value of the cards it has melded, and
    the value of cards held in hand is deducted': two entries listing three hands each are six players in two
    teams of three (the table rule team_size 3), each third hand counting against its team."""
    from pathlib import Path

    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import render_sheet, score_input

    path = Path(__file__).parent / "data" / "hand-and-foot-score.json"
    data = json.loads(path.read_text())
    two = [t["total"] for t in score_input(data)["teams"]]
    data["teams"][0]["hands"].append(["5c"])
    data["teams"][1]["hands"].append(["9d", "9c"])
    with pytest.raises(ScoreInputError, match='"team_size": 3'):
        score_input(data)  # without the table rule 6 players are three teams of two
    data["rules"] = THREES
    out = score_input(data | {"players": 6})
    assert [t["total"] for t in out["teams"]] == [two[0] - 5, two[1] - 20]
    assert out["game"]["scores"] == [1200 + two[0] - 5, 900 + two[1] - 20]
    assert render_sheet(data, out).splitlines()[0] == \
        "Hand and Foot: score of the hand, 6 players (2 partnerships of three)"
    with pytest.raises(ScoreInputError, match="'players' says 4"):
        score_input(data | {"players": 4})
    three_pairs = json.loads(path.read_text())
    three_pairs["teams"].append({"name": "Third", "melds": [["Jh", "Jd", "Js"]], "hands": [["5c"], ["9d", "9c"]]})
    with pytest.raises(ScoreInputError, match="2 teams listing 3 hands each"):
        score_input(three_pairs | {"rules": THREES})


# ---------------------------------------------------------------- the hand-passing deal (option hand_passing)
PASSING = {"hand_passing": True}


def passing_game(seed: int = 0, players: int = 4, **rules: Any) -> Game:
    return Game(V, players, seed, {**PASSING, **rules})


def keep_all(g: Game, choices: Sequence[int]) -> Game:
    """Each seat in turn from the dealer's left keeps pile ``choices[seat]``."""
    while g.phase == "pass":
        act(g, f"keep {choices[g.actor]}")
    return g


def test_option_hand_passing_phase_and_order():
    """Encyclopedia: 'After the deal (but before looking at the cards), each player turns up the top card of each
    hand. He then selects one hand to keep as his "foot", and passes the other to the player on his left.'
    A phase 'pass' before the first turn; the choices go in turn from the dealer's left; nobody holds a card."""
    for players in (2, 3, 4):
        g = passing_game(1, players, hands_per_game=2)
        assert g.phase == "pass" and g.actor == (g.dealer + 1) % players
        assert not any(g.hand_sizes) and not any(len(f) for f in g.feet)
        obs = g.observation(0)
        assert obs["hand"] == [] and obs["hand_sizes"] == [0] * players and obs["foot_sizes"] == [0] * players
        order = []
        while g.phase == "pass":
            assert legal_texts(g) == {"keep 1", "keep 2"}
            order.append(g.actor)
            act(g, "keep 1")
        assert order == [(g.dealer + 1 + i) % players for i in range(players)]
        assert g.phase == "draw" and g.turn == (g.dealer + 1) % players
        assert all(len(f) == 11 for f in g.feet) and g.card_count() == len(g.variant.deck())
        rng = random.Random(players)
        while g.hand_no == 1:  # the next hand's deal passes again, from the new dealer's left
            g.apply(rng.choice(g.legal_actions()))
        assert g.phase == "pass" and g.dealer == 0 and g.actor == 1 % players
    assert Game(V, 4, 1).phase == "draw"  # without the option the first turn starts at once


def test_option_hand_passing_direction():
    """Encyclopedia: '... passes the other to the player on his left. Each player then picks up the hand passed to
    him and plays it as the "hand".' Left is the next seat in turn order; the kept pile is the foot. The cards are
    those of the plain deal (pile 1: the hand as dealt, pile 2: the foot), so no new chance is drawn."""
    for seed, choices in ((0, [1, 2, 2, 1]), (1, [2, 2, 2, 2]), (2, [1, 1, 2, 1])):
        plain = Game(V, 4, seed)
        piles = [[plain.deals[0]["hands"][s], plain.feet[s]] for s in range(4)]
        g = passing_game(seed)
        assert g.passing == piles
        keep_all(g, choices)
        for s in range(4):
            left = (s + 1) % 4
            assert g.feet[s] == piles[s][choices[s] - 1]
            assert g.deals[0]["hands"][left] == piles[s][2 - choices[s]]
        assert g.deals[0]["kept"] == choices
        # the same stock and upcard before the red threes are replaced (from the other hands' red threes)
        drawn = [sum(len(r) for r in x.deals[0]["replacements"]) for x in (g, plain)]
        assert g.pile == plain.pile and len(g.stock) + drawn[0] == len(plain.stock) + drawn[1]
        assert plain.stock[:len(g.stock)] == g.stock or g.stock[:len(plain.stock)] == plain.stock
        assert g.card_count() == len(g.variant.deck())


def test_option_hand_passing_choices_hidden_until_all_chose():
    """Encyclopedia: 'each player turns up the top card of each hand. He then selects one hand to keep as his
    "foot"' -- at the table the choices are made together: no seat's observation shows another seat's choice
    (nor depends on it) until every seat has chosen; then all are public."""
    for first in (1, 2):
        g = passing_game(3)
        act(g, f"keep {first}")
        assert g.observation(0)["kept"] == [first, None, None, None]
        assert g.observation(1)["kept"] == [None, None, None, None]
    a, b = passing_game(3), passing_game(3)
    act(a, "keep 1", "keep 2", "keep 1")
    act(b, "keep 2", "keep 1", "keep 1")
    assert a.observation(3) == b.observation(3)  # seat 3, still to choose, cannot tell
    assert a.observation(2)["kept"] == [None, None, 1, None]
    keep_all(a, [1, 2, 1, 2])
    for s in range(4):
        assert a.observation(s)["kept"] == [1, 2, 1, 2]


def test_option_hand_passing_turned_up_cards_public_and_nothing_else():
    """Encyclopedia: 'each player turns up the top card of each hand': every seat sees the top card of every pile
    (the last card dealt to it, as piles are dealt face down), and nothing else of them; afterwards the turned-up
    card of each foot stays in sight (foot_shown) and that of each passed hand is known to be in its new hand."""
    g = passing_game(4)
    tops = [[format_card(p[-1]) for p in piles] for piles in g.passing]
    for s in range(4):
        assert g.observation(s)["pass_shown"] == tops
    # the hidden cards of the piles and the stock dealt anew: no seat's observation changes
    d = g.to_dict()
    pool = [c for piles in d["passing"] for p in piles for c in p[:-1]] + d["stock"]
    random.Random(4).shuffle(pool)
    for piles in d["passing"]:
        for p in piles:
            n = len(p) - 1
            p[:n], pool = pool[:n], pool[n:]
    d["stock"] = pool
    other = Game.from_dict(d)
    assert other.card_count() == g.card_count()
    for s in range(4):
        assert other.observation(s) == g.observation(s)
    keep_all(g, [2, 1, 1, 2])
    obs = g.observation(1)
    assert obs["pass_shown"] == [[], [], [], []]
    assert obs["foot_shown"] == [format_card(f[-1]) for f in g.feet]
    assert [obs["foot_shown"][s] == tops[s][k - 1] for s, k in enumerate([2, 1, 1, 2])] == [True] * 4
    for s, k in enumerate([2, 1, 1, 2]):
        top = parse_card(tops[s][2 - k])
        if top not in (13, 14):  # a red three is laid out at once
            assert tops[s][2 - k] in obs["known_hands"][(s + 1) % 4]


def test_option_hand_passing_foot_shown_until_picked_up():
    """The foot's turned-up card is public while the foot lies face down; picked up, it is a known card of the
    hand ('any red 3s encountered throughout the game are laid down' if it is one)."""
    g = keep_all(passing_game(5), [1, 1, 1, 1])
    seat = g.turn
    top = g.foot_shown[seat]
    assert top is not None and g.feet[seat][-1] == top
    g._pick_up_foot(seat)
    assert g.foot_shown[seat] is None and g.observation(0)["foot_shown"][seat] is None
    if top not in (13, 14):
        assert top in g.known[seat]
    assert g.card_count() == len(g.variant.deck())


def test_option_hand_passing_red_threes_after_the_passing():
    """Denexa: 'any red 3s the players hold in their hand are placed in the partnership's melding area and new cards
    are drawn to replace them' -- with the hand-passing deal, once the passed hands are picked up (none is laid
    out from a pile during the phase 'pass'); a foot's red threes wait for the foot."""
    found = 0
    for seed in range(12):
        g = passing_game(seed)
        assert g.red_threes == [[], []] and not any(any(r) for r in g.deals[0]["replacements"])
        keep_all(g, [1, 2, 1, 2])
        deal = g.deals[0]
        for s in range(4):
            reds = [c for c in deal["hands"][s] if c in (13, 14)]
            assert g.hands[s][13] == g.hands[s][14] == 0
            if reds:
                found += 1
                assert len(deal["replacements"][s]) >= len(reds)
                for c in reds:
                    assert c in g.red_threes[s % 2]
        laid = sum(len(r) for r in g.red_threes)
        assert laid == sum(1 for h in deal["hands"] for c in h if c in (13, 14)) + \
            sum(1 for r in deal["replacements"] for c in r if c in (13, 14))
        assert g.card_count() == len(g.variant.deck())
    assert found


def test_option_hand_passing_illegal_actions():
    """Encyclopedia: 'He then selects one hand to keep as his "foot"': in the phase 'pass' only 'keep 1' or
    'keep 2'; a keep at any other time is refused (each refusal names its rule and leaves the game as it was)."""
    from canasta.engine.actions import Action

    g = passing_game(6)
    for move, rule in (("draw", "pass-pending"), ("discard 4s", "pass-pending"), ("ask", "pass-pending")):
        assert_illegal(g, move, rule)
    assert_illegal(g, Action("keep", (), 3), "keep-pile")
    assert_illegal(g, Action("keep", (parse_card("4s"),), 1), "keep-pile")
    keep_all(g, [1, 1, 1, 1])
    assert_illegal(g, "keep 1", "keep-timing")
    assert_illegal(Game(V, 4, 6), "keep 2", "keep-timing")
    assert_illegal(Game("classic", 4, 6), "keep 2", "keep-timing")


def test_option_hand_passing_is_refused_where_it_does_not_fit():
    """The hand-passing deal decides which pile is the hand, as hand_choice=lowest_bottom does ('The hand with the
    lowest bottom card is played first'): the two are refused together. Triple Play deals three piles (hand, knee,
    foot), for which the Encyclopedia's sentence gives no rule: refused there."""
    with pytest.raises(OptionError, match="hand_passing"):
        Game(V, 4, 0, {**PASSING, "hand_choice": "lowest_bottom"})
    with pytest.raises(OptionError, match="no hand-passing deal"):
        Game("triple-play", 4, 0, PASSING)


def test_option_hand_passing_copy_json_and_records():
    """The phase 'pass' and the passing survive copy(), JSON and a record's replay; a record redacted for a seat
    shows the passed hands' turned-up cards and hides the choices not yet revealed."""
    from canasta.record import export_record, parse_record, replay_record

    g = passing_game(7)
    act(g, "keep 2")
    for h in (g.copy(), Game.from_json(g.to_json())):
        assert h.to_json() == g.to_json() and h.observation(2) == g.observation(2)
        act(h, "keep 1")
        assert g.kept[1] == 0  # independent of the original
    assert replay_record(export_record(g)).to_json() == g.to_json()
    act(g, "keep 1")
    mid = parse_record(export_record(g, seat=2))
    assert [str(m.action) for m in mid.hands[0].moves] == []  # seats 0 and 1 chose; seat 2 has not seen how
    assert all(cards == [] for _, cards in mid.hands[0].deals)
    keep_all(g, [2, 1, 2, 2])
    rng = random.Random(7)
    while g.hand_no == 1:
        g.apply(rng.choice(g.legal_actions()))
    for _ in range(6):
        g.apply(rng.choice(g.legal_actions()))
    assert replay_record(export_record(g)).to_json() == g.to_json()
    red = parse_record(export_record(g, seat=2))
    first = red.hands[0]
    assert [str(m.action) for m in first.moves[:4]] == ["keep 2", "keep 1", "keep 2", "keep 2"]
    for s, shown in first.deals:
        if s == 2:
            assert shown == g.deals[0]["hands"][2]
        else:  # the top card was turned up before the passing; red threes were laid out
            assert shown[-1] == g.deals[0]["hands"][s][-1]
            assert all(c is None or c in (13, 14) for c in shown[:-1])
    # a record with a wrong hand for a seat is refused once the passing has made the hands
    text = export_record(g)
    lines = {x[:7]: x for x in text.splitlines() if x.startswith("deal ")}
    bad = text.replace(lines["deal 1:"], "deal 1:" + lines["deal 2:"][7:], 1)
    with pytest.raises(Exception, match="cards dealt to seat 1"):
        replay_record(bad)


def test_option_hand_passing_basic_and_expert_choice():
    """The pile not kept goes to the player on the left (an opponent in partnerships): BasicPlayer keeps as its
    foot the pile with the better turned-up card (a red three, laid out for 100 by whoever gets it, then wild
    cards, high cards ...; a black three last); the expert makes the same choice without a search."""
    from canasta.players.expert import ExpertPlayer
    from canasta.players.feet_basic import keep_value

    assert keep_value(parse_card("3h")) > keep_value(parse_card("JK")) > keep_value(parse_card("2c")) \
        > keep_value(parse_card("Kd")) > keep_value(parse_card("5s")) > keep_value(parse_card("3s"))
    checked = 0
    for seed in range(6):
        g = passing_game(seed)
        while g.phase == "pass":
            obs, legal = g.observation(g.actor), g.legal_actions()
            a, b = (parse_card(c) for c in obs["pass_shown"][g.actor])
            want = "keep 2" if keep_value(b) > keep_value(a) else "keep 1"
            assert str(BasicPlayer(seed).choose(obs, legal)) == want
            assert str(ExpertPlayer(seed=seed).choose(obs, legal)) == want
            g.apply(legal[int(want[-1]) - 1])
            checked += 1
    assert checked == 24


def test_option_hand_passing_encoding_and_environments():
    """The encoding: 'keep 1'/'keep 2' have indices of their own (Hand and Foot only), the phase 'pass' and the
    turned-up cards are in the observation vector (its length is the variant's with or without the option); the
    Gym and PettingZoo environments play with the option."""
    import numpy as np

    from canasta.encoding import (
        FEET_OBS_SIZE,
        KEEP_BASE,
        PASS_OBS_SIZE,
        encode_observation,
        legal_indices,
        num_actions,
        obs_size,
    )
    from canasta.env.gym_env import CanastaGymEnv

    g = passing_game(8)
    assert sorted(legal_indices(g.legal_actions(), V)) == [KEEP_BASE, KEEP_BASE + 1] == [914, 915]
    assert num_actions(V) == 916 and num_actions("triple-play") == 914
    assert obs_size(V) == FEET_OBS_SIZE + PASS_OBS_SIZE and obs_size("triple-play") == FEET_OBS_SIZE
    vec = encode_observation(g.observation(0))
    assert vec.shape == (obs_size(V),) and vec[FEET_OBS_SIZE] == 1 and np.isfinite(vec).all()
    act(g, "keep 2")
    a, b = encode_observation(g.observation(0)), encode_observation(g.observation(1))
    assert (a != b).any()  # seat 0 sees its choice
    keep_all(g, [2, 1, 1, 1])
    vec = encode_observation(g.observation(0))
    assert vec[FEET_OBS_SIZE] == 0 and vec.shape == encode_observation(Game(V, 4, 8).observation(0)).shape

    env = CanastaGymEnv(variant=V, players=4, opponents="random", rules=PASSING)
    env.reset(seed=2)
    done, steps = False, 0
    while not done and steps < 3000:
        legal = np.flatnonzero(env.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[-1]))
        done = term or trunc
        steps += 1
    assert done

    from pettingzoo.test import api_test

    from canasta.env.pettingzoo_env import env as pz_env
    api_test(pz_env(variant=V, players=4, rules=PASSING), num_cycles=100)


def test_option_hand_passing_openspiel_resampling_keeps_the_turned_up_cards():
    """OpenSpiel: a state resampled from a seat's information state keeps every turned-up card in place and
    redeals the rest; the other seats' choices made so far are not part of the information state."""
    pyspiel = pytest.importorskip("pyspiel")
    import canasta.env.openspiel_game as osg

    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": V, "players": 4, "rules": json.dumps(PASSING)})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(3)
    state.apply_action(state.legal_actions()[1])  # seat 0 keeps pile 2
    info = state.information_state_string(2)
    assert "0:keep" in info.split("\n") and "0:keep 2" not in info
    r = state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.information_state_string(2) == info
    assert [[p[-1] for p in ps] for ps in r.game.passing] == [[p[-1] for p in ps] for ps in state.game.passing]
    assert r.game.passing != state.game.passing
    while r.game.phase == "pass":
        r.apply_action(r.legal_actions()[0])
    assert [f[-1] for f in r.game.feet] == r.game.foot_shown
    assert r.game.card_count() == len(r.game.variant.deck())


def test_option_hand_passing_web_events_hide_the_choices():
    """The web app's action log (events sent to every seat) shows another seat's 'keep' without its pile until
    every seat has chosen; the seat's own choice, and all of them afterwards, in full."""
    pytest.importorskip("fastapi")
    from types import SimpleNamespace

    from canasta.web.hub import _hide_keeps

    g = passing_game(9)
    events: list[dict[str, Any]] = []
    for k in (2, 1):
        seat = g.actor
        act(g, f"keep {k}")
        events.append({"seq": len(events) + 1, "seat": seat, "action": f"keep {k}"})
    live: Any = SimpleNamespace(game=g, version=len(events), events=events)
    assert [e["action"] for e in _hide_keeps(live, 1, events)] == ["keep", "keep 1"]
    assert [e["action"] for e in _hide_keeps(live, None, events)] == ["keep", "keep"]
    keep_all(g, [2, 1, 1, 1])
    assert [e["action"] for e in _hide_keeps(live, None, events)] == ["keep 2", "keep 1"]


@pytest.mark.parametrize(("change", "match"), [
    (lambda d: d.update(rules={}), "need the table rule hand_passing"),
    (lambda d: d.update(phase="draw"), "exactly during the phase 'pass'"),
    (lambda d: d.update(kept=[3, 0, 0, 0]), "kept is 0, 1 or 2"),
    (lambda d: d["passing"][0].pop(), "two piles per seat"),
])
def test_option_hand_passing_saved_positions_are_checked(change, match):
    """A saved position of the hand-passing deal is refused (SchemaError) unless its piles, choices and phase
    fit together."""
    from canasta.errors import SchemaError

    d = passing_game(10).to_dict()
    change(d)
    with pytest.raises(SchemaError, match=match):
        Game.from_dict(d)
