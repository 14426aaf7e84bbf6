"""What the terminal game shows: the table, the score sheets and the words for cards and melds.

Everything here reads an observation (``Game.observation(seat)``) or a hand result and returns
Rich text; nothing reads input or the engine's private state. The table is compact: one line a
side, its melds wrapped below it, a line for the stock and the pile and one for the hand sizes,
so that a 4-player table, the last moves, the hand and the prompt fit a terminal of 80x24.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from canasta.cards import JOKER, is_red, parse_card, rank_of, sort_key

#: How a meld of a rank is named: "aces", not "As" (which reads like the ace of spades).
RANK_PLURALS = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "10": "tens", "9": "nines", "8": "eights",
                "7": "sevens", "6": "sixes", "5": "fives", "4": "fours", "3": "threes", "2": "deuces",
                "wild": "wild cards", "JK": "jokers"}

Labeller = Callable[[int], str]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def rank_plural(rank: str | None, cards: Sequence[str] = ()) -> str:
    """The name of a meld's rank: "kings"; a set without a rank is "wild cards" (Italian: "deuces")."""
    if not rank:
        if cards and all(c.startswith("2") for c in cards):
            return "deuces"
        return "wild cards"
    return RANK_PLURALS.get(rank, rank)


_RANK_WORD = r"(10|[2-9JQKA])s"
_MESSAGE_RANKS = [
    (re.compile(rf"\bmeld of {_RANK_WORD}\b"), "meld of {}"),
    (re.compile(rf"\b(\d+) {_RANK_WORD}\b"), "{} {}"),
    (re.compile(rf"\bonly {_RANK_WORD} and\b"), "only {} and"),
    (re.compile(rf"^{_RANK_WORD} are\b"), "{} are"),
]


def humanize(message: str) -> str:
    """Engine messages name ranks as "Ks"; say "kings" (and "1 card", not "1 cards")."""
    for pattern, template in _MESSAGE_RANKS:
        def repl(m: re.Match[str], template: str = template) -> str:
            groups = list(m.groups())
            groups[-1] = RANK_PLURALS.get(groups[-1], groups[-1] + "s")
            return template.format(*groups)
        message = pattern.sub(repl, message)
    return re.sub(r"\b1 cards\b", "1 card", message)


def card_text(code_text: str) -> Text:
    """A card in red or default colour (the text itself is the notation)."""
    code = parse_card(code_text)
    style = "red" if is_red(code) else ("magenta" if code == JOKER else "")
    return Text(code_text, style=style)


def is_wild_text(card: str) -> bool:
    return card == "JK" or card.startswith("2")


def _wild_last(code: int) -> tuple[int, int, int]:
    """Naturals first, then wild cards (how melds are read: 'kings with a two')."""
    return (int(code == JOKER or rank_of(code) == 2), *sort_key(code))


def cards_text(cards: Sequence[str], group: bool = False, sort: bool = True) -> Text:
    """Cards separated by spaces, naturals before wild cards; ``group`` puts a bar between ranks (the hand)."""
    out = Text()
    prev: int | None = None
    ordered = sorted(cards, key=lambda t: _wild_last(parse_card(t))) if sort else list(cards)
    for c in ordered:
        r = rank_of(parse_card(c))
        if prev is not None:
            out.append(" | " if group and r != prev else " ")
        out.append_text(card_text(c))
        prev = r
    return out


def family(obs: dict[str, Any]) -> str:
    """Which kind of table: "ids" (Burraco), "samba" (Samba family), "feet" (Hand and Foot), "american", "classic"."""
    if "extra_piles" in obs:
        return "samba" if "initial_canasta" in obs else "ids"
    if "books" in obs:
        return "feet"
    if "bonus_cards" in obs:
        return "american"
    return "classic"


def meld_text(m: dict[str, Any], fam: str) -> Text:
    """One meld, compactly: ``kings ×5 +2c JK``, ``#3 aces ×4``, ``#5 run 4h-8h``; canastas in green."""
    out = Text()
    label = f"#{m['id']} " if "id" in m else ""
    if m.get("kind") == "run":
        cards = list(m["cards"])
        out.append(label + "run ", style="bold")
        if m.get("wild_index", -1) < 0 and len(cards) > 3:
            out.append_text(card_text(cards[0]))
            out.append("-")
            out.append_text(card_text(cards[-1]))
        else:
            for j, c in enumerate(cards):
                if j:
                    out.append(" ")
                t = card_text(c)
                if j == m.get("wild_index", -1):
                    t.stylize("underline")
                out.append_text(t)
        if m["canasta"]:
            out.append(" samba" if fam == "samba" else (" clean burraco" if m["natural"] else " dirty burraco"),
                       style="bold green")
        return out
    rank = m.get("rank")
    name = rank_plural(None if rank in (None, "wild") else rank, m["cards"])
    out.append(label + name, style="bold")
    wilds = [c for c in m["cards"] if is_wild_text(c)]
    naturals = len(m["cards"]) - len(wilds)
    if name in ("wild cards", "deuces"):
        out.append(" ")
        out.append_text(cards_text(m["cards"]))
    else:
        out.append(f" ×{naturals}")
        if wilds:
            out.append(" +")
            out.append_text(cards_text(wilds))
    if m["canasta"]:
        if fam == "ids":
            out.append(" clean burraco" if m["natural"] else " dirty burraco", style="bold green")
        else:
            out.append(" canasta", style="bold green")
    return out


def wrap_tokens(head: Text, tokens: Sequence[Text], width: int, sep: str = " · ", indent: str = "  ") -> list[Text]:
    """``head`` then the tokens, wrapped between tokens (a token is never split); later lines are indented."""
    lines: list[Text] = []
    line = head.copy()
    fresh = True  # nothing on the line after its head or indent yet
    for token in tokens:
        if not fresh and len(line) + len(sep) + len(token) > width:
            lines.append(line)
            line, fresh = Text(indent), True
        if not fresh:
            line.append(sep, style="dim" if sep.strip() else "")
        line.append_text(token)
        fresh = False
    lines.append(line)
    return lines


def melds_lines(melds: Sequence[dict[str, Any]], fam: str, width: int = 80) -> list[Text]:
    """The melds of a side, indented, wrapped between melds (a meld is never split across lines)."""
    return wrap_tokens(Text("  "), [meld_text(m, fam) for m in melds], width)


def books_line(books: Sequence[dict[str, Any]]) -> Text:
    """Hand and Foot's closed books of a side by kind: ``books clean: K Q 9 · dirty: 8 · wild``."""
    line = Text("  books", style="green")
    for kind in ("clean", "dirty", "wild"):
        ranks = [b["rank"] for b in books if b["kind"] == kind]
        if ranks:
            line.append(" · " if len(line) > 7 else " ", style="dim")
            line.append(f"{kind}: " + " ".join("W" if r == "wild" else r for r in ranks))
    return line


#: Hand and Foot's ways to take the pile (its table rule pile_pickup), as the pile line says them.
FEET_PICKUP = {"seven": "takes the top 7 cards", "natural_pair": "a natural pair of the top card takes the top 7",
               "none": "never taken", "whole": "taken whole", "foot_whole": "taken whole from the foot only"}


def pile_status(obs: dict[str, Any], fam: str, blocked: bool = False, pickup: str | None = None) -> Text:
    """Stock and pile, and whether the pile is frozen for you and why (``blocked``: the top card stops any take;
    ``pickup``: Hand and Foot's rule for taking it)."""
    line = Text(f"Stock {obs['stock_size']} · pile {obs['pile_size']}")
    if obs["pile_top"]:
        line.append(", top ")
        line.append_text(card_text(obs["pile_top"]))
    side = obs["side"]
    if fam == "ids":
        line.append(f" · pozzetti left: {len(obs['extra_piles'])}")
    elif fam == "feet" and obs["pile_size"]:
        if blocked:
            line.append(f" · blocked: {obs['pile_top']} on top", style="bold cyan")
        elif pickup in FEET_PICKUP:
            line.append(f" · {FEET_PICKUP[pickup]}")
    elif fam != "feet" and obs["pile_size"]:
        freezers = [c for c in obs["pile"] if is_wild_text(c) or c in ("3h", "3d")]
        if blocked:
            line.append(f" · blocked: {obs['pile_top']} on top", style="bold cyan")
            line.append(" (until a card covers it)")
        elif obs["frozen"] and freezers:
            line.append(f" · FROZEN by {freezers[0]}", style="bold cyan")
            line.append(" (a natural pair takes it)")
        elif obs["frozen"]:
            line.append(" · FROZEN always", style="bold cyan")
            line.append(" (a natural pair takes it)")
        elif fam == "classic" and not obs["opened"][side]:
            line.append(" · frozen until your side melds", style="cyan")
        else:
            line.append(" · not frozen")
    if obs.get("barred"):
        line.append(f" · {obs['barred']} came from a one-card pile: not to be discarded this turn", style="yellow")
    if "bonus_cards" in obs:  # Modern American: the turn card, bonus cards face down, dead ranks
        line.append(" · turn card drawn" if obs["turn_card_drawn"] else " · turn card in the stock")
        if obs["dead_ranks"]:
            line.append(f" · dead: {' '.join(obs['dead_ranks'])}")
    return line


def side_header(obs: dict[str, Any], side: int, fam: str, side_label: Labeller) -> Text:
    """``You & seat 2 (partner): 1250 · needs 90 · red threes 3h``."""
    mine = side == obs["side"]
    label = side_label(side)
    head = Text(label[0].upper() + label[1:], style="bold underline" if mine else "bold")
    head.append(f": {obs['scores'][side]}")
    if fam in ("classic", "samba", "american", "feet") and obs["minimum"][side] > 0:
        head.append(" · opened" if obs["opened"][side] else f" · needs {obs['minimum'][side]} to open")
    if fam == "ids":
        head.append(" · pozzetto taken" if obs["piles_taken"][side] else " · pozzetto not yet taken")
    threes = obs["red_threes"][side]
    if threes:
        head.append(" · threes " if fam == "american" else " · red threes ")
        head.append_text(cards_text(threes))
    if fam == "feet":
        books = obs["books"][side]
        kinds = [sum(1 for b in books if b["kind"] == k) for k in ("clean", "dirty", "wild")]
        need = obs["books_needed"]
        head.append(f" · books {kinds[0]}/{kinds[1]}/{kinds[2]}")
        if "knee_sizes" not in obs:
            head.append(f" of {need['clean']}/{need['dirty']}/{need['wild']}")
        if len(obs["scores"]) > 2:  # three sides or more: keep the header on one line
            head = Text(head.plain.replace(" · opened", "").replace(" · needs ", " · min "), style=head.style)
        if obs["books_ready"][side]:
            head.append(" ready", style="green")
    return head


def hand_counts(obs: dict[str, Any], who: Labeller) -> Text:
    """Cards in each hand (and the feet of Hand and Foot, bonus cards of American)."""
    parts: list[str] = []
    for s, n in enumerate(obs["hand_sizes"]):
        text = f"{who(s)}: {n}"
        if "foot_sizes" in obs:
            knees = obs.get("knee_sizes")
            if knees and knees[s]:
                text += f"+knee {knees[s]}"
            text += " in the foot" if obs["in_foot"][s] else f"+foot {obs['foot_sizes'][s]}"
            shown = (obs.get("foot_shown") or [None] * len(obs["hand_sizes"]))[s]
            if shown:
                text += f" (top {shown})"
        if obs.get("face_down") and obs["face_down"][s]:
            text += f" (+{obs['face_down'][s]} face down)"
        if obs.get("bonus_cards") and obs["bonus_cards"][s]:
            text += f" (+{plural(obs['bonus_cards'][s], 'bonus card')})"
        parts.append(text)
    return Text("Cards in hand: " + " · ".join(parts))


def table_lines(obs: dict[str, Any], who: Labeller, side_label: Labeller, blocked: bool = False,
                width: int = 80, pickup: str | None = None) -> list[Text]:
    """The table: a header line per side with its melds below, then the pile and the hand sizes."""
    fam = family(obs)
    lines: list[Text] = []
    sides = range(len(obs["scores"]))
    order = [obs["side"], *(s for s in sides if s != obs["side"])]  # your side first
    for side in order:
        lines.append(side_header(obs, side, fam, side_label))
        melds = obs["melds"][side]
        lines.extend(melds_lines(melds, fam, width) if melds else [Text("  no melds", style="dim")])
        if fam == "feet" and obs["books"][side]:
            lines.append(books_line(obs["books"][side]))
    lines.append(pile_status(obs, fam, blocked, pickup))
    lines.append(hand_counts(obs, who))
    return lines


def hand_line(obs: dict[str, Any], width: int = 80) -> Text:
    """``Your hand (11): 4s 4d | 5h | ...``: ranks apart, naturals first, wrapped between ranks."""
    groups: list[list[str]] = []
    for c in sorted(obs["hand"], key=lambda t: _wild_last(parse_card(t))):
        if groups and rank_of(parse_card(groups[-1][-1])) == rank_of(parse_card(c)):
            groups[-1].append(c)
        else:
            groups.append([c])
    head = Text(f"Your hand ({len(obs['hand'])}): ", style="bold")
    lines = wrap_tokens(head, [cards_text(g, sort=False) for g in groups], width, sep=" | ")
    return Text("\n").join(lines)


def score_sheet(result: dict[str, Any], side_label: Labeller) -> Table:
    """The score sheet of one hand: its items by side, the hand total and the game score."""
    table = Table(show_header=True, header_style="bold", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column("")
    sides = result["sides"]
    for side in range(len(sides)):
        table.add_column(side_label(side), justify="right")
    items: list[str] = []
    for s in sides:
        items.extend(k for k, v in s["items"].items() if k not in items and v)
    for item in items:
        table.add_row(item.replace("_", " "), *(str(s["items"].get(item, 0)) for s in sides))
    table.add_row("hand total", *(str(s["total"]) for s in sides), style="bold")
    if any("naturals" in s for s in sides):  # Mille: asterisks and chapeaux
        table.add_row("naturals", *("*" * s.get("naturals", 0) or "-" for s in sides))
        table.add_row("chapeau", *("yes" if s.get("chapeau") else "-" for s in sides))
    table.add_row("game score", *(str(t) for t in result["totals"]), style="bold")
    return table


def running_sheet(results: Sequence[dict[str, Any]], scores: Sequence[int], side_label: Labeller,
                  went_out: Labeller) -> Table:
    """Every hand so far: each side's points for the hand and the running total."""
    table = Table(show_header=True, header_style="bold", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column("hand", justify="right")
    for side in range(len(scores)):
        table.add_column(side_label(side), justify="right")
    table.add_column("out")
    for r in results:
        cells = [f"{r['sides'][s]['total']:+} = {r['totals'][s]}" for s in range(len(scores))]
        table.add_row(str(r["hand"]), *cells, "nobody" if r["went_out"] is None else went_out(r["went_out"]))
    table.add_row("now", *(str(s) for s in scores), "", style="bold")
    return table


__all__ = ["RANK_PLURALS", "books_line", "card_text", "cards_text", "family", "hand_counts", "hand_line", "humanize",
           "meld_text", "melds_lines", "pile_status", "plural", "rank_plural", "running_sheet", "score_sheet",
           "table_lines", "wrap_tokens"]
