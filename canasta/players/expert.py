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
   with four a rollout stops after ``horizon`` (40) actions instead and the position is scored by a
   learned value of :mod:`canasta.players.value` (``value``: by default ``linear-tables``, linear
   weights fitted to self-play hand margins at each of those tables): far less noisy than the end of
   the hand, so the default there is twice the worlds (24);
3. picks the action with the best mean *hand margin*: its side's hand score minus
   the mean over all sides. Every action is tried in the same worlds (common
   random numbers). The base policy's own choice is kept unless the best action's
   mean gain over it, paired world by world, exceeds ``margin_se`` standard
   errors: with a handful of worlds, most apparent gains are noise.

A decision samples at most ``worlds`` worlds, fewer where ``max_rollouts`` (rollouts) or ``max_steps``
(the rollouts' actions, a bound on the work that needs no clock) would be passed.

The candidates are the legal actions with the discards cut to the base policy's
``discards`` cheapest (Classic family; Modern American searches every discard): searching ten discards in a
dozen worlds mostly picks noise. Answers to "may I go
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
player holds a natural pair of its rank times the pile's size (``american.danger``).

Every setting is a field of :class:`ExpertSettings`. Options that were measured level with the default or
worse at the table (other gates and objectives, opponent models, reading lay-offs and discards, safe discards,
a distilled base policy, ...) are not in the product: docs/experiments.md says what each measured, and
``research/`` keeps the code of those still worth rerunning.

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
from typing import Any, NamedTuple, cast

import canasta.players.value as position_value
from canasta.cards import JOKER, NUM_CODES, is_red_three, parse_card, parse_rank
from canasta.engine.actions import ADD, ASK_ACTION, MELD, Action
from canasta.engine.game import Game
from canasta.engine.idmelds import MeldIdGame
from canasta.engine.idturn import SambaGame
from canasta.engine.setgame import SetMeldGame
from canasta.errors import CanastaError
from canasta.players.base import Observation
from canasta.players.basic import EXPERT_STYLE as EXPERT_STYLE  # defined there (value uses it too); re-exported
from canasta.players.basic import VARIANT_STYLES as VARIANT_STYLES  # defined there (value uses it too)
from canasta.players.basic import BasicPlayer, BasicStyle, candidate_discards, pile_passes
from canasta.players.card_reading import respect_passes
from canasta.players.worlds import determinizer_for
from canasta.variants import find_variant
from canasta.variants.classic import Classic

WILD_RANK = 1

#: Default budget: sampled worlds per decision, and a cap on the rollouts per decision.
WORLDS = 12  # measured: 12 worlds beat 6 and 2 on the same deals (docs/experiments.md)
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
#: points, half-width 5.1, over 200 deals of 4-player Classic: docs/experiments.md, "2026-11-27, `9342939`").
CANDIDATE_DISCARDS = 4
#: how far a rollout runs where it ends in the value: about two and a half rounds of four turns (16 did no
#: better in a first trial). Rollouts end in a learned value of canasta.players.value at the tables it was
#: fitted at (Classic with four or two players, Hand and Foot, Triple Play and American with four); elsewhere
#: they are played out. Measured (before card reading): 60.4% against BasicPlayer over 400 games, full
#: rollouts 53.1%.
HORIZON = 40
#: card reading in the sampled worlds of the Classic family: no natural pair of a rank a seat passed on
READ_PASSES = True  # with pass_danger 0.25: 65.4% against BasicPlayer over 400 games (docs/experiments.md)
#: the learned value that scores the rollouts' leaves (canasta.players.value.VALUE_MODELS): linear-v1's weights
#: in 4-player Classic, weights of its own in 2-player Classic (level with played-out rollouts there, and a
#: fixed cost), and weights over the score's items in Hand and Foot, Triple Play and American (ahead of
#: played-out rollouts on the same deals): docs/experiments.md, "Value leaves"
VALUE_MODEL = "linear-tables"


@dataclass(frozen=True)
class ExpertSettings:
    """How the expert searches. The defaults are the shipped player (the ``expert`` level); a level is a
    settings object (:mod:`canasta.players.levels`), and the arena sets fields as ``expert:key=value``.

    Budget: ``worlds`` sampled deals a decision (None: ``value_worlds`` where rollouts end in the value, which
    are short, ``rollout_worlds`` elsewhere), at most ``max_rollouts`` rollouts, at most ``max_steps`` rollout
    actions over a decision (a bound on the work that needs no clock; two worlds at least), rollouts of at most
    ``max_rollout`` actions, or ``horizon`` where they end in the value; ``seconds``, an optional wall-clock
    cap a decision (play is no longer reproducible once it cuts a search short).
    Search: ``margin_se``, the standard errors of paired gain a move needs to overrule the base policy;
    ``discards``, how many of the base policy's cheapest discards are searched (Classic family).
    Model: ``value``, the learned value at the leaves (:data:`canasta.players.value.VALUE_MODELS`);
    ``read_passes``, card reading of pile passes in the worlds; ``style``, the base and rollout policy's
    style (None: the variant's, :data:`VARIANT_STYLES`, else :data:`EXPERT_STYLE`).
    """

    worlds: int | None = None
    value_worlds: int = VALUE_WORLDS
    rollout_worlds: int = WORLDS
    max_rollouts: int = MAX_ROLLOUTS
    max_steps: int = MAX_STEPS
    max_rollout: int = MAX_ROLLOUT_ACTIONS
    horizon: int = HORIZON
    seconds: float | None = None
    margin_se: float = MARGIN_SE
    discards: int = CANDIDATE_DISCARDS
    value: str = VALUE_MODEL
    read_passes: bool = READ_PASSES
    style: BasicStyle | None = None


class _CardsSeen(NamedTuple):
    """The cards a seat's observation shows, as codes (``seen``: all of them together)."""

    hand: list[int]
    pile: list[int]
    melds: list[list[list[Any]]]
    red_threes: list[list[int]]
    removed: list[list[int]]
    aside: list[int]
    seen: list[int]


def _cards_seen(obs: Observation) -> _CardsSeen:
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
    return _CardsSeen(hand, pile, melds, red_threes, removed, aside, seen)


def determinize(obs: Observation, rng: random.Random, read_passes: bool = False) -> Game:
    """A full position consistent with ``obs``: unseen cards dealt at random (with ``read_passes``, no
    hidden hand holds a natural pair of a rank its seat passed on: ``card_reading.respect_passes``).

    Raises CanastaError (or ValueError) if the observation cannot be completed.
    """
    players: int = obs["players"]
    variant = cast(Classic, find_variant(obs["variant"])(players, obs["rules"]))
    seat: int = obs["seat"]
    side_of = [variant.side_of(s) for s in range(players)]
    unseen = [0] * NUM_CODES
    for c in variant.deck():
        unseen[c] += 1
    hand, pile, melds, red_threes, removed, aside, seen = _cards_seen(obs)
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
    for s in range(players):
        if s == seat:
            hands.append(hand)
        else:
            n = obs["hand_sizes"][s] - len(known[s])
            if n > len(pool):
                raise ValueError("too few unseen cards for the hidden hands")
            dealt = pool[:n]
            del pool[:n]
            if passed is not None and passed[s]:
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
    """PIMC search with BasicPlayer rollouts; see the module docstring. ``settings``: :class:`ExpertSettings`."""

    name = "expert"

    def __init__(self, seed: int | str | None = 0, settings: ExpertSettings | None = None) -> None:
        self.settings = settings = ExpertSettings() if settings is None else settings
        self.seed = seed
        self.worlds = None if settings.worlds is None else max(1, settings.worlds)
        self.value_worlds = max(1, settings.value_worlds)
        self.rollout_worlds = max(1, settings.rollout_worlds)
        self.max_rollouts = max(1, settings.max_rollouts)
        self.max_steps = max(1, settings.max_steps)
        self.max_rollout = settings.max_rollout
        self.horizon = max(0, settings.horizon)
        self.seconds = settings.seconds
        self.margin_se = settings.margin_se
        self.discards = max(1, settings.discards)
        self.leaf_value: position_value.PositionValue = position_value.load_value(settings.value)
        self.read_passes = settings.read_passes
        #: the base policy's style: as given, or by default the variant's (VARIANT_STYLES, else EXPERT_STYLE)
        self.style = settings.style
        self._bases: dict[str, BasicPlayer] = {}
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
        if len(legal) == 1 or obs["phase"] in ("answer", "pass") or _obvious(obs, basic_choice):
            return basic_choice, basic_reason
        digest = hashlib.sha256(json.dumps(obs, sort_keys=True, default=str).encode()).hexdigest()
        rng = random.Random(f"{self.seed}/{digest}")
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        candidates = self.candidates(obs, legal, base, basic_choice)
        if len(candidates) == 1:
            return basic_choice, basic_reason
        worlds = max(1, min(self.world_budget(obs), self.max_rollouts // len(candidates)))
        values, sampled = self.sample_values(obs, legal, candidates, worlds, rng, self.max_steps, deadline)
        tried = [a for a in candidates if values[a]]
        if not tried:
            return basic_choice, basic_reason
        means = {a: sum(values[a].values()) / len(values[a]) for a in tried}
        best = proposed = max(tried, key=lambda a: (means[a], a == basic_choice))
        if best != basic_choice and values.get(basic_choice):
            # Leave BasicPlayer's choice only for a gain that stands out from the noise of the
            # sampled deals: paired differences in the same worlds, mean above `margin_se` standard errors.
            diffs = [v - values[basic_choice][w] for w, v in values[best].items() if w in values[basic_choice]]
            if not self._significant(diffs, self.margin_se):
                best = basic_choice
        self.last_search = SearchRecord(basic_choice, proposed, best, values)
        if best == basic_choice:
            score = f"{means[best]:+.0f}" if best in means else "n/a"
            return best, f"{basic_reason} (search: {score} over {sampled} sampled deals)"
        from canasta.notation import format_action
        beside = f", {format_action(basic_choice)} {means[basic_choice]:+.0f}" if basic_choice in means else ""
        return best, (f"best expected hand margin {means[best]:+.0f} over {sampled} sampled deals"
                      f" (of {len(tried)} moves{beside})")

    def candidates(self, obs: Observation, legal: list[Action], base: BasicPlayer,
                   basic_choice: Action) -> list[Action]:
        """The moves searched: ``legal`` with the discards cut to the base policy's ``discards`` cheapest."""
        return candidate_discards(obs, legal, self.discards, base.style, keep=basic_choice)

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
        return partial(determinize, read_passes=self.read_passes)

    def world_budget(self, obs: Observation) -> int:
        """Worlds to sample (before ``max_rollouts`` caps them): the ``worlds`` given, or by default
        ``value_worlds`` where rollouts end in the value (they are short) and ``rollout_worlds`` elsewhere."""
        if self.worlds is not None:
            return self.worlds
        valued = self.leaf_value.supports_table(obs["variant"], obs["players"])
        return self.value_worlds if valued else self.rollout_worlds

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
            got = self._bases[variant] = BasicPlayer(style=style)
        return got

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
        valued = self.leaf_value.supports_table(g.variant.name, g.num_players)
        limit = min(self.horizon, self.max_rollout) if valued else self.max_rollout
        while not g.is_over and g.hand_no == hand_no and steps < limit:
            actor = g.actor
            legal = g.legal_actions()
            if not legal:  # an approximate reconstruction reached a dead end: score it as it stands
                break
            g.push(basic.choose(g.observation(actor), legal))
            steps += 1
        if valued and not g.is_over and g.hand_no == hand_no:
            # the value is the side's margin over the opponents' mean; hand_margins' is over all sides' mean
            k = g.num_sides
            return self.leaf_value(g, side) * (k - 1) / k, steps
        return hand_margins(g, before)[side], steps
