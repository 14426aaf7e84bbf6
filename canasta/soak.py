"""``canasta soak``: random legal hands with the engine's invariants checked at every step.

Game ``i`` of a run has seed ``seed + i`` and picks every action with
``random.Random(seed + i).choice(game.legal_actions())``, performed with the
checked ``apply()``. Games are played until ``hands`` hands have finished (the
last game may stop in the middle). Checked:

at every step
    * no exception from ``legal_actions()`` or ``apply()`` (an action that
      ``legal_actions()`` listed and ``apply()`` refused is a failure too);
    * no stuck state: a game that is not over has at least one legal action;
    * no action listed twice, and (``check_listed``, the default) every listed
      action passes ``check()``, not only the one chosen;
    * card conservation: ``game.card_count() == len(game.variant.deck())``;
    * the cards shown as known to be in a hand (``known_hands``) are in it;
    * progress: no hand goes on for more than ``max_hand_actions`` actions;
    * bounded turns (issue 21: "meld then retract repeats forever"): at most one
      ``retract`` a turn, at most ``8 + 2 * c`` actions in a turn where ``c`` is the most
      cards the player held in it (every meld or addition lays down a card, and only a
      draw, a take or the one retract bring cards back), and at most
      :func:`turn_bound` turns a hand; so a hand takes at most :func:`hand_action_bound`
      actions;
    * with ``complete=True`` (``canasta soak --complete``), completeness: every candidate
      action of :func:`canasta.completeness.candidate_actions` that ``check()`` accepts is
      covered by ``legal_actions()`` up to the documented folding (a miss is a failure of
      kind ``incomplete``);

a game still going after ``max_game_hands`` hands is left there (``games_capped``)
and the run goes on with the next seed: random play seldom reaches a high target
(Cuban's 7500), and the start-of-turn copy the final-table check takes carries the
game's whole history, so an endless game would make the run quadratic;

for every finished hand (an entry of ``game.hand_results``)
    * each side's ``total`` is the sum of its ``items``;
    * the cumulative ``totals`` are the running sum of the side totals, and the
      game's ``scores`` are the last cumulative totals;
    * the final table is rebuilt (a copy of the game taken at the start of the
      turn replays the turn's actions, with the next deal suppressed) and
      rescored with :func:`canasta.scoring.score_side`; the result must equal
      the recorded one; every meld on it must be a valid finished meld
      (``variant.meld_problem``) of the rank it is filed under, and the player
      who went out must hold no card (meld-id variants such as Burraco: every
      meld is its kind's canonical arrangement, ``variant.arrange_meld``, and the
      side is rescored with :func:`canasta.scoring.score_meld_side`); the replay must record the same result
      (determinism, and independence of ``Game.copy``);

for every finished game
    * a unique winner at or above the target score, and no legal action left.

Each failure carries the game seed and the index of the action (0-based within
its game) so that it can be reproduced with :func:`soak_position`.
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from typing import Any

from canasta.completeness import completeness_misses
from canasta.engine.actions import RETRACT, Action
from canasta.engine.feet import FootGame
from canasta.engine.game import P_DRAW, WILD_RANK, Game
from canasta.engine.idmelds import MeldIdGame
from canasta.engine.idturn import SambaGame
from canasta.errors import IllegalActionError
from canasta.notation import format_action
from canasta.scoring import HandScore, score_meld_side, score_side
from canasta.variants.base import is_wild_code

#: Failures kept in full in the result (all are counted).
MAX_FAILURES_KEPT = 100


class _Failure(Exception):
    """An invariant broken: stops the current game."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _check_hand_sums(result: HandScore, prev_totals: list[int], num_sides: int) -> list[int]:
    """Check one hand's arithmetic; return its cumulative totals."""
    sides = result["sides"]
    if len(sides) != num_sides or len(result["totals"]) != num_sides:
        raise _Failure("score-shape", f"hand {result['hand']}: {len(sides)} side scores and "
                                      f"{len(result['totals'])} totals for {num_sides} sides")
    for side, s in enumerate(sides):
        if s["total"] != sum(s["items"].values()):
            raise _Failure("score-sum", f"hand {result['hand']}, side {side}: total {s['total']} "
                                        f"!= sum of items {sum(s['items'].values())} ({s['items']})")
    expected = [p + s["total"] for p, s in zip(prev_totals, sides, strict=True)]
    if list(result["totals"]) != expected:
        raise _Failure("score-running-sum", f"hand {result['hand']}: cumulative totals {result['totals']} "
                                            f"!= previous {prev_totals} + hand {[s['total'] for s in sides]}")
    return expected


def _check_final_table(table: Game, result: HandScore) -> None:
    """Rescore the final table of a hand and compare with ``result``."""
    v = table.variant
    n = table.num_players
    went_out = result["went_out"]
    concealed = bool(result["concealed"])
    hand_no = result["hand"]
    if concealed and went_out is None:
        raise _Failure("table", f"hand {hand_no}: concealed without anyone going out")
    special = result.get("special_hand")
    if special is not None:  # Modern American: the whole hand laid down as a special hand
        sv: Any = v  # a variant with special hands (Modern American)
        why = sv.special_hand_problem(special, table.hands[went_out]) if went_out is not None else "nobody went out"
        if why is not None:
            raise _Failure("table", f"hand {hand_no}: special hand {special!r} of seat {went_out}: {why}")
    elif went_out is not None and table.hand_sizes[went_out] != 0:
        raise _Failure("table", f"hand {hand_no}: seat {went_out} went out holding {table.hand_cards(went_out)}")
    if isinstance(table, MeldIdGame):
        _check_final_id_table(table, result)
        return
    red_total = sum(len(r) for r in table.red_threes)
    for side in range(table.num_sides):
        for rank, meld in table.melds[side].items():
            problem = v.meld_problem(list(meld.cards))
            if problem is not None:
                raise _Failure("table", f"hand {hand_no}, side {side}: meld {meld.cards} of rank {rank}: {problem}")
            naturals = {c >> 2 for c in meld.cards if not is_wild_code(c)}
            if rank != WILD_RANK and naturals != {rank}:
                raise _Failure("table", f"hand {hand_no}, side {side}: meld filed under rank {rank} holds {meld.cards}")
        seats = [s for s in range(n) if v.side_of(s) == side]
        mine = went_out is not None and v.side_of(went_out) == side
        if special is not None and mine:
            expected_special = sv.score_special(special)
            if table.melds[side] or dict(expected_special) != dict(result["sides"][side]):
                raise _Failure("rescore", f"hand {hand_no}, side {side}: recorded {result['sides'][side]}, "
                                          f"the special hand {special!r} scores {dict(expected_special)}")
            continue
        melds = [(m.rank, list(m.cards)) for m in table.melds[side].values()]
        hands = [table.hand_cards(s) for s in seats]
        if isinstance(table, FootGame):  # Hand and Foot: closed books are melds; an unplayed foot counts as hand
            for rank, cards in table.books[side]:
                problem = v.meld_problem(list(cards))
                if problem is not None or len(cards) != v.MELD_MAX:
                    raise _Failure("table", f"hand {hand_no}, side {side}: book {cards}: {problem or 'not seven cards'}")
                melds.append((rank, list(cards)))
            hands = [h + list(table.knees[s]) + list(table.feet[s]) for h, s in zip(hands, seats, strict=True)]
        expected = score_side(
            v,
            melds=melds,
            red_threes=list(table.red_threes[side]),
            hands=hands,
            went_out=mine,
            concealed=concealed and mine,
            all_red_threes=len(table.red_threes[side]) == 4 and red_total == 4,
            penalties=list(table.penalties[side]),
            removed_black_threes=len(table.removed[side]),
        )
        recorded = result["sides"][side]
        if dict(expected) != dict(recorded):
            raise _Failure("rescore", f"hand {hand_no}, side {side}: recorded {recorded}, "
                                      f"the final table scores {dict(expected)}")


def _check_final_id_table(table: MeldIdGame, result: HandScore) -> None:
    """Rescore the final table of a meld-id variant (Burraco): every meld is its kind's canonical
    arrangement (``variant.arrange_meld``), and :func:`score_meld_side` gives the recorded score."""
    v: Any = table.variant
    hand_no = result["hand"]
    went_out = result["went_out"]
    for side in range(table.num_sides):
        for meld_id, meld_ in table.melds[side].items():
            meld: Any = meld_
            got = v.arrange_meld(list(meld.cards))
            if isinstance(got, str):
                raise _Failure("table", f"hand {hand_no}, side {side}: meld #{meld_id} {meld.cards}: {got}")
            kind, (order, wild_index, _low) = got
            if kind != meld.kind or (kind == "run" and (list(order) != meld.cards or wild_index != meld.wild_index)):
                raise _Failure("table", f"hand {hand_no}, side {side}: meld #{meld_id} {meld.kind} {meld.cards} "
                                        f"(wild at {meld.wild_index}) is arranged {kind} {order} (wild at {wild_index})")
            if kind == "set" and meld.rank and sum(1 for c in meld.cards if is_wild_code(c)) > v.MAX_WILDS:
                raise _Failure("table", f"hand {hand_no}, side {side}: set #{meld_id} {meld.cards}: too many wild cards")
            if len(meld.cards) > v.CANASTA_SIZE and isinstance(table, SambaGame):
                raise _Failure("table", f"hand {hand_no}, side {side}: meld #{meld_id} {meld.cards}: over seven cards")
        seats = [s for s in range(table.num_players) if v.side_of(s) == side]
        if isinstance(table, SambaGame):  # Samba: Classic's turn on meld ids (red threes, going out, penalties)
            reds = len(table.red_threes[side])
            id_melds: list[Any] = list(table.melds[side].values())
            expected = v.score_team(
                melds=[(m.kind, list(m.cards), m.wilds) for m in id_melds],
                red_threes=reds, all_red_threes=reds == v.red_threes_in_pack,
                hands=[table.hand_cards(s) for s in seats],
                went_out=went_out is not None and v.side_of(went_out) == side,
                penalties=list(table.penalties[side]))
            if dict(expected) != dict(result["sides"][side]):
                raise _Failure("rescore", f"hand {hand_no}, side {side}: recorded {result['sides'][side]}, "
                                          f"the final table scores {dict(expected)}")
            continue
        expected = score_meld_side(
            v, melds=[(list(m.cards), m.wilds) for m in table.melds[side].values()],
            hands=[table.hand_cards(s) + list(table.face_down[s]) for s in seats],
            closed=went_out is not None and v.side_of(went_out) == side,
            pile_missed=v.EXTRA_PILES > 0 and table.piles_taken[side] == 0)
        recorded = result["sides"][side]
        if dict(expected) != dict(recorded):
            raise _Failure("rescore", f"hand {hand_no}, side {side}: recorded {recorded}, "
                                      f"the final table scores {dict(expected)}")


#: Actions a turn may take besides laying down and taking back cards (draw or take, ask, an answer,
#: retract, discard or end, a three laid out, a special hand), with room to spare.
TURN_BASE_ACTIONS = 8


def turn_bound(game: Game) -> int:
    """Most turns a hand may take: every turn draws from the stock (whose cards, with the pile turned
    over as the table rules allow, number at most ``(restocks + 1)`` times the deck) or takes the pile
    and so lays at least one card down for good (Burraco, whose take lays nothing down, ends a hand after
    an orbit of one-card takes): twice the deck per restock, with room to spare."""
    v = game.variant
    limit: int | None = getattr(v, "restock_limit", None)
    restocks = 1 if limit is None else limit
    return 2 * len(v.deck()) * (restocks + 2)


def hand_action_bound(game: Game) -> int:
    """Most actions a hand may take: :func:`turn_bound` turns of at most ``8 + 2 * deck`` actions."""
    return turn_bound(game) * (TURN_BASE_ACTIONS + 2 * len(game.variant.deck()))


def _replay_turn(checkpoint: Game, actions: list[Action]) -> Game:
    """Replay the actions since ``checkpoint`` with the next deal suppressed: the final table."""
    table = checkpoint.copy()
    table.deals_next_hand = False
    before = len(table.hand_results)
    for a in actions:
        table.apply(a)
    if len(table.hand_results) != before + 1:
        raise _Failure("replay", f"replaying {len(actions)} actions from the start of the turn "
                                 f"finished {len(table.hand_results) - before} hands, not 1")
    return table


class _CheckedGame:
    """One random game played with every invariant checked at every step; what a failure record reports (the
    action's index in the game, the hand, the action) is kept as it goes."""

    def __init__(self, game_seed: int, *, variant: str, players: int, rules: dict[str, Any] | None,
                 stats: dict[str, int], kinds: dict[str, int], endings: dict[str, int]) -> None:
        self.index = 0  # index (within the game) of the action being taken
        self.hand_no = 1
        self.action: Action | None = None
        self.hands_here = 0
        self.stats, self.kinds, self.endings = stats, kinds, endings
        self.game = game = Game(variant, players, game_seed, rules)
        self.rng = random.Random(game_seed)
        self.expected_cards = len(game.variant.deck())
        self.totals = [0] * game.num_sides
        self.seen = 0  # hand results checked
        self.checkpoint = game.copy()  # the start of the turn: the replay point for the final table
        self.since: list[Action] = []
        self.meld_shapes: dict[tuple[int, ...], bool] = {}  # completeness: arrange_meld's verdicts, one variant a game
        self.hand_start = 0  # index of the first action of the current hand
        self.turn_key = (game.hand_no, game.turn)
        self.turn_actions = self.turn_retracts = self.turns_in_hand = 0
        self.turn_most_cards = max(game.hand_sizes)
        if game.card_count() != self.expected_cards:
            raise _Failure("cards", f"the deal leaves {game.card_count()} cards in play, the deck has {self.expected_cards}")

    def play(self, *, hands_left: int, check_listed: bool, max_hand_actions: int, max_game_hands: int,
             complete: bool) -> None:
        game, stats = self.game, self.stats
        while True:
            while self.seen < len(game.hand_results):  # hands ended by a deal, not by an action: arithmetic only
                self.totals = _check_hand_sums(game.hand_results[self.seen], self.totals, game.num_sides)
                self.seen += 1
                self.hands_here += 1
                stats["hands"] += 1
                stats["hands_unrescored"] += 1
            if self.hands_here >= max_game_hands and not game.is_over and self.hands_here < hands_left:
                stats["games_capped"] += 1
                return
            if game.is_over or self.hands_here >= hands_left:
                break
            self.hand_no = game.hand_no
            self.action = None
            self._check_turn_bounds(max_hand_actions)
            legal = self._checked_legal_actions(check_listed, complete)
            self.action = self.rng.choice(legal)
            self._apply_checked(self.action)
            self.index += 1
        if game.is_over:
            self.action = None
            self._check_game_over()

    def _check_turn_bounds(self, max_hand_actions: int) -> None:
        game = self.game
        if self.index - self.hand_start >= max_hand_actions:
            raise _Failure("endless", f"hand {self.hand_no} still going after {self.index - self.hand_start:,} actions "
                                      f"(stock {len(game.stock)}, pile {len(game.pile)}, hand sizes {game.hand_sizes}); "
                                      f"now legal: {[format_action(a) for a in game.legal_actions()]}")
        if (game.hand_no, game.turn) != self.turn_key:  # a new turn
            self.turns_in_hand = 1 if game.hand_no != self.turn_key[0] else self.turns_in_hand + 1
            self.turn_key = (game.hand_no, game.turn)
            self.turn_actions = self.turn_retracts = 0
            self.turn_most_cards = game.hand_sizes[game.turn]
            if self.turns_in_hand > turn_bound(game):
                raise _Failure("endless", f"hand {self.hand_no}: {self.turns_in_hand} turns, over the bound {turn_bound(game)}")

    def _checked_legal_actions(self, check_listed: bool, complete: bool) -> list[Action]:
        """The legal actions, checked: complete (with ``complete``), none twice, each accepted by check()."""
        game, stats = self.game, self.stats
        legal = game.legal_actions()
        if complete:
            checked, misses = completeness_misses(game, self.meld_shapes)
            stats["positions_checked"] += 1
            stats["candidates_checked"] += checked
            if misses:
                stats["misses"] += len(misses)
                self.action = misses[0]
                raise _Failure("incomplete", f"check() accepts {[format_action(a) for a in misses]}, "
                                             f"legal_actions() lists {[format_action(a) for a in legal]}")
        if not legal:
            raise _Failure("stuck", f"phase {game.phase!r}, seat {game.actor} to act, no legal action")
        if len(set(legal)) != len(legal):
            raise _Failure("duplicate", f"legal_actions() lists an action twice: {[format_action(a) for a in legal]}")
        if check_listed:
            for a in legal:
                try:
                    game.check(a)
                except IllegalActionError as exc:
                    self.action = a
                    raise _Failure("refused", f"legal_actions() listed it, check() refuses it: {exc}") from exc
        return legal

    def _apply_checked(self, action: Action) -> None:
        """Apply a listed action, then check the turn's bounds, the cards and what each seat is shown to hold."""
        game, stats = self.game, self.stats
        if game.phase == P_DRAW:  # start of a turn: the replay point for the final table
            self.checkpoint = game.copy()
            self.since = []
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise _Failure("refused", f"legal_actions() listed it, apply() refused it: {exc}") from exc
        self.since.append(action)
        self.turn_actions += 1
        self.turn_retracts += action.kind == RETRACT
        self.turn_most_cards = max(self.turn_most_cards, game.hand_sizes[game.turn] if game.turn == self.turn_key[1] else 0)
        stats["max_retracts_per_turn"] = max(stats["max_retracts_per_turn"], self.turn_retracts)
        stats["max_hand_actions_seen"] = max(stats["max_hand_actions_seen"], self.index + 1 - self.hand_start)
        if self.turn_retracts > 1:
            raise _Failure("retract-loop", f"hand {self.hand_no}: {self.turn_retracts} retracts in one turn")
        if self.turn_actions > TURN_BASE_ACTIONS + 2 * self.turn_most_cards:
            raise _Failure("endless", f"hand {self.hand_no}: {self.turn_actions} actions in one turn, over the bound "
                                      f"{TURN_BASE_ACTIONS} + 2 x {self.turn_most_cards} cards held")
        stats["actions"] += 1
        self.kinds[action.kind] = self.kinds.get(action.kind, 0) + 1
        if game.card_count() != self.expected_cards:
            raise _Failure("cards", f"{game.card_count()} cards in play, the deck has {self.expected_cards}")
        for s, known in enumerate(game.known):
            if any(known.count(c) > game.hands[s][c] for c in known):
                raise _Failure("known", f"seat {s} is shown to hold {known} but does not")
        if len(game.hand_results) > self.seen:  # this action ended a hand
            self._check_hand_end(game.hand_results[self.seen])

    def _check_hand_end(self, result: dict[str, Any]) -> None:
        """A hand just ended: its sums, and the final table rebuilt by replaying the turn, agree with the result."""
        game, stats = self.game, self.stats
        self.totals = _check_hand_sums(result, self.totals, game.num_sides)
        table = _replay_turn(self.checkpoint, self.since)
        if table.hand_results[-1] != result:
            raise _Failure("replay", f"hand {result['hand']}: the replay recorded {table.hand_results[-1]}, "
                                     f"the game {result}")
        _check_final_table(table, result)
        how = "no_one_out" if result["went_out"] is None else ("concealed" if result["concealed"] else "went_out")
        self.endings[how] = self.endings.get(how, 0) + 1
        self.seen += 1
        self.hands_here += 1
        stats["hands"] += 1
        stats["hands_rescored"] += 1
        self.checkpoint = game.copy()
        self.since = []
        self.hand_start = self.index + 1

    def _check_game_over(self) -> None:
        """The game's end: the running sums, the winner by the variant's rule, and no legal action after it."""
        game = self.game
        if game.scores != self.totals:
            raise _Failure("score-running-sum", f"game scores {game.scores} != last cumulative totals {self.totals}")
        top = max(game.scores)
        per_game = game.variant.hands_per_game
        if per_game is not None:  # a game of so many hands (Hand and Foot): the highest score wins, a tie none
            if len(game.hand_results) != per_game or game.winner != (
                    game.scores.index(top) if game.scores.count(top) == 1 else None):
                raise _Failure("game-over", f"game over after {len(game.hand_results)} hands with scores "
                                            f"{game.scores} and winner {game.winner} ({per_game} hands a game)")
        elif (game.winner is None or game.scores[game.winner] != top or game.scores.count(top) != 1
                or top < game.variant.target_score):
            raise _Failure("game-over", f"game over with scores {game.scores} and winner {game.winner} "
                                        f"(target {game.variant.target_score})")
        if game.legal_actions():
            raise _Failure("game-over", "legal actions after the game is over")
        self.stats["games_finished"] += 1


def _play_game(game_seed: int, *, variant: str, players: int, rules: dict[str, Any] | None,
               hands_left: int, check_listed: bool, max_hand_actions: int, max_game_hands: int,
               stats: dict[str, int],
               kinds: dict[str, int], endings: dict[str, int], complete: bool = False) -> dict[str, Any] | None:
    """Play one checked random game (or until ``hands_left`` hands finished); a failure or None."""
    checked: _CheckedGame | None = None
    try:
        checked = _CheckedGame(game_seed, variant=variant, players=players, rules=rules, stats=stats, kinds=kinds,
                               endings=endings)
        checked.play(hands_left=hands_left, check_listed=check_listed, max_hand_actions=max_hand_actions,
                     max_game_hands=max_game_hands, complete=complete)
        return None
    except Exception as exc:
        index, hand_no, action = (checked.index, checked.hand_no, checked.action) if checked else (0, 1, None)
        if isinstance(exc, _Failure):
            return _failure_record(game_seed, index, hand_no, exc.kind, exc.message, action)
        return _failure_record(game_seed, index, hand_no, "exception", f"{type(exc).__name__}: {exc}", action,
                               traceback.format_exc(limit=8))


def _failure_record(seed: int, index: int, hand_no: int, kind: str, message: str, action: Action | None,
                    trace: str | None = None) -> dict[str, Any]:
    rec: dict[str, Any] = {"seed": seed, "action_index": index, "hand": hand_no, "kind": kind, "message": message}
    if action is not None:
        try:
            rec["action"] = format_action(action)
        except Exception:
            rec["action"] = repr(action)
    if trace:
        rec["traceback"] = trace
    return rec


def run_soak(*, variant: str = "classic", players: int = 4, hands: int = 1000, seed: int = 0,
             rules: dict[str, Any] | None = None, max_failures: int = 1000, check_listed: bool = True,
             max_hand_actions: int = 20_000, max_game_hands: int = 200, complete: bool = False,
             progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play random legal games until ``hands`` hands have finished, checking invariants.

    Returns a JSON-able dict: counts (``hands``, ``games``, ``actions``, ...) and
    ``failures`` (at most :data:`MAX_FAILURES_KEPT` kept; ``failure_count`` counts
    all), each with ``seed`` and ``action_index`` for :func:`soak_position`. A game
    with a failure is abandoned and the run goes on with the next seed, until
    ``max_failures`` failures stop it early (``stopped_early``). Bad
    variant, player count or rules raise :class:`~canasta.errors.CanastaError`.
    A hand still going after ``max_hand_actions`` actions (random hands take a few
    hundred) is a failure of kind ``endless``. A game is left after ``max_game_hands``
    hands (counted in ``games_capped``) and the next seed starts.
    ``check_listed=False`` checks only the chosen action (about twice as fast).
    ``complete=True`` checks completeness at every position (``positions_checked``,
    ``candidates_checked``, ``misses``; much slower: each position asks ``check()`` about
    hundreds of candidates).
    ``progress``, if given, is called with the running counts after every game.
    """
    first = Game(variant, players, seed, rules)  # validate the configuration first
    stats = {"hands": 0, "hands_rescored": 0, "hands_unrescored": 0, "actions": 0, "games": 0,
             "games_finished": 0, "games_capped": 0, "positions_checked": 0, "candidates_checked": 0,
             "misses": 0, "max_retracts_per_turn": 0, "max_hand_actions_seen": 0}
    failures: list[dict[str, Any]] = []
    failure_count = 0
    kinds: dict[str, int] = {}    # actions taken, by kind (what the random play exercised)
    endings: dict[str, int] = {}  # rescored hands by how they ended
    game_seed = seed
    start = time.perf_counter()
    cpu_start = time.process_time()
    stopped_early = False
    while stats["hands"] < hands:
        if failure_count >= max_failures:
            stopped_early = True
            break
        stats["games"] += 1
        failure = _play_game(game_seed, variant=variant, players=players, rules=rules,
                             hands_left=hands - stats["hands"], check_listed=check_listed,
                             max_hand_actions=max_hand_actions, max_game_hands=max_game_hands, stats=stats,
                             kinds=kinds, endings=endings, complete=complete)
        if failure is not None:
            failure_count += 1
            if len(failures) < MAX_FAILURES_KEPT:
                failures.append(failure)
        game_seed += 1
        if progress is not None:
            progress({**stats, "failure_count": failure_count, "seconds": time.perf_counter() - start})
    return {
        "variant": variant,
        "players": players,
        "rules": dict(rules or {}),
        "seed": seed,
        "seeds": [seed, game_seed - 1],
        "hands_requested": hands,
        "check_listed": check_listed,
        "complete": complete,
        "hand_action_bound": hand_action_bound(first),
        **stats,
        "seconds": round(time.perf_counter() - start, 2),
        "cpu_seconds": round(time.process_time() - cpu_start, 2),
        "action_kinds": dict(sorted(kinds.items())),
        "hand_endings": dict(sorted(endings.items())),
        "failure_count": failure_count,
        "stopped_early": stopped_early,
        "failures": failures,
    }


def run_complete_rounds(out_path: str, *, variants: list[str], hands: int = 2000, round_seconds: float = 20.0,
                        stop_after_seconds: float = 3600.0, first_seed: int = 100_000) -> None:
    """The completeness soak of many variants on one core, fairly: rounds in which every variant that has not
    yet played ``hands`` hands gets chunks of hands worth about ``round_seconds`` of CPU; each chunk's result
    (``run_soak(..., complete=True)``, failures included) is appended to ``out_path`` as a JSON line as soon
    as it finishes, so that a run stopped at any time keeps its figures. Chunk ``k`` of a variant starts at
    seed ``first_seed + 1000 * k`` (its games take the seeds after it). Stops after ``stop_after_seconds``.

    Resumable: the chunks already in ``out_path`` count, and the next chunk of a variant takes the seed after
    the last one there, so a run stopped and started again (by a newer checker, say) plays no seed twice."""
    import json
    import os

    from canasta.variants import VARIANTS

    done = {v: 0 for v in variants}
    chunks = {v: 0 for v in variants}
    if os.path.exists(out_path):
        with open(out_path, encoding="utf-8") as previous:
            for line in previous:
                row = json.loads(line)
                if row["variant"] in done:
                    done[row["variant"]] += row["hands"]
                    chunks[row["variant"]] = max(chunks[row["variant"]], (row["seeds"][0] - first_seed) // 1000 + 1)
    per_hand = {v: 1.0 for v in variants}  # CPU seconds a hand, re-estimated after every chunk
    start = time.perf_counter()
    while any(done[v] < hands for v in variants):
        for variant in variants:
            spent = 0.0
            while done[variant] < hands and spent < round_seconds:
                if time.perf_counter() - start > stop_after_seconds:
                    return
                count = max(1, min(hands - done[variant], round((round_seconds - spent) / per_hand[variant])))
                players = 4 if 4 in VARIANTS[variant].player_counts else 2
                result = run_soak(variant=variant, players=players, hands=count,
                                  seed=first_seed + 1000 * chunks[variant], complete=True)
                chunks[variant] += 1
                done[variant] += result["hands"]
                spent += result["cpu_seconds"]
                per_hand[variant] = max(0.01, result["cpu_seconds"] / max(1, result["hands"]))
                with open(out_path, "a", encoding="utf-8") as out:
                    out.write(json.dumps({key: result[key] for key in (
                        "variant", "players", "seeds", "hands", "games", "actions", "positions_checked",
                        "candidates_checked", "misses", "failure_count", "seconds", "cpu_seconds")}
                        | {"failures": result["failures"][:3]}) + "\n")


def summarize_complete_rounds(paths: list[str]) -> list[dict[str, Any]]:
    """Per variant, the totals of the chunks :func:`run_complete_rounds` wrote to ``paths`` (JSON lines): hands,
    games, positions and candidates checked, misses, other failures, CPU and wall seconds, and the failures."""
    import json

    totals: dict[str, dict[str, Any]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                total = totals.setdefault(row["variant"], {
                    "variant": row["variant"], "players": row["players"], "chunks": 0, "hands": 0, "games": 0,
                    "positions_checked": 0, "candidates_checked": 0, "misses": 0, "failure_count": 0,
                    "cpu_seconds": 0.0, "seconds": 0.0, "failures": []})
                total["chunks"] += 1
                for key in ("hands", "games", "positions_checked", "candidates_checked", "misses", "failure_count",
                            "cpu_seconds", "seconds"):
                    total[key] += row[key]
                total["failures"] += row["failures"]
    return sorted(totals.values(), key=lambda t: t["variant"])


def render_complete_rounds(totals: list[dict[str, Any]], hands: int = 2000) -> str:
    """The totals of :func:`summarize_complete_rounds` as a Markdown table (and how far each is from ``hands``)."""
    lines = ["| variant | hands | positions checked | candidates asked of `check()` | misses | other failures "
             "| CPU s | hands per CPU s | CPU to reach " + f"{hands:,} |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for t in totals:
        rate = t["hands"] / t["cpu_seconds"] if t["cpu_seconds"] else 0.0
        left = max(0, hands - t["hands"])
        to_go = "reached" if not left else (f"{left / rate / 60:.0f} min more" if rate else "?")
        lines.append(f"| {t['variant']} | {t['hands']:,} | {t['positions_checked']:,} | {t['candidates_checked']:,} "
                     f"| {t['misses']} | {t['failure_count'] - t['misses']} | {t['cpu_seconds']:,.0f} | {rate:.2f} "
                     f"| {to_go} |")
    return "\n".join(lines)


def soak_position(*, variant: str = "classic", players: int = 4, seed: int, index: int,
                  rules: dict[str, Any] | None = None) -> tuple[Game, Action | None]:
    """Reproduce a soak failure: the game of ``seed`` just before its action ``index``, and that action.

    Replays the soak's random choices (``random.Random(seed)`` over
    ``legal_actions()``, performed with ``apply()``). The action is None if the
    game had no legal action there.
    """
    game = Game(variant, players, seed, rules)
    rng = random.Random(seed)
    for _ in range(index):
        game.apply(rng.choice(game.legal_actions()))
    legal = game.legal_actions()
    return game, (rng.choice(legal) if legal else None)


def render_soak(result: dict[str, Any]) -> str:
    """The result of :func:`run_soak` as readable text."""
    rules = ", ".join(f"{k}={v}" for k, v in sorted(result["rules"].items())) or "defaults"
    lines = [
        f"canasta soak: {result['variant']}, {result['players']} players, rules: {rules}, "
        f"seeds {result['seeds'][0]}..{result['seeds'][1]}",
        f"hands {result['hands']:,} ({result['hands_rescored']:,} rescored from the final table), "
        f"games {result['games']:,} ({result['games_finished']:,} played to the end), "
        f"actions {result['actions']:,}, {result['seconds']:.1f} s",
    ]
    if result.get("complete"):
        lines.append(f"completeness: {result['positions_checked']:,} positions, {result['candidates_checked']:,} "
                     f"candidates asked of check(), {result['misses']:,} misses")
    lines.append(f"most actions in a hand {result['max_hand_actions_seen']:,} (bound {result['hand_action_bound']:,}), "
                 f"most retracts in a turn {result['max_retracts_per_turn']}")
    if result.get("games_capped"):
        lines.append(f"games left after the hand limit: {result['games_capped']:,}")
    if result.get("action_kinds"):
        lines.append("actions by kind: " + ", ".join(f"{k} {n:,}" for k, n in result["action_kinds"].items()))
    if result.get("hand_endings"):
        lines.append("hands ended by: " + ", ".join(f"{k} {n:,}" for k, n in result["hand_endings"].items()))
    count = result["failure_count"]
    if not count:
        checked = "every listed action passed check()" if result.get("check_listed") else "every chosen action passed check()"
        lines.append(f"no failures: every step conserved the cards and had a legal action, {checked}; "
                     "every hand's score is consistent and matches its final table")
        return "\n".join(lines)
    if result.get("stopped_early"):
        lines.append(f"stopped early after {count} failures")
    lines.append(f"FAILURES: {count}" + (f" (first {len(result['failures'])} shown)" if count > len(result["failures"]) else ""))
    for f in result["failures"]:
        where = f"seed {f['seed']}, action {f['action_index']}, hand {f['hand']}"
        action = f" [{f['action']}]" if "action" in f else ""
        lines.append(f"  {f['kind']}: {where}{action}: {f['message']}")
    lines.append("reproduce: canasta.soak.soak_position(variant=..., players=..., seed=SEED, index=ACTION, rules=...)"
                 " gives the game just before the action")
    return "\n".join(lines)
