"""Frames for the replay viewer: a record replayed step by step, every hand visible.

Each frame is the table after one action: hands, melds, red threes, stock and pile.
The last frame of a hand is the table as the hand ended (before the next deal),
with the hand's score.

A complete record (the game is over, or it was exported unredacted) is replayed
with every action checked; a record redacted for a seat cannot be replayed (its
hidden cards are unknown), so the viewer gets its moves only.
"""

from __future__ import annotations

from typing import Any

from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.errors import CanastaError
from canasta.notation import format_action
from canasta.web.service import WebError


def _frame(game: Game) -> dict[str, Any]:
    obs = game.observation(0)
    return {
        "hand_no": game.hand_no, "actor": None if game.is_over else game.actor, "phase": game.phase,
        "hands": [game.observation(s)["hand"] for s in range(game.num_players)],
        "melds": obs["melds"], "red_threes": obs["red_threes"], "stock_size": obs["stock_size"],
        "pile_size": obs["pile_size"], "pile_top": obs["pile_top"], "frozen": obs["frozen"],
        "scores": obs["scores"], "minimum": obs["minimum"],
    }


#: most actions the viewer replays from one record: the work is counted in actions, not seconds, so a record's
#: answer does not depend on the machine's load (a 10 s budget refused a valid 9,149-action record on a loaded
#: machine). Any record under schemas.MAX_RECORD (200,000 characters) has fewer; the replay is linear in them.
MAX_REPLAY_ACTIONS = 16_000


class ReplayTooLong(WebError):
    """The record has more actions than the replay's budget (refused before any is replayed)."""

    def __init__(self, actions: int, limit: int) -> None:
        super().__init__("too-long", f"this record has {actions} actions; the viewer replays at most {limit}",
                         status=413)


def _table_copy(game: Game) -> Game:
    """A copy of the table without the game's history, deals and hand results: copying the history at
    every step made a replay quadratic in the record's length (a 475 KB record took 15.9 s)."""
    kept = game.history, game.deals, game.hand_results
    game.history, game.deals, game.hand_results = [], [], []
    try:
        return game.copy()
    finally:
        game.history, game.deals, game.hand_results = kept


def replay_frames(text: str, *, max_actions: int | None = MAX_REPLAY_ACTIONS) -> dict[str, Any]:
    """The frames of a record; one with more than ``max_actions`` actions is refused with
    :class:`ReplayTooLong` once parsed, before any is replayed (the server runs this in a thread)."""
    from canasta.record import parse_record, replay_record, seat_names

    try:
        record = parse_record(text)
    except CanastaError as exc:
        raise WebError("bad-record", str(exc)) from None
    actions = sum(len(hand.moves) for hand in record.hands)
    if max_actions is not None and actions > max_actions:
        raise ReplayTooLong(actions, max_actions)
    tags = dict(record.tags)
    try:
        players = int(tags.get("Players", "0"))
        names = seat_names(record, players)  # "" for each seat of a record without names (Seat 1, Seat 2 ...)
    except (ValueError, CanastaError) as exc:
        raise WebError("bad-record", str(exc)) from None
    if record.redacted_for is not None or "Redacted" in tags:
        listed = [{"number": h.number, "dealer": h.dealer,
                   "moves": [{"seat": m.seat, "action": format_action(m.action)} for m in h.moves]}
                  for h in record.hands]
        return {"tags": tags, "redacted": True, "hands": listed, "names": names,
                "message": f"this record is redacted for seat {tags.get('Redacted')}: its moves are listed, "
                           "but the hidden cards cannot be shown"}
    try:
        final = replay_record(text)
    except CanastaError as exc:
        raise WebError("bad-record", str(exc)) from None
    game = Game(final.variant_name, final.num_players, final.seed, final.variant.non_default_rules(),
                shuffle=final.shuffle)
    hands: list[dict[str, Any]] = []
    current: dict[str, Any] = {"number": game.hand_no, "dealer": game.dealer, "frames": [_frame(game)]}
    for seat, action, _got in final.history:
        results_before = len(game.hand_results)
        before = _table_copy(game)
        game.push(action)
        step = {"seat": seat, "action": format_action(action)}
        if len(game.hand_results) > results_before:
            result = game.hand_results[-1]
            current["frames"].append({**step, **_frame_end(before, action, result)})
            current["result"] = result
            hands.append(current)
            if game.is_over:
                current = {}
                break
            current = {"number": game.hand_no, "dealer": game.dealer, "frames": [_frame(game)]}
        else:
            current["frames"].append({**step, **_frame(game)})
    if current:
        hands.append(current)
    return {"tags": tags, "redacted": False, "players": final.num_players, "names": names, "hands": hands,
            "winner": final.winner, "scores": final.scores}


def replay_answer(text: str) -> tuple[int, bytes]:
    """The HTTP status and JSON body of ``POST /api/replay`` for a record: the frames, or the refusal.

    Run in a worker process by the server (a 9,200-action replay is 6.5 s of CPU: in a thread of the server,
    it took the GIL from the event loop), so the answer is plain data (an exception would not cross back)."""
    import json

    try:
        return 200, json.dumps(replay_frames(text), separators=(",", ":")).encode()
    except WebError as exc:
        return exc.status, json.dumps(exc.payload()).encode()


def _frame_end(before: Game, action: Action, result: dict[str, Any]) -> dict[str, Any]:
    """The table as the hand ended: the last action played on a copy whose hand is kept open.

    The engine scores the hand and deals the next one inside the action, so the game after it
    shows the new deal; the copy keeps the finished hand on the table (``deals_next_hand``).
    """
    table = before.copy()
    table.deals_next_hand = False
    table.push(action)
    frame = _frame(table)
    frame["actor"] = None
    frame["hand_over"] = True
    frame["went_out"] = result["went_out"]
    frame["scores"] = result["totals"]
    frame["totals"] = result["totals"]
    return frame
