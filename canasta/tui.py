"""`canasta play`: a terminal game against computer players.

The human plays one seat; the other seats are :class:`~canasta.players.BasicPlayer`.
Input is the action notation (``draw``, ``take Kh Kd``, ``meld 9s 9h 2c``,
``add K Kc``, ``discard 4d``, ``ask``, ``yes``, ``no``, ``retract``, ``end``), a
number from ``moves``, or a command (``help``, ``moves``, ``hint``, ``table``,
``save FILE``, ``quit``). Input and output are injectable so tests can script
a whole session.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from canasta.cards import JOKER, format_card, is_red, parse_card, rank_of, sort_key
from canasta.engine.actions import ASK, DRAW, KEEP, NO, TAKE, YES, Action
from canasta.engine.game import Game
from canasta.errors import IllegalActionError, NotationError, OptionError
from canasta.notation import format_action, parse_action
from canasta.players import BasicPlayer, Player, hint
from canasta.scoring import settlement_lines

HELP = """\
Actions (one step at a time; a turn is draw/take, then melds and additions, then a discard):
  draw                 draw from the stock
  take Kh Kd           take the pile, showing two cards that meld with the top card
  take                 take the pile by adding its top card to your side's meld
  meld 9s 9h 2c        start a meld with three cards (at least two natural)
  add K Kc             add cards to your side's meld of kings ('add W 2c' for a wild meld)
  discard 4d           discard one card, ending your turn
  ask / yes / no       "Partner, may I go out?" and the answer
  retract              take back an initial meld below the minimum (the minimum rises by 10)
  end                  decline the pile when the stock is used up (ends the hand)
Burraco: 'take' takes the whole pile; 'meld 5h 6h 7h' starts a set or a run; 'add #3 8h'
  adds one card to meld #3 (ids are shown on the table); run out of cards to pick up your
  pozzetto; close with a discard once your side has its pozzetto and a burraco.
Samba: 'take 8h 8d' takes the pile with a natural pair; 'take #3' puts the top card on meld #3;
  'meld 4h 5h 6h' starts an escalera, 'add #3 7h' adds one card; 'merge #3 #5' combines two sets
  of a rank into set #3 (seven cards at most); two seven-card melds to go out.
Hand and Foot with hand_passing: 'keep 1' or 'keep 2' keeps that dealt pile as your foot (its top card
  is turned up) and passes the other to the player on your left, whose hand it becomes.
American: 'special straight' (or pairs, pairs-wild, garbage, zip-code) lays the whole hand down as
  a special hand; 'meld 3h' lays out the one three kept in hand (a replacement is drawn).
Italian: Samba with a pile always frozen (take it with a natural pair); 'meld 2s 2h 2d' melds
  deuces, and no 2 plays wild while your side's meld of deuces is short of seven.
Cards: Ah, 10d (or Td), 3s, JK. A number picks that line of 'moves'.
Commands: help, moves, hint, table, save FILE, quit"""

InputFn = Callable[[str], str]


def _card_text(code_text: str) -> Text:
    """A card in red or default colour (the text itself is the notation)."""
    code = parse_card(code_text)
    style = "red" if is_red(code) else ("magenta" if code == JOKER else "")
    return Text(code_text, style=style)


def _wild_last(code: int) -> tuple[int, int, int]:
    """Naturals first, then wild cards (how melds are read: 'kings with a two')."""
    return (int(code == JOKER or rank_of(code) == 2), *sort_key(code))


def _cards_text(cards: list[str], group: bool = False) -> Text:
    """Cards separated by spaces, naturals before wild cards; ``group`` puts a bar between ranks (for the hand)."""
    out = Text()
    prev: int | None = None
    for c in sorted(cards, key=lambda t: _wild_last(parse_card(t))):
        r = rank_of(parse_card(c))
        if prev is not None:
            out.append(" | " if group and r != prev else " ")
        out.append_text(_card_text(c))
        prev = r
    return out


class TerminalGame:
    """One interactive session: the game, the computer players and the I/O."""

    def __init__(self, game: Game, seat: int, input_fn: InputFn, console: Console) -> None:
        if not 0 <= seat < game.num_players:
            raise OptionError(f"--seat must be between 0 and {game.num_players - 1}, not {seat}")
        self.game = game
        self.seat = seat
        self.input_fn = input_fn
        self.console = console
        self.bots: dict[int, Player] = {s: BasicPlayer(s) for s in range(game.num_players) if s != seat}
        self.hands_seen = len(game.hand_results)
        self.show = True  # render the table before the next prompt

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
        names = ", ".join("you" if s == self.seat else f"seat {s}" for s in seats)
        if len(seats) == 1:  # no partnerships: a side is one player
            return "you" if seats[0] == self.seat else f"seat {seats[0]}"
        return f"side {side} ({names})"

    def say(self, text: str | Text, style: str = "") -> None:
        if isinstance(text, str):
            text = Text(text, style=style)
        self.console.print(text)

    # ---------------------------------------------------------------- display
    def render_runs_table(self, obs: dict[str, Any]) -> None:
        """The table of a variant with meld ids (Burraco): melds by id, runs in order, pozzetti."""
        g = self.game
        ct = g._ct  # Samba: red threes and the initial meld instead of pozzetti
        table = Table(show_header=True, header_style="bold", expand=False)
        for col in ("side", "score", "red 3s / minimum" if ct else "pozzetto", "melds"):
            table.add_column(col)
        for side in range(g.num_sides):
            melds = Text()
            for i, m in enumerate(obs["melds"][side]):
                if i:
                    melds.append("\n")
                label = f"#{m['id']} " + (f"{m['rank'] or 'wild card'}s" if m["kind"] == "set" else f"run {m['suit']}")
                melds.append(label, style="bold")
                if m["canasta"] and ct:
                    kind = "samba" if m["kind"] == "run" else "natural canasta" if m["natural"] else \
                        "bolivia" if not m["rank"] else "mixed canasta"
                    melds.append(f" ({kind})", style="green")
                elif m["canasta"]:
                    melds.append(" (clean burraco)" if m["natural"] else " (dirty burraco)", style="green")
                melds.append(": ", style="bold")
                if m["kind"] == "run":
                    for j, c in enumerate(m["cards"]):
                        if j:
                            melds.append(" ")
                        t = _card_text(c)
                        if j == m["wild_index"]:
                            t.stylize("underline")
                        melds.append_text(t)
                else:
                    melds.append_text(_cards_text(m["cards"]))
            taken = "taken" if obs["piles_taken"][side] else "not yet"
            if ct:
                reds = " ".join(obs["red_threes"][side]) or "-"
                taken = f"{reds} / " + ("opened" if obs["opened"][side] else str(obs["minimum"][side]))
            table.add_row(self.side_label(side), str(obs["scores"][side]), taken,
                          melds if obs["melds"][side] else Text("-"))
        self.console.print(table)
        counts = ", ".join(f"{self.who(s)}: {n}" + (f" (+{obs['face_down'][s]} face down)" if obs["face_down"][s] else "")
                           for s, n in enumerate(obs["hand_sizes"]))
        self.say(f"Cards in hand: {counts}")
        pile = Text(f"Stock {obs['stock_size']} · pile {obs['pile_size']}")
        if obs["pile_top"]:
            pile.append(", top ")
            pile.append_text(_card_text(obs["pile_top"]))
        if ct:
            pile.append(" · frozen" if obs["frozen"] else "")
        else:
            pile.append(f" · pozzetti left: {len(obs['extra_piles'])}")
        if obs["barred"]:
            pile.append(f" · {obs['barred']} came from a one-card pile: not to be discarded this turn", style="yellow")
        self.console.print(pile)

    def render(self) -> None:
        g = self.game
        obs = g.observation(self.seat)
        self.console.rule(f"Hand {obs['hand_no']} · dealer seat {obs['dealer']} · you are seat {self.seat}")
        if "extra_piles" in obs:
            self.render_runs_table(obs)
            self.render_prompt(obs)
            return
        table = Table(show_header=True, header_style="bold", expand=False)
        v = g.variant
        # Mille has no initial meld minimum and no red threes: those columns are left out
        show_minimum = v.minimum(0) > 0
        show_threes = not v.THREES_ORDINARY
        threes_label = "threes" if "bonus_cards" in obs else "red threes"  # American lays out both colours
        cols = ["side", "score"] + (["minimum"] if show_minimum else []) + ([threes_label] if show_threes else [])
        books = obs.get("books")  # Hand and Foot: closed piles
        if books is not None:
            cols.append("piles (clean/dirty/wild)")
        for col in [*cols, "melds"]:
            table.add_column(col)
        for side in range(g.num_sides):
            melds = Text()
            for i, m in enumerate(obs["melds"][side]):
                if i:
                    melds.append("\n")
                melds.append(str(m["rank"]), style="bold")
                if m["canasta"]:
                    melds.append(" (natural canasta)" if m["natural"] else " (mixed canasta)", style="green")
                elif not v.HAS_CANASTAS and m["natural"] and m["rank"] != "wild" and len(m["cards"]) >= 8:
                    melds.append(" (natural: all eight)", style="green")
                melds.append(": ", style="bold")
                melds.append_text(_cards_text(m["cards"]))
            row = [self.side_label(side), str(obs["scores"][side])]
            if show_minimum:
                row.append(str(obs["minimum"][side]) + ("" if not obs["opened"][side] else " (opened)"))
            cells: list[str | Text] = list(row)
            if show_threes:
                cells.append(_cards_text(obs["red_threes"][side]))
            if books is not None:
                kinds = [sum(1 for b in books[side] if b["kind"] == k) for k in ("clean", "dirty", "wild")]
                need = obs["books_needed"]
                ready = " (ready to go out)" if obs["books_ready"][side] else ""
                if "knee_sizes" in obs:  # Triple Play: the basic book, not counts by kind
                    cells.append(f"{kinds[0]}/{kinds[1]}/{kinds[2]}{ready}")
                else:
                    cells.append(f"{kinds[0]}/{kinds[1]}/{kinds[2]} of {need['clean']}/{need['dirty']}/{need['wild']}")
            table.add_row(*cells, melds if obs["melds"][side] else Text("-"))
        self.console.print(table)
        counts = ", ".join(f"{self.who(s)}: {n}" for s, n in enumerate(obs["hand_sizes"]))
        if "foot_sizes" in obs:
            knees = obs.get("knee_sizes")
            shown = obs.get("foot_shown") or [None] * len(obs["hand_sizes"])  # hand_passing: turned-up top
            counts = ", ".join(f"{self.who(s)}: {n}" + (f" + knee {knees[s]}" if knees and knees[s] else "")
                               + (" (in the foot)" if obs["in_foot"][s] else f" + foot {obs['foot_sizes'][s]}")
                               + (f" (top {shown[s]})" if shown[s] else "")
                               for s, n in enumerate(obs["hand_sizes"]))
        self.say(f"Cards in hand: {counts}")
        pile = Text(f"Stock {obs['stock_size']} · pile {obs['pile_size']}")
        if obs["pile_top"]:
            pile.append(", top ")
            pile.append_text(_card_text(obs["pile_top"]))
        if books is None:
            pile.append(" · FROZEN" if obs["frozen"] else " · not frozen", style="bold cyan" if obs["frozen"] else "")
        if "bonus_cards" in obs:  # Modern American: the turn card, bonus cards face down, dead ranks
            pile.append(" · turn card drawn" if obs["turn_card_drawn"] else " · turn card in the stock")
            held = ", ".join(f"{self.who(s)}: {n}" for s, n in enumerate(obs["bonus_cards"]) if n)
            if held:
                pile.append(f" · bonus cards face down: {held}")
            if obs["dead_ranks"]:
                pile.append(f" · dead: {' '.join(obs['dead_ranks'])}")
        self.console.print(pile)
        side = obs["side"]
        if not obs["opened"][side] and obs["pending_value"] and obs["turn"] % g.num_sides == side:
            self.say(f"Initial meld so far: {obs['pending_value']} of {obs['minimum'][side]}", "yellow")
        self.render_prompt(obs)

    def render_prompt(self, obs: dict[str, Any]) -> None:
        hand = Text("Your hand: ", style="bold")
        hand.append_text(_cards_text(obs["hand"], group=True))
        self.console.print(hand)
        if obs["phase"] == "answer":
            self.say(f"{self.who(obs['turn'])} asks: may I go out? Answer yes or no.", "bold yellow")
        elif obs["phase"] == "pass":  # Hand and Foot's hand-passing deal
            up = ", ".join(f"{self.who(s)}: {' / '.join(p)}" for s, p in enumerate(obs["pass_shown"]))
            self.say(f"Turned up (pile 1 / pile 2): {up}")
            if obs["actor"] == self.seat:
                left = self.who((self.seat + 1) % len(obs["hand_sizes"]))
                self.say(f"Keep a pile as your foot ('keep 1' or 'keep 2'); the other goes to {left} as their hand.",
                         "bold")
            else:
                self.say(f"Waiting for {self.who(obs['actor'])} to keep a foot.")
        elif obs["turn"] == self.seat:
            step = "draw or take the pile" if obs["phase"] == "draw" else "meld, add, or discard"
            self.say(f"Your turn: {step}.", "bold")
        else:
            self.say(f"Waiting for {self.who(obs['turn'])}.")

    def render_hand_result(self) -> None:
        """The score sheet of each hand that ended since the last call."""
        g = self.game
        while self.hands_seen < len(g.hand_results):
            hr = g.hand_results[self.hands_seen]
            self.hands_seen += 1
            out = hr["went_out"]
            if g._ids:  # Burraco: closing, or the stock down to two / a stalemate
                how = "no one closed" if out is None else f"{self.who(out)} closed"
            else:
                how = "the stock ran out" if out is None else f"{self.who(out)} went out" + (" concealed" if hr["concealed"] else "")
            self.console.rule(f"End of hand {hr['hand']}: {how}")
            table = Table(show_header=True, header_style="bold")
            table.add_column("item")
            sides = hr["sides"]
            for side in range(len(sides)):
                table.add_column(self.side_label(side), justify="right")
            items: list[str] = []
            for s in sides:
                items.extend(k for k in s["items"] if k not in items)
            for item in items:
                table.add_row(item.replace("_", " "), *(str(s["items"].get(item, 0)) for s in sides))
            table.add_row("hand total", *(str(s["total"]) for s in sides), style="bold")
            if any("naturals" in s for s in sides):  # Mille: asterisks and chapeaux
                table.add_row("naturals", *("*" * s.get("naturals", 0) or "-" for s in sides))
                table.add_row("chapeau", *("yes" if s.get("chapeau") else "-" for s in sides))
            table.add_row("game score", *(str(t) for t in hr["totals"]), style="bold")
            self.console.print(table)
            if not g.is_over:
                self.show = True

    def render_winner(self) -> None:
        g = self.game
        if g.winner is None:
            if g.is_over:  # a game of so many hands (Hand and Foot) may end in a tie
                self.console.rule("Game over")
                self.say(f"A tie, {' to '.join(str(s) for s in g.scores)}.", "bold")
            return
        scores = " to ".join(str(s) for s in sorted(g.scores, reverse=True))
        mine = g.winner == g.side_of(self.seat)
        self.console.rule("Game over")
        label = self.side_label(g.winner)
        verb = "win" if label == "you" else "wins"
        self.say(f"{label[0].upper()}{label[1:]} {verb}, {scores}." + (" Well played!" if mine else ""), "bold green")
        settlement = g.settlement()
        if settlement is not None:
            for line in settlement_lines(settlement, self.side_label):
                self.say(line)


    # ---------------------------------------------------------------- actions
    def announce(self, actor: int, action: Action) -> None:
        g = self.game
        if actor == self.seat:
            got = g.history[-1][2] if g.history and g.history[-1][0] == actor else ()
            if action.kind == DRAW and got:
                drawn = Text("You drew ")
                drawn.append_text(_cards_text([format_card(c) for c in got]))
                self.console.print(drawn)
            elif action.kind in (YES, NO):
                self.say(f"You answered {action.kind}.")
            elif action.kind == KEEP:
                self.say(f"You keep pile {action.target} as your foot.")
            if action.kind == KEEP and g.phase != "pass":
                self.say_passing()
            return
        if action.kind == KEEP:  # the choices are hidden until everyone has chosen
            self.say(f"{self.who(actor)} keeps a foot.")
            if g.phase != "pass":
                self.say_passing()
            return
        text = Text(f"{self.who(actor)}: ", style="bold")
        text.append(format_action(action))
        if action.kind == TAKE:
            text.append(" (takes the pile)")
        self.console.print(text)

    def say_passing(self) -> None:
        """After the hand-passing deal: which pile each seat kept (now public)."""
        kept = self.game.observation(self.seat)["kept"]
        self.say("Feet kept: " + ", ".join(f"{self.who(s)} pile {k}" for s, k in enumerate(kept))
                 + "; the other piles went to the left.")

    def step(self, actor: int, action: Action) -> None:
        """Apply an action (already checked or from the legal list) and report what happened."""
        before = len(self.game.hand_results)
        self.game.apply(action)
        self.announce(actor, action)
        if len(self.game.hand_results) > before:
            self.render_hand_result()

    def computer_turn(self) -> None:
        g = self.game
        actor = g.actor
        action = self.bots[actor].choose(g.observation(actor), g.legal_actions())
        self.step(actor, action)
        if g.actor == self.seat:
            self.show = True  # the human's turn (or an answer to the partner's ask) begins

    def human_input(self) -> bool:
        """Read and handle one line; False when the session should stop."""
        g = self.game
        if self.show:
            self.render()
            self.show = False
        try:
            line = self.input_fn("> ").strip()
        except (EOFError, KeyboardInterrupt):
            self.say("\nEnd of input: the game is left unfinished (use 'save FILE' to keep it).", "yellow")
            return False
        if not line:
            return True
        word, _, rest = line.partition(" ")
        cmd = word.lower()
        legal = g.legal_actions()
        if cmd in ("quit", "exit", "q"):
            self.say("Game left unfinished. Bye.")
            return False
        if cmd in ("help", "?"):
            self.say(HELP)
            return True
        if cmd in ("table", "show", "t"):
            self.show = True
            return True
        if cmd in ("moves", "m"):
            for i, a in enumerate(legal, 1):
                self.say(f"{i:3}. {format_action(a)}")
            return True
        if cmd == "hint":
            suggestion, reason = hint(g.observation(self.seat), legal)
            self.say(f"hint: {format_action(suggestion)} ({reason})", "cyan")
            return True
        if cmd == "save":
            self.save(rest.strip())
            return True
        action = self.parse(line, legal)
        if action is None:
            return True
        before_hand = g.hand_no
        try:
            self.step(self.seat, action)
        except IllegalActionError as exc:
            self.say(f"Not allowed: {exc.message} [rule: {exc.rule}]", "red")
            return True
        if action.kind == ASK:
            return True  # the partner answers next
        # after the turn passes, the next prompt shows the table again
        self.show = g.actor == self.seat or g.hand_no != before_hand
        return True

    def parse(self, line: str, legal: list[Action]) -> Action | None:
        if line.isdigit():
            k = int(line)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            self.say(f"There is no move {k}: type 'moves' to list the {len(legal)} legal moves.", "red")
            return None
        try:
            return parse_action(line)
        except NotationError as exc:
            self.say(f"Cannot read that: {exc}. Type 'help' for the notation or 'moves' for a list.", "red")
            return None

    def save(self, name: str) -> None:
        if not name:
            self.say("save needs a file name: save FILE", "red")
            return
        try:
            Path(name).write_text(self.game.to_json())
        except OSError as exc:
            self.say(f"Cannot save to {name}: {exc.strerror or exc}", "red")
            return
        self.say(f"Saved to {name}; resume with: canasta play --load {name}")

    # ---------------------------------------------------------------- loop
    def run(self) -> None:
        g = self.game
        while not g.is_over:
            if g.actor == self.seat:
                if not self.human_input():
                    return
            else:
                self.computer_turn()
        self.render_winner()


def _make_console(output: Console | TextIO | None) -> Console:
    if isinstance(output, Console):
        return output
    if output is None:
        return Console(highlight=False)
    return Console(file=output, highlight=False, width=110, color_system=None, force_terminal=False)


def run_play(*, variant: str, players: int, seed: int | None, rules: dict[str, Any], seat: int,
             load: Path | None, input_fn: InputFn = input, output: Console | TextIO | None = None) -> None:
    """Play ``variant`` in the terminal as ``seat`` against BasicPlayers (or resume ``load``)."""
    console = _make_console(output)
    if load is not None:
        try:
            text = load.read_text()
        except OSError as exc:
            raise OptionError(f"cannot read {load}: {exc.strerror or exc}") from exc
        game = Game.from_json(text)
        console.print(Text(f"Resumed {load}: {game.variant.title}, {game.num_players} players, hand {game.hand_no}."))
    else:
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)  # shown, so the deal can be replayed
        game = Game(variant, players, seed, rules)
        console.print(Text(f"{game.variant.title}, {players} players, seed {seed}. Type 'help' for help."))
    TerminalGame(game, seat, input_fn, console).run()


__all__ = ["HELP", "TerminalGame", "run_play"]
