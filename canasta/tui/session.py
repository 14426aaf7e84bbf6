"""`canasta play`: one terminal session, a human seat against computer players.

Input is the action notation (``draw``, ``take Kh Kd``, ``meld 9s 9h 2c``, ``add K Kc``,
``discard 4d``, ``ask``, ``yes``, ``no``, ``retract``, ``end``), a number from ``moves``, or a
command (``help``, ``moves``, ``hint``, ``table``, ``scores``, ``undo``, ``save FILE``,
``record FILE``, ``quit``). Input and output are injectable so tests can script a whole session.

Two ways to show the game: at a terminal (``screen``) each of your prompts redraws one screen
with the table, the last moves, your hand and the prompt; otherwise (piped input, tests) every
event is printed as it happens and the table before each of your turns.
"""

from __future__ import annotations

import io
import shlex
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from canasta.cards import format_card, is_black_three, is_red_three, is_wild_card
from canasta.engine.actions import ADD, ASK, DISCARD, DRAW, END, KEEP, KINDS, MELD, MERGE, NO, SPECIAL, TAKE, YES, Action
from canasta.engine.game import Game
from canasta.engine.idmelds import MeldIdGame
from canasta.engine.idturn import SambaGame
from canasta.errors import CanastaError, IllegalActionError, NotationError, OptionError
from canasta.notation import ID_BASE, format_action, parse_action
from canasta.players import Player, get_player, hint
from canasta.players.base import is_class_reference, load_class_reference
from canasta.record import export_record
from canasta.scoring import settlement_lines
from canasta.tui.prompt import MAX_LINE, Candidates, InputFn
from canasta.tui.saves import foreign_file, write_save
from canasta.tui.view import (
    cards_text,
    hand_line,
    humanize,
    plural,
    rank_plural,
    running_sheet,
    score_sheet,
    table_lines,
    wrap_tokens,
)

HELP = """\
A turn: draw (or take the pile), then meld and add, then discard one card.
  draw            draw from the stock
  take Kh Kd      take the pile with two cards that meld with its top card
  take            take the pile onto your side's meld of the top card's rank
  meld 9s 9h 2c   start a meld (three cards or more, two natural at least)
  add K Kc        add to your side's kings ('add W 2c': the wild-card meld)
  discard 4d      discard a card, ending your turn
  ask, yes, no    "Partner, may I go out?" and the answer
  retract         take back an initial meld short of the minimum (+10 to it)
  end             decline the pile once the stock is used up (ends the hand)
Cards: Ah, 10d (or Td), 3s, JK. A number plays that line of 'moves'.
Tab completes a word; the arrows recall and edit lines.
Commands: moves [WORD] (the legal moves, grouped), hint, table, scores,
  undo (a meld or add of this turn), save FILE, record FILE [full], help, quit"""

_BURRACO = """\
Burraco: 'take' takes the whole pile; 'meld 5h 6h 7h' starts a set or a run;
  'add #3 8h' adds one card to meld #3 (ids are on the table); run out of
  cards to pick up your pozzetto; close with a discard once your side has
  its pozzetto and a burraco."""
_SAMBA = """\
Samba: 'take 8h 8d' takes the pile with a natural pair; 'take #3' puts the top
  card on meld #3; 'meld 4h 5h 6h' starts a run (an escalera), 'add #3 7h'
  adds one card; 'merge #3 #5' combines two sets of a rank into set #3 (seven
  cards at most); two seven-card melds to go out."""
_ITALIAN = """\
Italian: the pile is always frozen (take it with a natural pair); 'meld 2s 2h
  2d' melds deuces, and no 2 plays wild while your side's deuces are short of
  seven."""
_FEET = """\
Hand and Foot: play your hand, then pick up your foot and play it; books
  (seven-card melds) of the kinds shown on the table let your side go out:
  'books 1/0/0 of 2/2/1' counts clean/dirty/wild books made, of those needed.
  With hand_passing: 'keep 1' or 'keep 2' keeps that dealt pile as your foot
  and passes the other to the player on your left."""
_AMERICAN = """\
American: 'special straight' (or pairs, pairs-wild, garbage, zip-code) lays
  the whole hand down as a special hand; 'meld 3h' lays out the one three kept
  in hand (a replacement is drawn); the pile is always frozen; bonus cards are
  dealt face down after your side's initial meld."""
_MILLE = """\
Mille: no initial meld minimum and no red threes; melds of eight natural cards
  count extra."""

#: The notes of each variant beside the common help (the others are played as Classic).
VARIANT_NOTES = {"burraco": _BURRACO, "samba": _SAMBA, "bolivian": _SAMBA, "brazilian": _SAMBA, "chilean": _SAMBA,
                 "italian": _SAMBA + "\n" + _ITALIAN, "hand-and-foot": _FEET, "triple-play": _FEET,
                 "american": _AMERICAN, "mille": _MILLE}

COMMANDS = ["help", "moves", "hint", "table", "scores", "undo", "save", "record", "quit"]
_UNDOABLE = (MELD, ADD, MERGE)


def help_text(variant_name: str) -> str:
    notes = VARIANT_NOTES.get(variant_name)
    return HELP + ("\n" + notes if notes else "")


@dataclass
class LogEntry:
    """One line of the last moves: an actor and what it did (a turn reads 'draw · meld ... · discard 4d')."""

    actor: int | None
    hand_no: int
    parts: list[Text] = field(default_factory=list)


class Quit(Exception):
    """The session stops (quit, end of input, Ctrl-C): ``how`` says which, for the goodbye message."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


class TerminalGame:
    """One interactive session: the game, the computer players and the I/O."""

    def __init__(self, game: Game, seat: int, input_fn: InputFn, console: Console, *,
                 levels: dict[int, str] | None = None, screen: bool = False, autosave: Path | None = None,
                 page: bool = False) -> None:
        if not 0 <= seat < game.num_players:
            raise OptionError(f"--seat must be between 0 and {game.num_players - 1}, not {seat}")
        self.game = game
        self.seat = seat
        self.input_fn = input_fn
        self.console = console
        self.levels = {s: (levels or {}).get(s, "basic") for s in range(game.num_players) if s != seat}
        self.bots: dict[int, Player] = {}
        for s, name in self.levels.items():
            try:
                # an outside player (module.path:ClassName, e.g. canasta.env.policy_player's) as the arena takes it
                self.bots[s] = load_class_reference(name)(s) if is_class_reference(name) else get_player(name, seed=s)
            except ValueError as exc:
                raise OptionError(f"--level: {exc}") from None
        self.screen = screen
        self.page = page or screen
        self.autosave = autosave
        self.hands_seen = len(game.hand_results)
        self.show = True  # render the table before the next prompt
        self.log: list[LogEntry] = []
        self.pending: str | None = None  # a line typed at the end-of-hand pause, played next
        self.pause_due = False
        self.event_hand: int | None = None  # while an action is announced: the hand it was played in
        #: positions before each meld or add of this turn, with the log text to strike out when undone
        self.undo_stack: list[tuple[Game, Text | None]] = []

    # ---------------------------------------------------------------- labels
    def who(self, s: int) -> str:
        if s == self.seat:
            return "you"
        if self.game.variant.partner_of(self.seat) == s:
            return f"seat {s} (partner)"
        if s in self.game.variant.teammates_of(self.seat):  # teams of three: the partner not asked
            return f"seat {s} (teammate)"
        return f"seat {s}"

    def side_label(self, side: int) -> str:
        seats = [s for s in range(self.game.num_players) if self.game.side_of(s) == side]
        if self.seat in seats:
            others = [f"seat {s}" for s in seats if s != self.seat]
            return " & ".join(["you", *others])
        if len(seats) == 1:
            return f"seat {seats[0]}"
        return "seats " + " & ".join(str(s) for s in seats)

    def went_out_label(self, s: int) -> str:
        return self.who(s).split(" (")[0]

    def say(self, text: str | Text, style: str = "", whole: bool = False) -> None:
        """Print a message; ``whole`` keeps it unbroken (a file name or a command to copy)."""
        if isinstance(text, str):
            text = Text(text, style=style)
        self.console.print(text, soft_wrap=whole)

    # ---------------------------------------------------------------- display
    def header(self, obs: dict[str, Any]) -> str:
        g = self.game
        levels = sorted(set(self.levels.values()))
        return (f"{g.variant.title} · hand {obs['hand_no']} · dealer {self.went_out_label(obs['dealer'])} · "
                f"you are seat {self.seat} · vs {'/'.join(levels)}")

    def turn_text(self, obs: dict[str, Any]) -> Text:
        if obs["phase"] == "answer":
            asker = self.who(obs["turn"])
            return Text(f"{asker[0].upper()}{asker[1:]} asks: may I go out? Answer yes or no.", style="bold yellow")
        if obs["phase"] == "pass":  # Hand and Foot's hand-passing deal
            up = ", ".join(f"{self.who(s)}: {' / '.join(p)}" for s, p in enumerate(obs["pass_shown"]))
            if obs["actor"] == self.seat:
                left = self.who((self.seat + 1) % len(obs["hand_sizes"]))
                return Text(f"Turned up (pile 1 / pile 2): {up}\nKeep a pile as your foot ('keep 1' or 'keep 2'); "
                            f"the other goes to {left} as their hand.", style="bold")
            return Text(f"Turned up (pile 1 / pile 2): {up}\nWaiting for {self.who(obs['actor'])} to keep a foot.")
        if obs["turn"] != self.seat:
            return Text(f"Waiting for {self.who(obs['turn'])}.")
        step = "draw or take the pile" if obs["phase"] == "draw" else "meld, add, or discard"
        text = Text(f"Your turn: {step}.", style="bold")
        side = obs["side"]
        if not obs["opened"][side] and obs.get("pending_value") and obs["phase"] == "play":
            text.append(f" Initial meld so far: {obs['pending_value']} of {obs['minimum'][side]}.", style="yellow")
        if obs.get("permission") is True:
            text.append(" Your partner said yes: go out this turn.", style="yellow")
        if self.undo_stack:
            text.append(" ('undo' takes back your last meld)", style="dim")
        return text

    def pile_blocked(self) -> bool:
        """The top card stops every take (a black three in Classic): the engine's own table of such cards."""
        g = self.game
        if isinstance(g, SambaGame) and g.pile:  # its turn checks the top card itself: a wild card or a three
            top = g.pile[-1]
            return is_wild_card(top) or is_black_three(top) or is_red_three(top)
        blocks = getattr(g, "_blocks_pile", None)
        return bool(g.pile and blocks is not None and blocks[g.pile[-1]])

    def lines_needed(self, renderable: Text) -> int:
        return len(renderable.wrap(self.console, self.console.width))

    def render(self) -> None:
        obs = self.game.observation(self.seat)
        table = table_lines(obs, self.who, self.side_label, self.pile_blocked(), self.console.width,
                            getattr(self.game.variant, "pile_pickup", None))
        hand = hand_line(obs, self.console.width)
        turn = self.turn_text(obs)
        if not self.screen:
            self.console.rule(self.header(obs))
            for line in table:
                self.console.print(line)
            self.console.print(hand)
            self.console.print(turn)
            return
        self.console.clear()
        self.console.rule(self.header(obs))
        for line in table:
            self.console.print(line)
        used = 1 + sum(self.lines_needed(t) for t in table) + self.lines_needed(hand) + self.lines_needed(turn)
        room = self.console.height - used - 2  # the 'last moves' rule and the prompt line
        self.console.rule("last moves", style="dim")
        for line in self.recent_lines(max(room, 1), obs["hand_no"]):
            self.console.print(line)
        self.console.print(hand)
        self.console.print(turn)

    def recent_lines(self, room: int, hand_no: int) -> list[Text]:
        """The last log entries of hand ``hand_no`` that fit in ``room`` terminal lines (the newest at the bottom);
        blanks fill the rest."""
        out: list[Text] = []
        used = 0
        for entry in reversed(self.log):
            if entry.hand_no != hand_no:
                break
            line = self.entry_text(entry)
            need = self.lines_needed(line)
            if used + need > room:
                break
            out.insert(0, line)
            used += need
        return [Text("")] * (room - used) + out

    def entry_text(self, entry: LogEntry) -> Text:
        """``Seat 1: draws 1 card · meld ... · discard 4d``, wrapped between its parts."""
        if entry.actor is None:
            head = Text()
        elif entry.actor == self.seat:
            head = Text("You ", style="bold")
        else:
            name = self.who(entry.actor)
            head = Text(f"{name[0].upper()}{name[1:]}: ", style="bold")
        return Text("\n").join(wrap_tokens(head, entry.parts, self.console.width))

    def event(self, actor: int | None, part: str | Text) -> None:
        """Something happened: logged for the screen, and printed as it happens."""
        text = Text(part) if isinstance(part, str) else part
        hand_no = self.event_hand if self.event_hand is not None else self.game.hand_no
        last = self.log[-1] if self.log else None
        if last is not None and last.actor == actor and last.hand_no == hand_no and actor is not None:
            last.parts.append(text)
        else:
            self.log.append(LogEntry(actor, hand_no, [text]))
            del self.log[:-40]
        self.console.print(self.entry_text(LogEntry(actor, hand_no, [text])))

    def render_hand_result(self, finished: dict[str, Any] | None) -> None:
        """The score sheet of each hand that ended since the last call, under the finished table."""
        g = self.game
        while self.hands_seen < len(g.hand_results):
            hr = g.hand_results[self.hands_seen]
            self.hands_seen += 1
            out = hr["went_out"]
            if isinstance(g, MeldIdGame) and not isinstance(g, SambaGame):  # Burraco: closing, or the stock down to two / a stalemate
                how = "no one closed" if out is None else f"{self.who(out)} closed"
            else:
                how = "the stock ran out" if out is None else f"{self.who(out)} went out" + (" concealed" if hr["concealed"] else "")
            if self.screen:
                self.console.clear()
            self.console.rule(f"End of hand {hr['hand']}: {how}")
            sheet = score_sheet(hr, self.side_label)
            if finished is not None and self.hands_seen == len(g.hand_results):
                melds = table_lines(finished, self.who, self.side_label, width=self.console.width)[:-2]  # not the pile
                for line in melds:
                    self.console.print(line)
                if self.screen:  # the moves that ended the hand, in the room the sheet leaves
                    room = self.console.height - 3 - len(melds) - len(self.console.render_lines(sheet))
                    recent = [t for t in self.recent_lines(min(room, 4), hr["hand"]) if t.plain]
                    if recent:
                        self.console.rule("last moves", style="dim")
                        for line in recent:
                            self.console.print(line)
            self.console.print(sheet)
            if not g.is_over:
                self.show = True
                self.pause_due = True
                if self.hands_seen == len(g.hand_results):  # the next hand's moves begin under its own line
                    self.log.append(LogEntry(None, g.hand_no, [Text(f"Hand {g.hand_no}, dealt by "
                                                                    f"{self.went_out_label(g.dealer)}.", style="dim")]))

    def render_winner(self) -> None:
        g = self.game
        if g.winner is None:
            if g.is_over:  # a game of so many hands (Hand and Foot) may end in a tie
                self.console.rule("Game over")
                self.say(f"A tie, {' to '.join(str(s) for s in g.scores)}.", "bold")
            return
        others = sorted((s for s in range(g.num_sides) if s != g.winner), key=lambda s: -g.scores[s])
        mine = g.winner == g.side_of(self.seat)
        self.console.rule("Game over")
        label = self.side_label(g.winner)
        verb = "wins" if label.startswith("seat ") else "win"
        rest = ", ".join(f"{self.side_label(s)} {g.scores[s]}" for s in others)
        self.say(f"{label[0].upper()}{label[1:]} {verb} with {g.scores[g.winner]} ({rest})."
                 + (" Well played!" if mine else ""), "bold green")
        settlement = g.settlement()
        if settlement is not None:
            for line in settlement_lines(settlement, self.side_label):
                self.say(line)

    # ---------------------------------------------------------------- what happened
    def announce(self, actor: int, action: Action, before: dict[str, Any], after: dict[str, Any]) -> None:
        """Say what ``action`` did, from your seat's view: cards drawn or taken, red threes, feet, pozzetti."""
        g = self.game
        mine = actor == self.seat
        new_hand = after["hand_no"] != before["hand_no"] or g.is_over
        if action.kind == KEEP:
            if mine:
                self.event(actor, f"keep pile {action.target} as your foot")
            else:  # the choices are hidden until everyone has chosen
                self.event(actor, "keeps a foot")
            if g.phase != "pass" and "kept" in after:
                self.event(None, "Feet kept: " + ", ".join(f"{self.who(s)} pile {k}" for s, k in enumerate(after["kept"]))
                           + "; the other piles went to the left.")
            return
        text = Text(format_action(action))
        got = g.history[-1][2] if g.history and g.history[-1][0] == actor and not new_hand else ()
        if action.kind == DRAW and mine and got:
            text = Text("drew ")
            text.append_text(cards_text([format_card(c) for c in got]))
        elif action.kind == DRAW and got:
            text = Text(f"draws {plural(len(got), 'card')}")
        elif action.kind in (YES, NO) and mine:
            text = Text(f"answered {action.kind}")
        elif action.kind in (YES, NO):
            text = Text(f"answers {action.kind}")
        elif action.kind == END:  # the stock is used up and the pile declined
            text = Text("declines the pile with the stock used up; the hand ends" if not mine else
                        "declined the pile with the stock used up; the hand ends")
        elif action.kind == ASK:
            text = Text("asks: may I go out?" if not mine else "ask: may I go out?")
        elif action.kind == TAKE:
            pile, stay = self.taken_from_pile(before["pile"], after["pile"], new_hand)
            if stay:  # Hand and Foot takes the top seven cards: name those, and say what is left
                text.append(f" (the top {plural(len(pile), 'card')} of the pile; {stay} stay")
            else:
                text.append(f" (the pile, {plural(len(pile), 'card')}")
            if mine and not new_hand:
                gained = Counter(after["hand"])
                gained.subtract(before["hand"])
                cards = [c for c, k in gained.items() for _ in range(max(k, 0))]
                if cards:
                    text.append(": into your hand ")
                    text.append_text(cards_text(cards))
                else:
                    text.append(": all onto the table")
            elif pile:
                text.append(": ")
                text.append_text(cards_text(pile[-12:], sort=False))
                if len(pile) > 12:
                    text.append(" and older")
            text.append(")")
        elif action.kind == DISCARD and before.get("permission") is True and mine and not (after["hand_sizes"][actor] == 0 or new_hand):
            text.append(" (you did not go out after your partner's yes: a penalty)", style="yellow")
        self.event(actor, text)
        if new_hand:
            return
        self.announce_changes(actor, before, after)

    @staticmethod
    def taken_from_pile(before: list[str], after: list[str], new_hand: bool) -> tuple[list[str], int]:
        """The cards a take moved off the pile (its top ones) and how many stayed under them."""
        stay = len(after) if not new_hand and after == before[:len(after)] else 0
        return before[stay:], stay

    def announce_changes(self, actor: int, before: dict[str, Any], after: dict[str, Any]) -> None:
        """Public changes an action brings beside its own effect: red threes, feet, pozzetti, bonus cards."""
        for side, threes in enumerate(after["red_threes"]):
            new = Counter(threes)
            new.subtract(before["red_threes"][side])
            laid = [c for c, k in new.items() for _ in range(max(k, 0))]
            if laid:
                mine = self.game.side_of(actor) == side
                t = Text(self.verb(actor, "lays out ", "lay out ") if mine else f"{self.side_label(side)}: lay out ")
                t.append_text(cards_text(laid))
                self.event(actor if mine else None, t)
        if "in_foot" in after:
            for s, (was, now) in enumerate(zip(before["in_foot"], after["in_foot"], strict=True)):
                if now and not was:
                    self.event(s, self.verb(s, "picks up", "pick up") + f" the foot ({plural(after['hand_sizes'][s], 'card')})")
        if "piles_taken" in after and "initial_canasta" not in after:
            for side, (was, now) in enumerate(zip(before["piles_taken"], after["piles_taken"], strict=True)):
                if now != was:
                    self.event(actor, self.verb(actor, "picks up", "pick up")
                               + f" {'our' if side == after['side'] else 'their'} pozzetto "
                                 f"({plural(after['hand_sizes'][actor], 'card')} in hand now)")
        if "bonus_cards" in after:
            for s, (was, now) in enumerate(zip(before["bonus_cards"], after["bonus_cards"], strict=True)):
                if now > was:
                    self.event(s, self.verb(s, "gets", "get") + f" {plural(now - was, 'bonus card')} face down")
                elif now < was:
                    t = Text(self.verb(s, "adds", "add") + f" {plural(was - now, 'bonus card')} to the hand")
                    if s == self.seat:
                        gained = Counter(after["hand"])
                        gained.subtract(before["hand"])
                        t.append(": ")
                        t.append_text(cards_text([c for c, k in gained.items() for _ in range(max(k, 0))]))
                    self.event(s, t)

    def verb(self, s: int, third: str, second: str) -> str:
        """'Seat 1: lays out' but 'You lay out'."""
        return second if s == self.seat else third

    def step(self, actor: int, action: Action) -> None:
        """Apply an action (already checked or from the legal list) and report what happened."""
        g = self.game
        before = g.observation(self.seat)
        probe = g.copy()
        hands = len(g.hand_results)
        g.apply(action)
        self.event_hand = before["hand_no"]
        try:
            self.announce(actor, action, before, g.observation(self.seat))
        finally:
            self.event_hand = None
        if len(g.hand_results) > hands:
            finished: dict[str, Any] | None
            if g.is_over:
                finished = g.observation(self.seat)
            else:  # the engine deals the next hand at once: replay the last action on a copy that does not deal
                probe.deals_next_hand = False
                probe.apply(action)
                finished = probe.observation(self.seat)
            self.undo_stack.clear()
            self.render_hand_result(finished)

    def restore_context(self) -> bool:
        """After a load: the moves of this hand back in the log, and this turn's melds and additions back for
        ``undo``, by replaying the game from its deal (quietly). False if the history does not lead to the saved
        position (then the log starts empty)."""
        saved = self.game
        d = saved.to_dict()
        try:
            game = type(saved)(d["variant"], d["players"], d["seed"], d.get("rules") or {},
                               shuffle=d.get("shuffle", "mt19937"))
            moves = list(saved.history)
            while moves and game.hand_no < saved.hand_no:  # the hands before this one: not shown
                game.apply(moves.pop(0)[1])
        except (CanastaError, KeyError, ValueError):
            return False
        console, self.console = self.console, Console(file=io.StringIO(), width=self.console.width, height=24)
        self.game = game
        replayed = True
        try:
            for actor, action, _ in moves:
                snapshot = game.copy() if actor == self.seat and action.kind in _UNDOABLE else None
                self.step(actor, action)
                if snapshot is not None:
                    logged = [p for p in self.log[-1].parts if p.plain == format_action(action)] if self.log else []
                    self.undo_stack.append((snapshot, logged[-1] if logged else None))
                else:
                    self.undo_stack.clear()
        except CanastaError:
            replayed = False
        finally:
            self.console = console
        if not replayed or game.to_dict() != d:
            self.game, self.log, self.undo_stack = saved, [], []
            return False
        return True

    def computer_turn(self) -> None:
        g = self.game
        actor = g.actor
        action = self.bots[actor].choose(g.observation(actor), g.legal_actions())
        self.step(actor, action)
        if g.actor == self.seat:
            self.show = True  # the human's turn (or an answer to the partner's ask) begins

    # ---------------------------------------------------------------- input
    def read(self, prompt: str) -> str:
        """A line from the player; raises :class:`Quit` at the end of input or on Ctrl-C."""
        if self.pending is not None:
            line, self.pending = self.pending, None
            return line
        while True:
            try:
                line = self.input_fn(prompt).strip()
            except EOFError:
                raise Quit("eof") from None
            except KeyboardInterrupt:
                raise Quit("interrupt") from None
            if len(line) <= MAX_LINE:
                return line
            # a paste gone wrong: refused unread, in one line (reading it would echo every card it names)
            self.say(f"That line is longer than {MAX_LINE} characters, the most a move or command takes. "
                     "Type it again.", "red")

    def candidates(self) -> Candidates:
        g = self.game
        moves = [format_action(a) for a in g.legal_actions()] if not g.is_over and g.actor == self.seat else []
        hand = [format_card(c) for c in g.hand_cards(self.seat)]
        return Candidates(moves=moves, hand=hand, commands=COMMANDS)

    def pause(self) -> None:
        """After a hand's score sheet: wait for Enter (commands work; a move typed here is played next)."""
        while True:
            line = self.read("Press Enter for the next hand; or scores, save, record, quit > ")
            if not line:
                return
            cmd = line.split()[0].lower()
            if cmd in ("scores", "save", "record", "help", "quit", "exit", "q"):
                if not self.command(line):
                    raise Quit("quit")
                continue
            self.pending = line
            return

    def human_input(self) -> None:
        """Read and handle one line."""
        if self.show:
            self.render()
            self.show = False
        line = self.read("> ")
        if not line:
            return
        if not self.command(line):
            raise Quit("quit")

    def command(self, line: str) -> bool:
        """Handle a line: a command, or an action. False when the session should stop."""
        g = self.game
        word, _, rest = line.partition(" ")
        cmd = word.lower()
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd in ("help", "?"):
            self.say(help_text(g.variant_name))
            return True
        if cmd in ("table", "show", "t"):
            self.show = True
            return True
        if cmd in ("scores", "score", "sheet"):
            self.console.print(running_sheet(g.hand_results, g.scores, self.side_label, self.went_out_label))
            if not g.is_over:
                self.say(self.game_so_far(), "dim")
            return True
        if cmd == "save":
            self.save(rest.strip())
            return True
        if cmd == "record":
            self.record(rest.strip())
            return True
        if g.is_over or g.actor != self.seat:
            self.say("Press Enter for the next hand first.", "yellow")
            return True
        legal = g.legal_actions()
        if cmd in ("moves", "m"):
            self.list_moves(legal, rest.strip().lower())
            return True
        if cmd == "hint":
            suggestion, reason = hint(g.observation(self.seat), legal)
            self.say(f"hint: {format_action(suggestion)} ({humanize(reason)})", "cyan")
            return True
        if cmd == "undo":
            self.undo()
            return True
        action = self.parse(line, legal)
        if action is not None:
            action = self.meld_by_rank(action)
        if action is None:
            return True
        self.play(action)
        return True

    def game_so_far(self) -> str:
        """Under the score sheet mid-hand: the hand in play scores when it ends, and what ends the game."""
        g = self.game
        hands = g.variant.hands_per_game
        target = getattr(g.variant, "target_score", None)
        end = f"the game is {plural(hands, 'hand')}" if hands else f"the game ends at {target}" if target else ""
        return f"Hand {g.hand_no} in play: its points count when it ends" + (f"; {end}." if end else ".")

    def meld_by_rank(self, action: Action) -> Action | None:
        """Where melds have ids (Samba, Burraco), 'add K Kc' means your side's one set of kings: 'add #n Kc'."""
        if action.kind != ADD or action.target >= ID_BASE or not isinstance(self.game, MeldIdGame):
            return action
        obs = self.game.observation(self.seat)
        rank = "wild" if action.target == 1 else format_card(action.target * 4)[:-1]
        name = rank_plural(None if rank == "wild" else rank)
        ids = [m["id"] for m in obs["melds"][obs["side"]] if m["kind"] == "set" and (m["rank"] or "wild") == rank]
        example = f"add #{ids[0] if ids else 3} {format_card(action.cards[0])}"
        if len(ids) == 1 and len(action.cards) == 1:
            return Action(ADD, action.cards, ID_BASE + ids[0])
        if not ids:
            self.say(f"Your side has no meld of {name}. Melds are named by their id here (shown on the table), "
                     f"e.g. '{example}'.", "red")
        elif len(ids) > 1:
            self.say(f"Your side has {len(ids)} melds of {name} ({', '.join(f'#{i}' for i in ids)}): name one, "
                     f"e.g. '{example}'.", "red")
        else:
            self.say(f"Add one card at a time, e.g. '{example}'.", "red")
        return None

    def play(self, action: Action) -> None:
        g = self.game
        obs = g.observation(self.seat)
        if action.kind == DISCARD and obs.get("permission") is True and obs["turn"] == self.seat \
                and len(obs["hand"]) > 1 and action.cards and format_card(action.cards[0]) in obs["hand"]:
            penalty = g.variant.rules.get("failed_go_out_penalty", 0)
            left = len(obs["hand"]) - 1
            self.say(f"Your partner said yes to going out: discarding {format_card(action.cards[0])} now leaves you "
                     f"{plural(left, 'card')}, and not going out costs your side {penalty} points.", "yellow")
            if self.read("Discard anyway? (yes/no) > ").lower() not in ("y", "yes"):
                self.say("Not discarded.")
                return
        snapshot = g.copy() if action.kind in _UNDOABLE else None
        before_hand = g.hand_no
        try:
            self.step(self.seat, action)
        except IllegalActionError as exc:
            self.say(f"Not allowed: {self.explain(exc, action, obs)} [rule: {exc.rule}]", "red")
            return
        if snapshot is not None and g.hand_no == before_hand and not g.is_over:
            logged = [p for e in self.log[-1:] for p in e.parts if p.plain == format_action(action)]
            self.undo_stack.append((snapshot, logged[-1] if logged else None))
        elif action.kind not in _UNDOABLE:
            self.undo_stack.clear()
        if action.kind == ASK:
            return  # the partner answers next
        # after the turn passes, the next prompt shows the table again
        self.show = self.screen or g.actor == self.seat or g.hand_no != before_hand

    def explain(self, exc: IllegalActionError, action: Action, obs: dict[str, Any]) -> str:
        """The engine's reason, said for a player: which cards you lack, 'kings' for 'Ks', a verb the game lacks."""
        message = humanize(exc.message)
        if exc.rule == "not-in-hand":
            missing = Counter(format_card(c) for c in action.cards)
            missing.subtract(obs["hand"])
            lacking = [c for c, k in missing.items() for _ in range(max(k, 0))]
            if lacking:
                message += f": you hold no {' '.join(lacking)}" if len(lacking) == 1 else \
                    f": you lack {' '.join(lacking)}"
        if exc.rule in ("no-cards-expected", "unknown-action") and not action.cards:
            message = f"{self.game.variant.title} has no '{action.kind}' action"
            if action.kind == MERGE:
                message += " (merging two melds of a rank is Samba's)"
        return message

    def undo(self) -> None:
        if not self.undo_stack:
            self.say("Nothing to undo: 'undo' takes back the melds and additions of this turn, before the discard.",
                     "yellow")
            return
        self.game, logged = self.undo_stack.pop()
        if logged is not None:  # the log shows what happened: a move taken back leaves it
            for entry in self.log:
                entry.parts = [p for p in entry.parts if p is not logged]
            self.log = [e for e in self.log if e.parts]
        self.say(f"Taken back: {logged.plain if logged is not None else 'your last meld'}.")
        self.show = True

    def list_moves(self, legal: list[Action], which: str) -> None:
        """The legal moves, numbered, grouped by kind and then by meld; ``which`` keeps one kind or rank."""
        groups: dict[str, list[tuple[int, str]]] = {}
        for i, a in enumerate(legal, 1):
            text = format_action(a)
            key = self.move_group(a)
            if which and which not in key.lower() and not text.lower().startswith(which):
                continue
            groups.setdefault(key, []).append((i, text))
        if not groups:
            self.say(f"No legal move matches {which!r}: 'moves' lists them all.", "yellow")
            return
        lines: list[Text] = []
        for key, items in groups.items():
            tokens = [Text.assemble((str(i), "cyan"), f" {text}") for i, text in items]
            lines.extend(wrap_tokens(Text(f"{key}: ", style="bold"), tokens, self.console.width, sep="   "))
        shown = sum(len(items) for items in groups.values())
        title = f"{plural(len(legal), 'legal move')}" if shown == len(legal) else f"{shown} of {len(legal)} legal moves"
        self.print_paged(lines, f"{title}; type a number or the move")

    def move_group(self, a: Action) -> str:
        if a.kind == MELD:
            naturals = [c for c in a.cards if not is_wild_card(c)]
            ranks = {c >> 2 for c in naturals}
            if len(ranks) > 1:
                return "meld a run"
            rank = format_card(naturals[0])[:-1] if naturals else None
            return f"meld {rank_plural(rank)}"
        if a.kind == ADD:
            if a.target >= ID_BASE:
                return f"add to #{a.target - ID_BASE} {self.meld_name(a.target - ID_BASE)}".rstrip()
            return "add to " + ("wild cards" if a.target == 1 else rank_plural(format_card(a.target * 4)[:-1]))
        if a.kind == MERGE:
            return "merge"
        if a.kind == TAKE:
            return "take the pile"
        return a.kind

    def meld_name(self, meld_id: int) -> str:
        obs = self.game.observation(self.seat)
        for side in obs["melds"]:
            for m in side:
                if m.get("id") == meld_id:
                    return "run" if m["kind"] == "run" else rank_plural(m["rank"], m["cards"])
        return ""

    def print_paged(self, lines: list[Text], title: str) -> None:
        self.say(title, "bold")
        if not self.page:
            for line in lines:
                self.console.print(line)
            return
        room = max(self.console.height - 3, 5)
        used = 0
        for n, line in enumerate(lines):
            need = self.lines_needed(line)
            if used and used + need > room:
                more = self.read(f"-- {len(lines) - n} more groups: Enter for the next page, q to stop -- ")
                if more.lower().startswith("q"):
                    return
                used = 0
            self.console.print(line)
            used += need

    def parse(self, line: str, legal: list[Action]) -> Action | None:
        if line.isdigit():
            k = int(line)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            self.say(f"There is no move {k}: type 'moves' to list the {plural(len(legal), 'legal move')}.", "red")
            return None
        try:
            return parse_action(line)
        except NotationError as exc:
            message = str(exc)
            if line.split()[0].lower() not in KINDS:  # the actions of the game played, not every variant's
                message = f"unknown action {line.split()[0]!r}; actions are: {', '.join(self.action_words())}"
            self.say(f"Cannot read that: {message}. Type 'help' for the notation or 'moves' for a list.", "red")
            return None

    def action_words(self) -> list[str]:
        """The actions of the variant played: Samba's merge, American's special hands and Hand and Foot's keep
        only where they exist."""
        g = self.game
        absent = {MERGE} if not isinstance(g, SambaGame) else set()
        if g.variant_name != "american":
            absent.add(SPECIAL)
        if not g.variant.rules.get("hand_passing"):
            absent.add(KEEP)
        return [k for k in KINDS if k not in absent]

    # ---------------------------------------------------------------- files
    def save(self, name: str) -> None:
        if not name:
            self.say("save needs a file name: save FILE", "red")
            return
        refused = foreign_file(Path(name), "a saved game")
        if refused:
            self.say(f"Not saved: {refused}.", "red")
            return
        try:
            write_save(Path(name), self.game, self.seat, self.levels)
        except OSError as exc:
            self.say(f"Cannot save to {name}: {exc.strerror or exc}", "red")
            return
        self.say(f"Saved to {name}; resume with: canasta play --load {shlex.quote(name)}", whole=True)

    def record(self, args: str) -> None:
        words = args.split()
        if not words or len(words) > 2 or (len(words) == 2 and words[1] != "full"):
            self.say("record needs a file name: record FILE (your view), or record FILE full (every card)", "red")
            return
        full = len(words) == 2
        try:
            text = export_record(self.game, None if full else self.seat)
        except NotationError as exc:
            self.say(f"No record: {exc}", "red")
            return
        refused = foreign_file(Path(words[0]), "a game record")
        if refused:
            self.say(f"Not written: {refused}.", "red")
            return
        try:
            Path(words[0]).write_text(text)
        except OSError as exc:
            self.say(f"Cannot write {words[0]}: {exc.strerror or exc}", "red")
            return
        if full:
            self.say(f"Wrote the full game record to {words[0]} (every hand and the stock, in clear); "
                     f"check it with: canasta replay {words[0]}", whole=True)
        else:
            self.say(f"Wrote the game record to {words[0]}, as seen from your seat (other hands hidden as ??); "
                     f"'record {words[0]} full' writes one that canasta replay checks.", whole=True)

    def write_autosave(self) -> str:
        if self.autosave is None:
            return ""
        try:
            write_save(self.autosave, self.game, self.seat, self.levels, make_dirs=True)
        except OSError as exc:
            return f" (could not autosave to {self.autosave}: {exc.strerror or exc})"
        return f" Saved to {self.autosave}; resume with: canasta play --resume"

    # ---------------------------------------------------------------- loop
    def run(self) -> None:
        g = self.game
        try:
            while not self.game.is_over:
                if self.pause_due:
                    self.pause_due = False
                    self.pause()
                g = self.game
                if g.actor == self.seat:
                    self.human_input()
                else:
                    self.computer_turn()
        except Quit as stop:
            saved = self.write_autosave()
            if stop.how == "eof":
                self.say("\nEnd of input: the game is left unfinished." + (saved or " (use 'save FILE' to keep it)"),
                         "yellow", whole=True)
            elif stop.how == "interrupt":
                self.say("\nInterrupted: the game is left unfinished." + (saved or " (use 'save FILE' to keep it)"),
                         "yellow", whole=True)
            else:
                self.say("Game left unfinished." + (saved or " Bye."), whole=True)
            return
        except KeyboardInterrupt:  # Ctrl-C while a computer player thinks
            self.say("\nInterrupted: the game is left unfinished." + (self.write_autosave() or " (use 'save FILE' to keep it)"),
                     "yellow", whole=True)
            return
        self.render_winner()


__all__ = ["COMMANDS", "HELP", "VARIANT_NOTES", "Quit", "TerminalGame", "help_text"]
