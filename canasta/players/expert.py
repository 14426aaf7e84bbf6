"""ExpertPlayer: Perfect-Information Monte Carlo (PIMC) search over the seat's observation.

At each decision with more than one legal action the player

1. samples ``worlds`` *determinizations*: full game positions consistent with
   everything in ``Game.observation(seat)``: its own hand, the other hands' sizes,
   the stock size, every meld, red three, removed card and the discard pile. The
   cards it has not seen are dealt at random to the other hands and the stock
   (never a red three into a hidden hand: the engine lays those out on sight).
   Hand and Foot, Triple Play and American are dealt by :mod:`canasta.players.worlds`
   (feet, knees and face-down bonus cards too), Burraco and the Samba family by
   :func:`determinize_ids`, the other set variants by :func:`determinize`;
2. plays each candidate action in every world and then the rest of the hand with
   its *base policy* at every seat: :class:`~canasta.players.basic.BasicPlayer`
   with the style ``EXPERT_STYLE``, which beat the texts' defaults in self-play (Modern American's
   judgement calls included); in Mille, where it loses to them, the defaults, and in Hand and Foot
   a style of its own (``VARIANT_STYLES``)
   (a rules player as rollout policy: random rollouts say little about Canasta),
   up to ``max_rollout`` actions (a Classic hand is played out; only Hand and Foot's
   long hands are cut short), after which the position is scored as if the hand
   ended there. In Classic with four or two players, Hand and Foot, Triple Play and Modern American
   with four (``leaf="value"``, the default) a rollout stops after ``horizon`` (40) actions instead
   and the position is scored by a learned value of :mod:`canasta.players.value` (``value``: by
   default ``linear-tables``, linear weights fitted to self-play hand margins at each of those
   tables; ``net-v2``, a small network, is an option): far less noisy than the end of the hand, so
   the default there is twice the worlds (24);
3. picks the action with the best mean *hand margin*: its side's hand score minus
   the mean over all sides. Every action is tried in the same worlds (common
   random numbers). The base policy's own choice is kept unless the best action's
   mean gain over it, paired world by world, exceeds ``margin_se`` standard
   errors: with a handful of worlds, most apparent gains are noise.

A decision samples at most ``worlds`` worlds, fewer where ``max_rollouts`` (rollouts) or ``max_steps``
(the rollouts' actions, a bound on the work that needs no clock) would be passed.

The candidates are the legal actions with the discards cut to the base policy's
``discards`` cheapest (Classic family; in Modern American only with ``american_discards``, which lost
at the table): searching ten discards in a dozen worlds mostly picks noise. Answers to "may I go
out?", single-choice decisions, and the base policy's choice to put natural cards on the table once
the side has opened are not searched.

The player is a pure function of the observation and its seed: the sampling
generator is seeded from the seed and the observation's text, so it keeps no
memory between calls, acts the same on equal observations (the no-peeking test
relies on it) and is deterministic given a seed. ``seconds`` adds an optional
wall-clock cap per decision; once it cuts a search short, play is no longer
reproducible.

The sampled worlds keep what the seat has seen: cards another seat took with the
pile (or got back by retracting a meld) and still holds (``known_hands``) stay in
that seat's sampled hand; only the rest is dealt at random. In the Classic family they
also read the pile (``read_passes``, on by default): a seat that drew while a card lay
on top of the pile is dealt no natural pair of its rank (:func:`canasta.players.card_reading.pile_passes`),
and the base style weighs the risk of feeding the next player a rank it passed on at a
quarter (``pass_danger``). Modern American's base style prices a discard by the chance that the next
player holds a natural pair of its rank times the pile's size (``american.danger``); its worlds do not
read the pile (a trial that did lost: docs/benchmarks.md, "Issue 23, stop 35"). ``read_layoffs`` (off: level or
worse at the table, docs/benchmarks.md, "Issue 23, stop 40") also deals no natural of a rank to a seat that
would have laid it off on its side's meld (:func:`canasta.players.card_reading.laid_off_ranks`), and
``read_discards`` (off: level or worse, "Issue 23, stop 41") picks each world among ``discard_tries`` dealt ones
with odds of how likely its hands make the other sides' last discards (:mod:`canasta.players.inference`).
``fill_worlds`` (off, level in the same stop) samples as many worlds as ``max_rollouts`` allows where rollouts
end in the value. ``opponents="defaults"`` (off: level, "Issue 23, stop 42") plays the other sides' seats in the
rollouts with BasicPlayer on the texts' defaults instead of the base policy, and ``objective="soft"`` (off, level in
the same stop) scores a rollout by tanh(margin / ``objective_scale``). ``discard_model="distilled-v1"`` gives the base
policy (and so the rollouts) the discard of :class:`canasta.players.distilled.DistilledBasic`: among the base
style's cheapest, the card a model fitted to this search's own verdicts rates best (4-player Classic only).

Known simplifications (the observation does not carry them): turn-internal engine
state that the observation does not show (e.g. whether the pile was taken this turn,
after the side had opened) is reconstructed approximately by :func:`determinize`,
and an action the reconstruction refuses is skipped (``players/worlds.py`` instead
enumerates that state and keeps the world whose legal actions are the seat's).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from statistics import NormalDist
from typing import Any, cast

import canasta.players.inference as inference
import canasta.players.value as position_value
from canasta.cards import JOKER, NUM_CODES, is_red_three, parse_card, parse_rank
from canasta.engine.actions import ADD, ASK_ACTION, DISCARD, MELD, Action
from canasta.engine.game import Game
from canasta.engine.idmelds import MeldIdGame
from canasta.engine.idturn import SambaGame
from canasta.engine.setgame import SetMeldGame
from canasta.errors import CanastaError
from canasta.players.american_basic import american_candidate_discards
from canasta.players.base import Observation
from canasta.players.basic import DEFAULT_STYLE, BasicPlayer, BasicStyle, candidate_discards, pile_passes
from canasta.players.basic import EXPERT_STYLE as EXPERT_STYLE  # defined there (value uses it too); re-exported
from canasta.players.basic import VARIANT_STYLES as VARIANT_STYLES  # defined there (value uses it too)
from canasta.players.card_reading import laid_off_ranks, respect_limits, respect_passes
from canasta.players.distilled import DistilledBasic, load_discard_model
from canasta.players.worlds import determinizer_for
from canasta.variants import find_variant
from canasta.variants.classic import Classic

WILD_RANK = 1

#: Default budget: sampled worlds per decision, and a cap on the rollouts per decision.
WORLDS = 12  # measured: 12 worlds beat 6 and 2 on the same deals (docs/benchmarks.md)
#: worlds where rollouts end in the value (Classic, 4 players): short rollouts buy twice the worlds
VALUE_WORLDS = 24
MAX_ROLLOUTS = 144
MAX_ROLLOUT_ACTIONS = 200  # a hand of Classic between rules players lasts ~75 actions: play it out
#: a deterministic bound on one decision's work: the rollouts' actions over every world and candidate. No
#: further world is sampled once another would take the total past it (two worlds at least). It binds mostly in
#: the long-hand variants' largest decisions (Hand and Foot, Triple Play, American: about one choice in ten
#: changed at a bound of 8,000, in seeded games), to bring the 99th percentile of decision time toward 2 s on
#: the pure-Python engine; never where rollouts end in the value (144 rollouts of 40 actions at most)
#: (docs/benchmarks.md, "Decision times of the expert in every variant")
MAX_STEPS = 6_000
#: Leave BasicPlayer's choice only when the gain exceeds this many standard errors.
MARGIN_SE = 1.0
#: Discards searched: the base policy's cheapest few (the rest only add noise to the search; eight lost 3.7
#: points, half-width 5.1, over 200 deals of 4-player Classic: docs/benchmarks.md, "Issue 23, stop 37").
CANDIDATE_DISCARDS = 4
#: Discards searched in Modern American: the base policy's cheapest few, or every one (0, the default: a cut
#: to four lost 3.0 points, half-width 7.9, over 118 deals; docs/benchmarks.md, "Issue 23, stop 37")
AMERICAN_DISCARDS = 0
#: what a rollout is worth: the hand's score margin, only its sign ("win": +1, 0, -1), or between the two
#: ("soft": tanh(margin / ``objective_scale``), near the margin's slope close to a tie, near its sign far from one)
OBJECTIVES = ("margin", "win", "soft")
OBJECTIVE = "margin"
OBJECTIVE_SCALE = 300.0
#: which decisions are searched: all but the obvious ones ("all"), every one with a choice, natural cards
#: onto the table once opened included ("every"), or only the start of a turn (take the pile or draw) and
#: the side's initial meld ("key")
SEARCHES = ("all", "every", "key")
SEARCH = "all"
#: how a rollout is scored: played to the end of the hand ("rollout"), or cut after ``horizon``
#: actions and scored by a learned value of canasta.players.value ("value"; at the tables the value was
#: fitted at, by default Classic with four or two players, Hand and Foot, Triple Play and American with four:
#: elsewhere rollouts are played out)
LEAVES = ("rollout", "value")
LEAF = "value"  # measured (before card reading): 60.4% against BasicPlayer over 400 games, full rollouts 53.1%
HORIZON = 40  # about two and a half rounds of four turns (16 did no better in a first trial)
#: where a valued rollout stops: after ``horizon`` actions wherever that falls ("any"), or at the first start of
#: a turn at or after it ("turn": the values were fitted only at the start of a turn, and a cut after a fixed
#: count lands one candidate's rollouts mid-turn where another's land at a turn's start)
LEAF_POINTS = ("any", "turn")
LEAF_AT = "any"
#: a rollout cut at a turn's start runs at most this many actions past the horizon
TURN_SLACK = 30
#: card reading in the sampled worlds of the Classic family: no natural pair of a rank a seat passed on
READ_PASSES = True  # with pass_danger 0.25: 65.4% against BasicPlayer over 400 games (docs/benchmarks.md)
#: card reading in the sampled worlds of the Classic family: no natural of a rank the seat would have laid off
READ_LAYOFFS = False  # an experiment (issue 23, stop 40): see docs/benchmarks.md before turning it on
#: inference in the sampled worlds of the Classic family: each world is picked among ``DISCARD_TRIES`` dealt ones
#: with odds of how likely its hands make the other sides' last discards (canasta.players.inference)
READ_DISCARDS = False  # an experiment (issue 23, stop 41): see docs/benchmarks.md before turning it on
DISCARD_TRIES = 4
#: where rollouts end in the value, sample as many worlds as ``max_rollouts`` allows for the decision's
#: candidates (72 for two) instead of ``value_worlds``: more worlds where there are few moves to compare
FILL_WORLDS = False  # an experiment (issue 23, stop 41)
#: how the search models the other sides' seats in its rollouts (and, with ``read_discards``, their discards):
#: playing its own base policy ("base"), or BasicPlayer on the texts' defaults ("defaults": an opponent model,
#: right where the opponents are rules players that follow the texts)
OPPONENT_MODELS = ("base", "defaults")
OPPONENTS = "base"
#: the learned value that scores the rollouts' leaves (canasta.players.value.VALUE_MODELS): linear-v1's weights
#: in 4-player Classic (net-v2 did not measurably beat them), weights of its own in 2-player Classic (level with
#: played-out rollouts there, and a fixed cost: docs/benchmarks.md, "Issue 23, stop 30"), and weights over the
#: score's items in Hand and Foot, Triple Play and American (ahead of played-out rollouts on the same deals:
#: "Issue 23, stop 32")
VALUE_MODEL = "linear-tables"
#: search no discard that hands the next player the unfrozen pile (a rank its side has melded)
SAFE_DISCARDS = False
#: how the search's best move is tested against the base policy's: its paired gain over all the worlds
#: ("paired"), or picked on half the worlds and tested on the other half ("split": no winner's curse), or its
#: paired gain against a bar that rises with the number of candidates ("adjusted": the best of k - 1
#: challengers passes on noise more often the more there are; the bar keeps the same chance for each,
#: Bonferroni's correction, set so that three candidates keep ``margin_se``)
GATES = ("paired", "split", "adjusted")
GATE = "paired"
#: the base policy's discard chosen among its cheapest by a model of the search's own verdicts
#: (canasta.players.distilled.DISCARD_MODELS; it plays only at the tables it was fitted at), or None
DISCARD_MODEL: str | None = None


def determinize(obs: Observation, rng: random.Random, read_passes: bool = False,
                read_layoffs: bool = False) -> Game:
    """A full position consistent with ``obs``: unseen cards dealt at random (with ``read_passes``, no
    hidden hand holds a natural pair of a rank its seat passed on: ``card_reading.respect_passes``; with
    ``read_layoffs``, no natural of a rank it would have laid off: ``card_reading.laid_off_ranks``).

    Raises CanastaError (or ValueError) if the observation cannot be completed.
    """
    players: int = obs["players"]
    variant = cast(Classic, find_variant(obs["variant"])(players, obs["rules"]))
    seat: int = obs["seat"]
    side_of = [variant.side_of(s) for s in range(players)]
    unseen = [0] * NUM_CODES
    for c in variant.deck():
        unseen[c] += 1
    hand = [parse_card(c) for c in obs["hand"]]
    pile = [parse_card(c) for c in obs["pile"]]
    melds: list[list[list[Any]]] = []
    seen = list(hand) + pile
    for side_melds in obs["melds"]:
        out: list[list[Any]] = []
        for m in side_melds:
            cards = [parse_card(c) for c in m["cards"]]
            seen += cards
            out.append([WILD_RANK if m["rank"] == "wild" else parse_rank(m["rank"]), cards])
        melds.append(out)
    red_threes = [[parse_card(c) for c in r] for r in obs["red_threes"]]
    removed = [[parse_card(c) for c in r] for r in obs["removed"]]
    for r in red_threes + removed:
        seen += r
    # a taken pile's rest, set aside until the initial meld completes (face up: the observation lists it)
    aside = [parse_card(c) for c in obs["pile_taken_aside"]]
    seen += aside
    # cards every player saw go into the other hands (a taken pile) are dealt back to them
    known = [[] if s == seat else [parse_card(c) for c in k] for s, k in enumerate(obs["known_hands"])]
    for c in seen + [c for k in known for c in k]:
        unseen[c] -= 1
    if any(k < 0 for k in unseen):
        raise ValueError("observation holds more cards than the pack")
    # A red three is laid out the moment it is drawn, so a hidden hand never holds one: they are
    # dealt only to the stock.
    laid_out = [c for c in range(NUM_CODES) if is_red_three(c)]
    pool = [c for c in range(NUM_CODES) if c not in laid_out for _ in range(unseen[c])]
    rng.shuffle(pool)
    hands: list[list[int]] = []
    passed = pile_passes(obs) if read_passes else None
    laid_off = laid_off_ranks(obs) if read_layoffs else None
    for s in range(players):
        if s == seat:
            hands.append(hand)
        else:
            n = obs["hand_sizes"][s] - len(known[s])
            if n > len(pool):
                raise ValueError("too few unseen cards for the hidden hands")
            dealt = pool[:n]
            del pool[:n]
            if laid_off is not None and laid_off[s]:
                most = {rank: 1 for rank in passed[s]} if passed is not None else {}
                most.update({rank: 0 for rank in laid_off[s]})
                respect_limits(dealt, known[s], most, pool, rng)
            elif passed is not None and passed[s]:
                respect_passes(dealt, known[s], passed[s], pool, rng)
            hands.append(known[s] + dealt)
    pool += [c for c in laid_out for _ in range(unseen[c])]
    rng.shuffle(pool)
    if len(pool) != obs["stock_size"]:
        raise ValueError("the unseen cards do not match the stock size")
    side = side_of[obs["turn"]]
    pile_aside = aside or None
    scores: list[int] = obs["scores"]
    opened: list[bool] = obs["opened"]
    phase: str = obs["phase"]
    d: dict[str, Any] = {
        "schema": 1, "variant": obs["variant"], "rules": obs["rules"], "players": players,
        "seed": rng.getrandbits(32), "scores": list(scores), "hand_results": list(obs["hand_results"]),
        "hand_no": obs["hand_no"], "dealer": obs["dealer"], "winner": None, "phase": phase,
        "reshuffles": 0, "stock": pool, "pile": pile, "frozen": bool(obs["frozen"]), "hands": hands,
        "melds": melds, "red_threes": red_threes, "removed": removed, "opened": list(opened),
        "minimum_extra": [obs["minimum"][s] - variant.minimum(scores[s]) for s in range(len(scores))],
        "penalties": [[] for _ in scores],
        "melded_before": [opened[side_of[s]] for s in range(players)],
        "turn": obs["turn"], "return_phase": "play", "drawn": phase == "play",
        "took_pile": pile_aside is not None, "pile_barred": False, "asked": obs["asked"],
        "permission": obs["permission"], "asked_hand": obs.get("asked_hand"),
        "turn_created": [] if opened[side] else [r for r, _ in melds[side]],
        "turn_added_existing": False, "pending_value": obs["pending_value"], "pile_aside": pile_aside,
        "take_snapshot": None, "unusable": None, "no_discard": False, "history": [], "deals": [],
        "known": [[parse_card(c) for c in k] if s == seat else known[s] for s, k in enumerate(obs["known_hands"])],
    }
    return Game.from_dict(d)


def deal_reading_discards(obs: Observation, rng: random.Random, deal: Callable[[Observation, random.Random], Game],
                          reads: list[inference.DiscardRead], style: BasicStyle, tries: int,
                          temperature: float) -> Game:
    """One of ``tries`` worlds dealt by ``deal``, picked with odds of how likely its hands make the other sides'
    last discards (``reads``) under the discard model of ``style`` (:mod:`canasta.players.inference`)."""
    worlds = [deal(obs, rng) for _ in range(tries)]
    logs = [0.0] * tries
    for read in reads:
        for k, x in enumerate(inference.discard_log_likelihood(
                read, [w.hand_cards(read.seat) for w in worlds], style, temperature)):
            logs[k] += x
    top = max(logs)
    return rng.choices(worlds, weights=[math.exp(x - top) for x in logs])[0]


def determinize_ids(obs: Observation, rng: random.Random) -> Game:
    """:func:`determinize` for a variant with meld ids (Burraco): the other hands, the stock, the
    pozzetti and every face-down pozzetto (nobody has looked at those) are dealt from the unseen cards."""
    players: int = obs["players"]
    base = Game(obs["variant"], players, 0, obs["rules"])
    d = base.to_dict()
    unseen = [0] * NUM_CODES
    for c in base.variant.deck():
        unseen[c] += 1
    hand = [parse_card(c) for c in obs["hand"]]
    pile = [parse_card(c) for c in obs["pile"]]
    melds: list[list[list[Any]]] = []
    seat: int = obs["seat"]
    # cards everyone saw go into a hand with the pile stay there in every sampled world
    known = [[] if s == seat else [parse_card(c) for c in k] for s, k in enumerate(obs["known_hands"])]
    seen = list(hand) + pile + [c for k in known for c in k]
    ct = isinstance(base, SambaGame)  # Samba: Classic's turn; red threes are face up
    if ct:
        if obs["pending_value"] or (obs["phase"] == "play" and not obs["opened"][obs["side"]]):
            raise ValueError("an initial meld in progress is not reconstructed")
        seen += [parse_card(c) for r in obs["red_threes"] for c in r]
    next_id = 1
    for side_melds in obs["melds"]:
        out: list[list[Any]] = []
        for m in side_melds:
            cards = [parse_card(c) for c in m["cards"]]
            seen += cards
            wild_index = m["wild_index"]
            low = 0
            if m["kind"] == "run":
                got = base.variant.arrange_meld(cards)  # type: ignore[attr-defined]
                if isinstance(got, str):
                    raise ValueError(got)
                low = got[1][2]
            out.append([m["id"], m["kind"], cards, wild_index, low])
            next_id = max(next_id, m["id"] + 1)
        melds.append(out)
    for c in seen:
        unseen[c] -= 1
    if any(k < 0 for k in unseen):
        raise ValueError("observation holds more cards than the pack")
    # Samba lays red threes out on sight: hidden hands never hold one (Burraco has no such cards)
    laid_out = [c for c in range(NUM_CODES) if ct and is_red_three(c)]
    pool = [c for c in range(NUM_CODES) if c not in laid_out for _ in range(unseen[c])]
    rng.shuffle(pool)

    def take(n: int) -> list[int]:
        if n > len(pool):
            raise ValueError("too few unseen cards for the hidden hands")
        got = pool[:n]
        del pool[:n]
        return got

    hands = [hand if s == seat else known[s] + take(obs["hand_sizes"][s] - len(known[s])) for s in range(players)]
    pool += [c for c in laid_out for _ in range(unseen[c])]
    rng.shuffle(pool)
    face_down = [take(n) for n in obs["face_down"]]
    extra = [take(n) for n in obs["extra_piles"]]
    if len(pool) != obs["stock_size"]:
        raise ValueError("the unseen cards do not match the stock size")
    barred = parse_card(obs["barred"]) if obs["barred"] else None
    d.update({
        "seed": rng.getrandbits(32), "scores": list(obs["scores"]), "hand_results": list(obs["hand_results"]),
        "hand_no": obs["hand_no"], "dealer": obs["dealer"], "phase": obs["phase"], "stock": pool, "pile": pile,
        "hands": hands, "melds": melds, "extra_piles": extra, "piles_taken": list(obs["piles_taken"]),
        "face_down": face_down, "next_meld_id": next_id, "barred": barred, "orbit": obs["orbit"],
        "one_card_take": barred is not None, "turn_melded": False, "turn": obs["turn"],
        "drawn": obs["phase"] == "play", "history": [], "deals": [],
        "known": [[parse_card(c) for c in k] if s == seat else known[s] for s, k in enumerate(obs["known_hands"])],
    })
    if ct:
        v: Any = base.variant
        d.update({
            "red_threes": [[parse_card(c) for c in r] for r in obs["red_threes"]], "frozen": obs["frozen"],
            "opened": list(obs["opened"]), "asked": obs["asked"], "permission": obs["permission"],
            "minimum_extra": [m - v.minimum(sc) for m, sc in zip(obs["minimum"], obs["scores"], strict=True)],
            "penalties": [[] for _ in obs["scores"]], "return_phase": "draw",
        })
    return Game.from_dict(d)


def hand_margins(game: Game, results_before: int) -> list[float]:
    """Per side: its score in the hands finished since ``results_before``, or, if none finished,
    the score it would get if the hand ended now; minus the mean over the sides."""
    if len(game.hand_results) > results_before:
        totals = [0.0] * game.num_sides
        for r in game.hand_results[results_before:]:
            for s, side in enumerate(r["sides"]):
                totals[s] += side["total"]
    elif isinstance(game, MeldIdGame):  # Burraco, and Samba on Classic's turn
        totals = [float(r["total"]) for r in game._hand_scores(None)]
    else:
        assert isinstance(game, SetMeldGame)
        totals = [float(r["total"]) for r in game.score_sides(None)]
    mean = sum(totals) / len(totals)
    return [t - mean for t in totals]


def safe_discards(obs: Observation, legal: list[Action], keep: Action) -> list[Action]:
    """``legal`` without the discards that hand the next player the pile for nothing: while the pile
    is not frozen a rank the next player's side has melded is taken with no card from hand (Classic
    family, set melds; ``keep``, the base policy's choice, stays). If every discard is such a rank, all stay."""
    if obs["frozen"] or getattr(find_variant(obs["variant"]), "MELD_IDS", False):
        return legal
    players: int = obs["players"]
    next_seat = (obs["seat"] + 1) % players
    variant = find_variant(obs["variant"])(players, obs["rules"])
    next_side = variant.side_of(next_seat)
    if next_side == obs["side"]:
        return legal
    melded = {parse_rank(m["rank"]) for m in obs["melds"][next_side] if m["rank"] != "wild"}

    def feeds(a: Action) -> bool:
        c = a.cards[0]
        return c != JOKER and not 8 <= c <= 15 and c >> 2 in melded  # no wild card or three

    discards = [a for a in legal if a.kind == DISCARD]
    if all(feeds(a) for a in discards):
        return legal
    return [a for a in legal if a.kind != DISCARD or a == keep or not feeds(a)]


def _obvious(obs: Observation, choice: Action) -> bool:
    """Natural cards onto the table once the side has opened: no search (it nearly always pays)."""
    return (choice.kind in (ADD, MELD) and bool(obs["opened"][obs["side"]])
            and not any(c == JOKER or 8 <= c <= 11 for c in choice.cards))


@dataclass(frozen=True)
class SearchRecord:
    """What one searched decision found: the base policy's choice, the best mean the search proposed, the
    action chosen after the gate, and each candidate's value in each sampled world (by world number)."""

    basic_choice: Action
    proposed: Action
    chosen: Action
    values: dict[Action, dict[int, float]]


class ExpertPlayer:
    """PIMC search with BasicPlayer rollouts; see the module docstring."""

    name = "expert"

    def __init__(self, seed: int | str | None = 0, worlds: int | None = None, max_rollouts: int = MAX_ROLLOUTS,
                 max_rollout: int = MAX_ROLLOUT_ACTIONS, seconds: float | None = None,
                 margin_se: float = MARGIN_SE, style: BasicStyle | None = None,
                 discards: int = CANDIDATE_DISCARDS, objective: str = OBJECTIVE, search: str = SEARCH,
                 leaf: str = LEAF, horizon: int = HORIZON, read_passes: bool = READ_PASSES,
                 value: str = VALUE_MODEL, value_worlds: int = VALUE_WORLDS, rollout_worlds: int = WORLDS,
                 safe: bool = SAFE_DISCARDS, gate: str = GATE, max_steps: int = MAX_STEPS,
                 american_discards: int = AMERICAN_DISCARDS, leaf_at: str = LEAF_AT,
                 read_layoffs: bool = READ_LAYOFFS, read_discards: bool = READ_DISCARDS,
                 discard_tries: int = DISCARD_TRIES, discard_temperature: float = inference.TEMPERATURE,
                 fill_worlds: bool = FILL_WORLDS, opponents: str = OPPONENTS,
                 objective_scale: float = OBJECTIVE_SCALE, discard_model: str | None = DISCARD_MODEL) -> None:
        #: the base policy's discard judged by a model of the search's verdicts (canasta.players.distilled)
        off = discard_model is None or discard_model.lower() in ("", "none")
        self.discard_model = None if off else load_discard_model(str(discard_model))
        if objective_scale <= 0:
            raise ValueError("objective_scale must be positive")
        self.objective_scale = objective_scale
        if opponents not in OPPONENT_MODELS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENT_MODELS)}, not {opponents!r}")
        self.opponents = opponents
        if leaf_at not in LEAF_POINTS:
            raise ValueError(f"leaf_at must be one of {', '.join(LEAF_POINTS)}, not {leaf_at!r}")
        self.leaf_at = leaf_at
        self.american_discards = max(0, american_discards)
        self.max_steps = max(1, max_steps)
        self.safe_discards = safe
        if gate not in GATES:
            raise ValueError(f"gate must be one of {', '.join(GATES)}, not {gate!r}")
        self.gate = gate
        self.seed = seed
        self.worlds = None if worlds is None else max(1, worlds)  # None: value_worlds or rollout_worlds
        self.value_worlds = max(1, value_worlds)
        self.rollout_worlds = max(1, rollout_worlds)
        self.leaf_value = position_value.load_value(value)
        self.max_rollouts = max(1, max_rollouts)
        self.max_rollout = max_rollout
        self.seconds = seconds
        self.margin_se = margin_se
        self.discards = max(1, discards)
        #: the base policy's style: as given, or by default the variant's (VARIANT_STYLES, else EXPERT_STYLE)
        self.style = style
        self._bases: dict[str, BasicPlayer] = {}
        self._opponent_policy = BasicPlayer(style=DEFAULT_STYLE) if opponents == "defaults" else None
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
        self.objective = objective
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
        self.search = search
        if leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}, not {leaf!r}")
        self.leaf = leaf
        self.horizon = max(0, horizon)
        self.read_passes = read_passes
        self.read_layoffs = read_layoffs
        self.read_discards = read_discards
        self.discard_tries = max(1, discard_tries)
        if discard_temperature <= 0:
            raise ValueError("discard_temperature must be positive")
        self.discard_temperature = discard_temperature
        self.fill_worlds = fill_worlds
        #: the last decision that was searched (for audits and explanations; None before the first)
        self.last_search: SearchRecord | None = None

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        return self.decide(obs, legal)[0]

    def decide(self, obs: Observation, legal: list[Action]) -> tuple[Action, str]:
        """The chosen action and a one-line reason."""
        if not legal:
            raise ValueError("no legal actions")
        base = self.base_policy(obs["variant"])
        basic_choice, basic_reason = base.decide(obs, legal)
        # the hand-passing deal (Hand and Foot): BasicPlayer's choice, no search (nobody holds cards yet)
        if len(legal) == 1 or obs["phase"] in ("answer", "pass"):
            return basic_choice, basic_reason
        if self.search != "every" and _obvious(obs, basic_choice):
            return basic_choice, basic_reason
        if self.search == "key" and obs["phase"] != "draw" and obs["opened"][obs["side"]]:
            return basic_choice, basic_reason
        digest = hashlib.sha256(json.dumps(obs, sort_keys=True, default=str).encode()).hexdigest()
        rng = random.Random(f"{self.seed}/{digest}")
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        candidates = candidate_discards(obs, legal, self.discards, base.style, keep=basic_choice)
        if self.american_discards and getattr(find_variant(obs["variant"]), "EXTENDED_SET_RULES", False):
            candidates = american_candidate_discards(obs, candidates, self.american_discards,
                                                     base.style.american, keep=basic_choice)
        if self.safe_discards:
            candidates = safe_discards(obs, candidates, keep=basic_choice)
        if len(candidates) == 1:
            return basic_choice, basic_reason
        worlds = max(1, min(self.world_budget(obs), self.max_rollouts // len(candidates)))
        values, sampled = self.sample_values(obs, legal, candidates, worlds, rng, self.max_steps, deadline)
        tried = [a for a in candidates if values[a]]
        if not tried:
            return basic_choice, basic_reason
        means = {a: sum(values[a].values()) / len(values[a]) for a in tried}
        best = max(tried, key=lambda a: (means[a], a == basic_choice))
        if self.gate == "split":
            # pick the best move on the even worlds, test its gain on the odd ones: the best of several noisy
            # means is biased upwards (the winner's curse), its gain on worlds it was not picked on is not
            chosen = {a: [v for w, v in values[a].items() if w % 2 == 0] for a in tried}
            picked = [a for a in tried if chosen[a]]
            if picked:
                best = max(picked, key=lambda a: (sum(chosen[a]) / len(chosen[a]), a == basic_choice))
        proposed = best
        if best != basic_choice and values.get(basic_choice):
            # Leave BasicPlayer's choice only for a gain that stands out from the noise of the
            # sampled deals: paired differences in the same worlds, mean above `margin_se` standard errors.
            diffs = [v - values[basic_choice][w] for w, v in values[best].items()
                     if w in values[basic_choice] and (self.gate != "split" or w % 2 == 1)]
            if not self._significant(diffs, self.bar(len(tried))):
                best = basic_choice
        self.last_search = SearchRecord(basic_choice, proposed, best, values)
        places = 0 if self.objective == "margin" else 2  # "win" and "soft" values lie in [-1, 1]
        if best == basic_choice:
            score = f"{means[best]:+.{places}f}" if best in means else "n/a"
            return best, f"{basic_reason} (search: {score} over {sampled} sampled deals)"
        from canasta.notation import format_action
        beside = f", {format_action(basic_choice)} {means[basic_choice]:+.{places}f}" if basic_choice in means else ""
        what = "hand margin" if self.objective == "margin" else f"{self.objective} value"
        return best, (f"best expected {what} {means[best]:+.{places}f} over {sampled} sampled deals"
                      f" (of {len(tried)} moves{beside})")

    def sample_values(self, obs: Observation, legal: list[Action], candidates: list[Action], worlds: int,
                      rng: random.Random, max_steps: int | None = None,
                      deadline: float | None = None) -> tuple[dict[Action, dict[int, float]], int]:
        """Each candidate's rollout value for the seat's side in up to ``worlds`` sampled worlds (keyed by the
        world's number; a world the candidate was refused in is missing), and the worlds sampled. ``legal`` is
        the seat's whole legal list (the worlds of Hand and Foot, Triple Play and American must give it);
        ``max_steps`` bounds the rollouts' actions (two worlds at least), ``deadline`` the clock."""
        deal = self.world_dealer(obs, legal)
        base = self.base_policy(obs["variant"])
        values: dict[Action, dict[int, float]] = {a: {} for a in candidates}
        side: int = obs["side"]
        sampled = steps = 0
        for w in range(worlds):
            if deadline is not None and sampled and time.perf_counter() > deadline:
                break
            if max_steps is not None and sampled >= 2 and steps + steps / sampled > max_steps:
                break  # another world would take the work past max_steps
            try:
                world = deal(obs, rng)
            except (CanastaError, ValueError, KeyError):
                continue
            if ASK_ACTION not in candidates and world.phase == "play":
                world.turn_added_existing = True  # the seat may not ask now: it melded or added this turn
            sampled += 1
            for a in candidates:
                value, played = self._rollout(world, a, side, base)
                steps += played
                if value is not None:
                    values[a][w] = value
        return values, sampled

    def world_dealer(self, obs: Observation, legal: list[Action]) -> Callable[[Observation, random.Random], Game]:
        """How this decision's worlds are dealt: the variant family's determinization of ``obs``."""
        cls = find_variant(obs["variant"])
        family = determinizer_for(cls)
        if family is not None:  # Hand and Foot, Triple Play, American: the world must give these legal actions
            return partial(family, legal=legal)
        if getattr(cls, "MELD_IDS", False):
            return determinize_ids
        deal = partial(determinize, read_passes=self.read_passes, read_layoffs=self.read_layoffs)
        if not self.read_discards or self.discard_tries < 2:
            return deal
        reads = inference.discard_reads(obs)
        if not reads:
            return deal
        style = self.opponent_policy(obs["variant"]).style
        return partial(deal_reading_discards, deal=deal, reads=reads, style=style, tries=self.discard_tries,
                       temperature=self.discard_temperature)

    def world_budget(self, obs: Observation) -> int:
        """Worlds to sample (before ``max_rollouts`` caps them): the ``worlds`` given, or by default
        ``value_worlds`` where rollouts end in the value (they are short) and ``rollout_worlds`` elsewhere."""
        if self.worlds is not None:
            return self.worlds
        valued = self.leaf == "value" and self.leaf_value.supports_table(obs["variant"], obs["players"])
        if valued and self.fill_worlds:
            return max(self.value_worlds, self.max_rollouts)  # max_rollouts // candidates caps it
        return self.value_worlds if valued else self.rollout_worlds

    def bar(self, candidates: int) -> float:
        """The standard errors a departure's paired gain must exceed with ``candidates`` tried: ``margin_se``,
        or with ``gate="adjusted"`` the bar whose one-sided chance of noise passing it is ``margin_se``'s times
        2 / (candidates - 1) (the same as ``margin_se`` at three candidates, lower at two, higher beyond)."""
        if self.gate != "adjusted" or candidates < 2:
            return self.margin_se
        noise = 1.0 - NormalDist().cdf(self.margin_se)
        return NormalDist().inv_cdf(1.0 - min(0.5, noise * 2.0 / (candidates - 1)))

    def _significant(self, diffs: list[float], bar: float) -> bool:
        n = len(diffs)
        if n == 0:
            return False
        mean = sum(diffs) / n
        if mean <= 0:
            return False
        if n == 1:
            return bar <= 0
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return bool(mean > bar * math.sqrt(var / n))

    def base_policy(self, variant: str) -> BasicPlayer:
        """The base and rollout policy in ``variant``: BasicPlayer with the style given, or the variant's."""
        got = self._bases.get(variant)
        if got is None:
            style = self.style if self.style is not None else VARIANT_STYLES.get(variant, EXPERT_STYLE)
            if self.discard_model is not None:
                got = DistilledBasic(model=self.discard_model, style=style, candidates=self.discards)
            else:
                got = BasicPlayer(style=style)
            self._bases[variant] = got
        return got

    def opponent_policy(self, variant: str) -> BasicPlayer:
        """How the search models the other sides' seats: the base policy, or the texts' defaults."""
        return self._opponent_policy if self._opponent_policy is not None else self.base_policy(variant)

    def _rollout(self, world: Game, action: Action, side: int,
                 basic: BasicPlayer | None = None) -> tuple[float | None, int]:
        """The value of ``action`` in ``world`` for ``side`` (None if the world refuses it) and the actions played."""
        if basic is None:
            basic = self.base_policy(str(world.variant.name))
        g = world.copy()
        try:
            g.apply(action)
        except CanastaError:
            return None, 0  # the reconstruction refused it: skip
        before = len(world.hand_results)
        hand_no = world.hand_no
        steps = 0
        valued = self.leaf == "value" and self.leaf_value.supports_table(g.variant.name, g.num_players)
        cut = min(self.horizon, self.max_rollout) if valued else self.max_rollout
        at_turn = valued and self.leaf_at == "turn"
        limit = cut + TURN_SLACK if at_turn else cut
        others = basic if self._opponent_policy is None else self._opponent_policy  # the opponent model
        while not g.is_over and g.hand_no == hand_no and steps < limit:
            if at_turn and steps >= cut and g.phase == "draw":
                break  # a start of a turn, where the value was fitted
            actor = g.actor
            legal = g.legal_actions()
            if not legal:  # an approximate reconstruction reached a dead end: score it as it stands
                break
            policy = basic if g.side_of(actor) == side else others
            g.push(policy.choose(g.observation(actor), legal))
            steps += 1
        if valued and not g.is_over and g.hand_no == hand_no:
            # the value is the side's margin over the opponents' mean; hand_margins' is over all sides' mean
            k = g.num_sides
            margin = self.leaf_value(g, side) * (k - 1) / k
        else:
            margin = hand_margins(g, before)[side]
        if self.objective == "win":  # the hand won, drawn or lost, not by how much
            return float((margin > 0) - (margin < 0)), steps
        if self.objective == "soft":  # a margin's worth flattens as the hand is won or lost beyond doubt
            return math.tanh(margin / self.objective_scale), steps
        return margin, steps
