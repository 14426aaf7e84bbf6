"""Canasta as an OpenSpiel Python game (``python_canasta``), for OpenSpiel's algorithms.

>>> import pyspiel
>>> import canasta.env.openspiel_game  # registers the game
>>> game = pyspiel.load_game("python_canasta", {"players": 2, "variant": "classic"})

Parameters: ``variant`` (default "classic"), ``players`` (default 2; any count the variant is played by, its
``player_counts``: Classic, Cuban and Uruguayan 2, 3, 4, 6; Hand and Foot 2 to 8; Burraco 2, 4; Mille 2; the rest 4),
``hands`` (hands per episode, default 1; 0: the whole game, as in the PettingZoo and Gymnasium
environments, capped at :data:`MAX_GAME_HANDS` hands), ``reward`` ("margin" or "win") and
``reward_scale`` (0.01), as in canasta.env.rewards, ``num_deals`` (chance outcomes of the deal,
default 10000), ``rules`` (table rules as a JSON object, default "{}").

**Chance.** The engine shuffles from a seed (``Game(seed=...)``; each hand's
shuffle, and a reshuffle of the pile where a table rule allows it, follow from
that seed). The game models this as one explicit chance node at the start whose
``num_deals`` equally likely outcomes are the seed: after it every draw is
determined by the shuffled stock, and nothing else is random. ``chance_outcomes()``
returns a copy of a list built once per ``num_deals``. Algorithms that *sample* chance
(MCTS, ISMCTS, outcome- and external-sampling MCCFR, ``evaluate_bots``, random
simulation) run on it; algorithms that *enumerate* every chance outcome and the tree
below it (CFR, expectiminimax, exact best response, ``get_all_states``) do not in
practice: each deal is a tree of hundreds of decisions.

**Actions** are the indices of canasta.encoding (``num_actions(variant)`` distinct
actions, one per kind of card use). **Returns** are canasta.env.rewards' (the same
numbers as the PettingZoo and Gymnasium environments): by default each player gets its
side's score over the episode's hands minus the mean over the sides, times 0.01 (zero-sum).
An episode cut at ``max_game_length`` (:data:`MAX_STEPS_PER_HAND` actions a hand) is a
forfeit of the side to act. The terminal state shows the finished hand (no next deal).

**Observations.** ``observation_tensor`` is canasta.encoding's vector of
``Game.observation(player)`` (canasta.encoding.encode_position, read from the engine's codes), float32 as
OpenSpiel stores tensors (C++ ``float``), as the Gymnasium and PettingZoo environments serve it;
``observation_string`` the same view as text.
``information_state_string`` is the player's perfect-recall view: its own dealt
cards and draws, every public action of every seat in order, and its current
view of the table. There is no information-state *tensor*
(``provides_information_state_tensor=False``): ``information_state_tensor()`` raises,
as OpenSpiel's games without one do (the observation vector is not perfect recall).
``resample_from_infostate`` deals the cards the player cannot
see (the other hands and the stock) at random, keeping in each other hand the
cards the player saw go there (taken from the pile, or returned by a retract),
so OpenSpiel's ``ISMCTSBot`` runs on it. A hand is never dealt a card the rules lay
out as it comes into a hand (red threes; more threes than American lets a seat keep):
every resampled state passes ``canasta.validation.validate_position``, the invariants
random play keeps (tests/test_env_openspiel_resample.py).

**Speed.** ``clone()`` is the engine's ``Game.copy()``: OpenSpiel clones a Python state by building a new
initial state and deep-copying each attribute, and here the config is shared and the episode copies itself
(docs/environments.md). A resample is one clone and one draw from the sampler, which seeds its shuffle:
:func:`seeded_resampler` makes OpenSpiel's ``ISMCTSBot`` reproducible.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from canasta.cards import NUM_CODES, format_cards
from canasta.encoding import decode, describe_index, encode_position, legal_indices, num_actions, obs_size
from canasta.engine.actions import Action
from canasta.engine.american import AmericanGame
from canasta.engine.feet import FootGame
from canasta.engine.game import Game
from canasta.engine.idmelds import MeldIdGame
from canasta.env.episode import Episode
from canasta.env.rewards import DEFAULT_REWARD_SCALE, check_reward_mode, reward_bound
from canasta.notation import format_action
from canasta.validation import THREE_CODES, held_threes_allowed, never_held

SHORT_NAME = "python_canasta"
MAX_STEPS_PER_HAND = 5000
#: a whole game (``hands=0``) ends after this many hands if no side has won by then
MAX_GAME_HANDS = 100
_DEFAULTS: dict[str, Any] = {"variant": "classic", "players": 2, "hands": 1, "reward": "margin",
                             "reward_scale": DEFAULT_REWARD_SCALE, "num_deals": 10000, "rules": "{}"}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Canasta (canasta engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,  # Hand and Foot seats 6 or 8; every other variant at most 4
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


class _Config:
    """The game's parameters, kept by each state (a state must not hold the Python game object)."""

    def __init__(self, params: dict[str, Any]) -> None:
        p = {**_DEFAULTS, **params}
        self.variant = str(p["variant"])
        self.players = int(p["players"])
        self.hands = int(p["hands"])
        if self.hands < 0:
            raise ValueError(f"hands is a number of hands, or 0 for the whole game, not {self.hands}")
        self.reward = check_reward_mode(str(p["reward"]))
        self.reward_scale = float(p["reward_scale"])
        self.num_deals = int(p["num_deals"])
        self.rules: dict[str, Any] = json.loads(str(p["rules"]))
        #: hands an episode may last, and the actions that truncate it
        self.max_hands = self.hands or MAX_GAME_HANDS
        self.max_steps = MAX_STEPS_PER_HAND * self.max_hands
        self._never_held: frozenset[int] | None = None

    def never_held(self, game: Game) -> frozenset[int]:
        """canasta.validation.never_held of the game's rules (the same for every position), computed once."""
        if self._never_held is None:
            self._never_held = frozenset(never_held(game))
        return self._never_held

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self  # never changed once built: states and their clones share it


class CanastaGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; see the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        config = _Config(p)
        probe = Game(config.variant, config.players, 0, config.rules)  # validates the parameters
        bound = reward_bound(probe, config.reward, config.reward_scale, config.max_hands)
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(config.variant),
            max_chance_outcomes=config.num_deals,
            num_players=config.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=config.max_steps,
        )
        super().__init__(_GAME_TYPE, info, p)
        # set after the base class is initialised (pybind11 drops attributes set before)
        self.variant = config.variant
        self.players = config.players
        self.hands = config.hands
        self.num_deals = config.num_deals
        self.rules = config.rules
        self.config = config

    def new_initial_state(self) -> CanastaState:
        return CanastaState(self, self.config)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CanastaObserver:
        return CanastaObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self.variant,
                               self.players)


@functools.lru_cache(maxsize=8)
def _deal_outcomes(num_deals: int) -> tuple[tuple[int, float], ...]:
    return tuple((i, 1.0 / num_deals) for i in range(num_deals))


class CanastaState(pyspiel.State):  # type: ignore[misc]
    """One position: the chance node before the deal, then an engine Game in an Episode."""

    def __init__(self, game: Any, config: _Config | None = None) -> None:
        super().__init__(game)
        # OpenSpiel's clone() builds a new initial state, then deep-copies each attribute (the config is
        # shared, the episode copied by the engine's Game.copy): the game's parsed config saves parsing again
        self._g = config if config is not None else _Config(game.get_parameters())
        self.episode: Episode | None = None

    @property
    def game(self) -> Game | None:
        """The engine game (None before the deal)."""
        return None if self.episode is None else self.episode.game

    # ---------------------------------------------------------------- API
    def current_player(self) -> int:
        if self.episode is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.episode.done:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.episode.game.actor

    def _terminal(self) -> bool:
        return self.episode is not None and self.episode.done

    def is_terminal(self) -> bool:
        return self._terminal()

    def _legal_indices(self) -> dict[int, Action]:
        """Index -> legal action of the position, computed once (OpenSpiel asks for the legal actions, then
        applies one: each asked the engine again)."""
        episode = self.episode
        assert episode is not None
        if episode.legal is None:
            episode.legal = legal_indices(episode.game.legal_actions(), self._g.variant)
        return episode.legal

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal_indices())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_deal_outcomes(self._g.num_deals))

    def _apply_action(self, action: int) -> None:
        c = self._g
        if self.episode is None:
            game = Game(c.variant, c.players, int(action), c.rules)
            self.episode = Episode(game, c.hands, c.max_steps, c.reward, c.reward_scale, max_hands=c.max_hands)
            return
        chosen = self._legal_indices().get(int(action))
        if chosen is None:
            raise ValueError(f"action index {int(action)} ({describe_index(int(action), c.variant)}) is not legal here")
        self.episode.push(chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        if self.game is not None and not self._terminal() and player == self.game.actor:
            try:
                return format_action(decode(int(action), self.game.legal_actions(), self._g.variant))
            except ValueError:
                pass
        return describe_index(int(action), self._g.variant)

    def returns(self) -> list[float]:
        if self.episode is None or not self.episode.done:
            return [0.0] * self._g.players
        return list(self.episode.returns)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CanastaState:
        """A state the player cannot tell from this one: unseen cards dealt again at random.

        ``probability_sampler()`` (a float in [0, 1)) is called once and seeds the deal: a seeded sampler
        (:func:`seeded_resampler`) makes a search reproducible."""
        clone: CanastaState = self.clone()
        if clone.episode is None or clone._terminal():
            return clone
        g = clone.episode.game
        rng = random.Random(int(float(probability_sampler()) * 2**31))
        keep, pool = _unseen_cards(g, player_id)
        _shuffle(pool, rng)
        # the hands first, from the cards a hand may hold (never a red three the rules lay out at once):
        # then every valid deal of the unseen cards is equally likely
        banned = self._g.never_held(g)
        for s in range(g.num_players):
            if s != player_id:
                g.hands[s] = _deal_hand(g, s, keep[s], g.hand_sizes[s] - sum(keep[s]), pool, banned, rng)
        if isinstance(g, FootGame):
            g.feet = [[pool.pop() for _ in f[:-1]] + [top] if top is not None else [pool.pop() for _ in f]
                      for f, top in zip(g.feet, g.foot_shown, strict=True)]
            g.knees = [[pool.pop() for _ in k] for k in g.knees]
            g.passing = [[[pool.pop() for _ in p[:-1]] + [p[-1]] for p in piles] for piles in g.passing]
            if g.phase == "pass":  # the others' choices are hidden until all have chosen
                g.kept = [k if s == player_id or not k else rng.choice((1, 2)) for s, k in enumerate(g.kept)]
        if isinstance(g, MeldIdGame):
            g.extra_piles = [[pool.pop() for _ in p] for p in g.extra_piles]
            g.face_down = [[pool.pop() for _ in p] for p in g.face_down]
        g.stock = pool
        # the logs must not keep the true hidden cards either
        g.history = [h if h[0] == player_id or not h[2] else (h[0], h[1], ()) for h in g.history]
        g.deals = [{**d, "hands": [h if s == player_id else [] for s, h in enumerate(d["hands"])],
                    "replacements": [r if s == player_id else [] for s, r in enumerate(d["replacements"])]}
                   for d in g.deals]
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> CanastaState:
        new = CanastaState.__new__(CanastaState)
        pyspiel.State.__init__(new, self.get_game())
        new._g = self._g
        new.episode = None if self.episode is None else self.episode.copy()
        return new

    def __str__(self) -> str:
        g = self.game
        if g is None:
            return "deal pending"
        return json.dumps(g.to_dict(), sort_keys=True)


#: a hand's counts with no card in it
_NO_CARDS = (0,) * NUM_CODES


def _unseen_cards(g: Game, player: int) -> tuple[list[Sequence[int]], list[int]]:
    """(per seat, the counts of the cards everyone saw go into its hand; every card ``player`` cannot see)."""
    keep: list[Sequence[int]] = []
    pool = list(g.stock)
    for s in range(g.num_players):
        known = g.known[s]  # cards everyone saw go into that hand (the engine's known_hands)
        if s == player or not known:
            keep.append(_NO_CARDS)
            if s != player:  # hands are sparse count vectors
                pool.extend([c for c, n in enumerate(g.hands[s]) if n for _ in range(n)])
            continue
        kept = [0] * NUM_CODES
        for c in known:
            kept[c] += 1
        keep.append(kept)
        pool.extend([c for c, n in enumerate(g.hands[s]) if n for _ in range(n - kept[c])])
    if isinstance(g, MeldIdGame):  # Burraco: the pozzetti and face-down pozzetti are unseen by everyone
        for p in [*g.extra_piles, *g.face_down]:
            pool.extend(p)
    if isinstance(g, FootGame):  # Hand and Foot: every foot (and Triple Play's knee) is face down, the player's own too
        for f in [*g.feet, *g.knees]:
            pool.extend(f)
        # the hand-passing deal: the turned-up top cards (last) of the dealt piles and feet are public
        for top in g.foot_shown:
            if top is not None:
                pool.remove(top)
        for piles in g.passing:
            for p in piles:
                pool.extend(p[:-1])
    return keep, pool


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle in place: sorted by independent uniform keys, every order equally likely (a third of the
    time of ``rng.shuffle``, which draws bounded integers one by one)."""
    uniform = rng.random
    cards.sort(key=lambda _card: uniform())


def _deal_hand(game: Game, seat: int, kept: Sequence[int], n: int, pool: list[int], banned: frozenset[int],
               rng: random.Random) -> list[int]:
    """``seat``'s hand: the ``kept`` counts plus ``n`` cards taken from the end of the shuffled ``pool``,
    skipping the cards the rules never leave in a hand (``banned``: canasta.validation.never_held), which
    go back into the pool at uniformly random places (so the pool stays a uniformly shuffled one)."""
    counts = list(kept)
    if not isinstance(game, AmericanGame) and len(pool) >= n and banned.isdisjoint(pool[len(pool) - n:]):
        for c in pool[len(pool) - n:]:  # the usual case: no card to skip
            counts[c] += 1
        del pool[len(pool) - n:]
        return counts
    american = isinstance(game, AmericanGame)  # Modern American: a count of threes per seat instead
    threes_left = held_threes_allowed(game, seat) - sum(counts[c] for c in THREE_CODES) if isinstance(game, AmericanGame) else n
    skipped: list[int] = []
    while n:
        if not pool:
            raise ValueError(f"too few unseen cards to deal seat {seat} a hand the rules allow")
        c = pool.pop()
        if c in banned or (american and c in THREE_CODES and threes_left <= 0):
            skipped.append(c)
            continue
        if american and c in THREE_CODES:
            threes_left -= 1
        counts[c] += 1
        n -= 1
    for c in skipped:  # inserting at a uniform place keeps a uniformly random order uniformly random
        pool.insert(int(rng.random() * (len(pool) + 1)), c)
    return counts


def seeded_resampler(random_state: Any) -> Any:
    """A resampler for OpenSpiel's Python ``ISMCTSBot.set_resampler`` drawing from ``random_state`` (the
    bot's ``numpy.random.RandomState``): the bot's own ``resample_from_infostate`` passes a system-seeded
    ``pyspiel.UniformProbabilitySampler``, so two searches with one ``random_state`` differ without it.

    >>> bot = ISMCTSBot(game, evaluator, 2.0, 10, random_state=np.random.RandomState(7))
    >>> bot.set_resampler(seeded_resampler(bot._random_state))
    """
    def resample(state: Any, player: int) -> Any:
        return state.resample_from_infostate(player, random_state.uniform)

    return resample


#: action -> its text: an information state writes every action of the game so far, and search asks for
#: one at every node (emptied past the limit)
_ACTION_TEXTS: dict[Action, str] = {}
_ACTION_TEXTS_LIMIT = 100_000


def information_state_text(game: Game, player: int) -> str:
    """The player's perfect-recall view (see the module docstring)."""
    parts = [f"p{player}"]
    for d in game.deals:
        parts.append(f"hand {d['hand']} dealt {format_cards(d['hands'][player])}"
                     f" +{format_cards(d['replacements'][player])} up {format_cards(d['upcards'])}")
    # Hand and Foot's hand-passing deal: the choices made so far (the last actions) are hidden from the others
    hidden = len(game.history) - (sum(1 for k in game.kept if k) if isinstance(game, FootGame) and game.phase == "pass" else 0)
    texts = _ACTION_TEXTS
    if len(texts) > _ACTION_TEXTS_LIMIT:
        texts.clear()
    for i, (s, a, got) in enumerate(game.history):
        if i >= hidden and s != player:
            parts.append(f"{s}:keep")
            continue
        text = texts.get(a)
        if text is None:
            text = texts[a] = format_action(a)
        parts.append(f"{s}:{text} [{format_cards(got)}]" if s == player and got else f"{s}:{text}")
    parts.append(observation_text(game, player))
    return "\n".join(parts)


def observation_text(game: Game, player: int) -> str:
    obs = game.observation(player)
    keep = ("seat", "hand_no", "turn", "actor", "phase", "hand", "hand_sizes", "stock_size", "pile", "frozen",
            "melds", "red_threes", "removed", "opened", "minimum", "pending_value", "scores", "asked", "permission")
    passing = ("pass_shown", "kept", "foot_shown")  # Hand and Foot's hand-passing deal, with that table rule
    return json.dumps({k: obs[k] for k in (*keep, *passing) if k in obs}, sort_keys=True, separators=(",", ":"))


class CanastaObserver:
    """OpenSpiel PyObserver: the encoding vector as tensor; the views above as strings."""

    def __init__(self, iig_obs_type: Any, params: Any, variant: str = "classic", players: int | None = None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        #: perfect recall: the information state, which has a string (string_from) but no tensor
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(obs_size(variant, players), np.float32)  # what OpenSpiel stores (C++ float)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CanastaState, player: int) -> None:
        if self.perfect_recall:
            raise pyspiel.SpielError("python_canasta has no information state tensor "
                                     "(provides_information_state_tensor=False): use information_state_string")
        if state.game is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = encode_position(state.game, player)

    def string_from(self, state: CanastaState, player: int) -> str:
        if state.game is None:
            return f"p{player} before the deal"
        episode = state.episode
        assert episode is not None
        key = (self.perfect_recall, player)
        text = episode.texts.get(key)  # a search asks again for the same state's (ISMCTS: up to 3 times a node)
        if text is None:
            text = information_state_text(state.game, player) if self.perfect_recall else observation_text(state.game, player)
            episode.texts[key] = text
        return text


pyspiel.register_game(_GAME_TYPE, CanastaGame)
