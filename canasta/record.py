"""Whole-game records: export, redaction for one seat, parsing and checked replay.

A record is PGN-like: header tags (``[Variant "classic"]`` ...), then per hand a
``hand N dealer D`` line, the dealt cards, the upcards, the red-three
replacements of the deal, the moves (``SEAT: ACTION``, with the cards drawn from
the stock in braces) and a score line once the hand is over. The engine is
deterministic given the seed, so the chance lines are redundant for replay;
they are written so that a record can be read without the engine and so that
replay can check them. See docs/notation.md for the format.

A record redacted for a seat writes ``??`` for every card that seat never saw
and drops the seed (which reveals everything); it parses but cannot be replayed.

Format 2 (tag ``[Format "2"]``, written only when used) adds ``Shuffle`` (how deals derive
from the seed; absent: ``mt19937``, the only scheme of format 1) and the fairness tags of a
server game: ``Commitment`` (published when the game started: see :func:`seed_commitment`) and
``Salt`` (revealed with the seed). :func:`verify_record` checks them. Format 1 records replay
as before.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta.cards import format_card, is_red_three, parse_card
from canasta.engine import chance
from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.errors import CanastaError, IllegalActionError, NotationError, OptionError
from canasta.notation import format_move, parse_move
from canasta.scoring import settlement_lines
from canasta.variants import find_variant

#: A card in a record; ``None`` is a card hidden by redaction (written ``??``).
Card = int | None

HIDDEN = "??"
#: how a game whose seed its creator chose is marked (web tables, records)
PRACTICE = "practice: seed chosen by its creator"
#: the newest record format this module reads and writes (1: no Format tag)
RECORD_FORMAT = 2
UNKNOWN_DATE = "?"
UNFINISHED = "*"

_TAG_RE = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) "(.*)"\]$')
_HAND_RE = re.compile(r"^hand (\d+) dealer (\d+)$")
_SEAT_LINE_RE = re.compile(r"^(deal|replace) (\d+):(.*)$")
_SCORE_HEAD_RE = re.compile(r"^score (\d+):(.*)$")
_SIDE_RE = re.compile(r"^side (\d+) (-?\d+) \[(.*)\]$")
_ITEM_RE = re.compile(r"^([a-z_][a-z0-9_]*) (-?\d+)$")


class RecordError(NotationError):
    """A record that is malformed or does not replay; ``line`` is 1-based (0: the record as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


@dataclass
class Move:
    """``SEAT: ACTION {drawn}``; ``drawn`` is None when the action drew nothing from the stock."""

    line: int = field(compare=False)  # 1-based line in the text; 0 when built from a game
    seat: int
    action: Action
    drawn: tuple[Card, ...] | None = None


@dataclass
class SideResult:
    total: int
    items: dict[str, int]  # non-zero items only


@dataclass
class Score:
    line: int = field(compare=False)
    hand: int
    went_out: int | None
    concealed: bool
    sides: list[SideResult]
    totals: list[int]


@dataclass
class Hand:
    line: int = field(compare=False)
    number: int
    dealer: int
    deals: list[tuple[int, list[Card]]] = field(default_factory=list)  # (seat, cards as dealt)
    upcards: list[Card] = field(default_factory=list)
    replacements: list[tuple[int, list[Card]]] = field(default_factory=list)  # (seat, cards), deal order
    moves: list[Move] = field(default_factory=list)
    score: Score | None = None
    deal_lines: dict[str, int] = field(default_factory=dict, compare=False)  # "deal 0", "upcard", ... -> line


@dataclass
class Record:
    """A parsed record. ``tags`` keeps the header in order; ``tag_lines`` their line numbers."""

    tags: dict[str, str] = field(default_factory=dict)
    hands: list[Hand] = field(default_factory=list)
    tag_lines: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def redacted_for(self) -> int | None:
        value = self.tags.get("Redacted")
        return int(value) if value is not None and value.isdigit() else None


# ------------------------------------------------------------------ formatting
def _card_text(c: Card) -> str:
    return HIDDEN if c is None else format_card(c)


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(_card_text(c) for c in cards)


def _format_score(s: Score) -> str:
    sides = ", ".join(f"side {i} {r.total} [{', '.join(f'{k} {v}' for k, v in r.items.items())}]"
                      for i, r in enumerate(s.sides))
    out = "none" if s.went_out is None else str(s.went_out) + (" concealed" if s.concealed else "")
    return f"score {s.hand}: {sides}; totals {' '.join(map(str, s.totals))}; out {out}"


def format_record(record: Record) -> str:
    """The text of a record (the inverse of :func:`parse_record`)."""
    lines = [f'[{name} "{value}"]' for name, value in record.tags.items()]
    for hand in record.hands:
        lines.append("")
        lines.append(f"hand {hand.number} dealer {hand.dealer}")
        lines.extend(f"deal {seat}: {_cards_text(cards)}".rstrip() for seat, cards in hand.deals)
        lines.append(f"upcard {_cards_text(hand.upcards)}".rstrip())
        lines.extend(f"replace {seat}: {_cards_text(cards)}".rstrip() for seat, cards in hand.replacements)
        for m in hand.moves:
            text = format_move(m.seat, m.action)
            lines.append(text if m.drawn is None else f"{text} {{{_cards_text(m.drawn)}}}")
        if hand.score is not None:
            lines.append(_format_score(hand.score))
    return "\n".join(lines) + "\n"


def result_text(game: Game) -> str:
    """The Result tag: final scores and the winning side, or ``*`` while the game goes on."""
    if game.winner is None:
        if game.is_over:  # a game of so many hands (Hand and Foot) may end in a tie
            return f"{' '.join(map(str, game.scores))}; tie"
        return UNFINISHED
    return f"{' '.join(map(str, game.scores))}; side {game.winner} wins"


def _score_of(result: dict[str, Any]) -> Score:
    return Score(line=0, hand=result["hand"], went_out=result["went_out"],
                 concealed=bool(result["concealed"]) and result["went_out"] is not None,
                 sides=[SideResult(s["total"], {k: v for k, v in s["items"].items() if v})
                        for s in result["sides"]],
                 totals=list(result["totals"]))


@dataclass(frozen=True)
class Fairness:
    """A server game's commitment to its seed: ``commitment`` is published when the game starts,
    ``salt`` (and the seed) revealed in the record when it ends."""

    salt: str
    commitment: str
    #: the creator chose the seed (a practice game: the creator could know every card)
    chosen: bool = False


#: a salt of the first commitments: 32 hex digits, committed as the text ``salt:seed``
SALT_V1 = re.compile(r"[0-9a-f]{32}")
#: a salt of version 2: ``v2-`` and 32 hex digits, committed with the seed and the table's setup as JSON
SALT_V2 = re.compile(r"v2-[0-9a-f]{32}")
#: the tags a version 2 commitment binds besides the seed, all fixed when the table is created
COMMITTED_TAGS = ("Variant", "RulesVersion", "Rules", "Players", "Shuffle")
#: the tags no commitment can cover: set after the game started (who joined) or when the record is written
UNCOMMITTED_TAGS = ("Names", "Date")


def game_setup(game: Game) -> dict[str, str]:
    """The :data:`COMMITTED_TAGS` of ``game``, as its record writes them."""
    return {"Variant": game.variant_name, "RulesVersion": str(game.variant.rules_version),
            "Rules": json.dumps(game.variant.non_default_rules(), sort_keys=True),
            "Players": str(game.num_players), "Shuffle": game.shuffle}


def seed_commitment(seed: int | str, salt: str, setup: dict[str, str] | None = None) -> str:
    """SHA-256 (hex) binding the seed without revealing it (the salt, 128 random bits, keeps a chosen or
    short seed from being found by trying candidates).

    Version 2 (a ``v2-`` salt): of the JSON object of the salt, the seed and ``setup`` (the
    :data:`COMMITTED_TAGS`), so no two inputs share a text; version 1: of the text ``salt:seed``, unambiguous
    only because its salt is exactly 32 hex digits (with a ``:`` in the salt, ``x:42`` and ``42`` collided).
    A salt of neither format is refused with :class:`ValueError`."""
    if SALT_V2.fullmatch(salt):
        if setup is None or set(setup) != set(COMMITTED_TAGS):
            raise ValueError(f"a version 2 commitment binds the tags {', '.join(COMMITTED_TAGS)}")
        text = json.dumps({"v": 2, "salt": salt, "seed": str(seed), "setup": setup}, sort_keys=True,
                          separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()
    if SALT_V1.fullmatch(salt):
        return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()
    raise ValueError("a salt is 32 hex digits (the first commitments) or 'v2-' and 32 hex digits")


def record_from_game(game: Game, seat: int | None = None, date: str | None = None,
                     fairness: Fairness | None = None, names: Sequence[str] | None = None) -> Record:
    """The record of ``game`` so far; with ``seat``, redacted to what that seat saw; with ``fairness``,
    its Commitment (and, unredacted, its Salt); with ``names`` (one per seat, "" for none), a Names tag."""
    if seat is not None and not 0 <= seat < game.num_players:
        raise NotationError(f"there is no seat {seat} in a {game.num_players}-player game")
    if not game.deals or game.deals[0]["hand"] != 1:
        # A position set up by hand (Game.from_dict without its deals) has no history to write.
        raise NotationError("this game was not dealt from its seed (a position set up by hand): it has no record")

    def shown(owner: int, cards: Sequence[int], top_up: bool = False) -> list[Card]:
        # Red threes are laid out face up at once, so every seat saw them; so was the top (last) card of a
        # hand passed in Hand and Foot's hand-passing deal ('each player turns up the top card of each hand').
        if seat is None or owner == seat:
            return list(cards)
        return [c if is_red_three(c) or (top_up and i == len(cards) - 1) else None for i, c in enumerate(cards)]

    if any(ch in str(game.seed) for ch in "\r\n"):
        raise NotationError("a seed written in a record must fit on one line")
    tags = {
        "Variant": game.variant_name,
        "RulesVersion": str(game.variant.rules_version),
        "Rules": json.dumps(game.variant.non_default_rules(), sort_keys=True),
        "Players": str(game.num_players),
        "Seed": str(game.seed),
        "Date": date or UNKNOWN_DATE,
        "Result": result_text(game),
    }
    if game.shuffle != chance.LEGACY or fairness is not None:
        tags = {"Format": str(RECORD_FORMAT), **tags}
        if game.shuffle != chance.LEGACY:
            tags["Shuffle"] = game.shuffle
        if fairness is not None:
            tags["Commitment"] = fairness.commitment
            tags["Salt"] = fairness.salt
            if fairness.chosen:
                tags["Practice"] = PRACTICE
    if names is not None:
        tags["Names"] = names_tag(names, game.num_players)
    if seat is not None:
        del tags["Seed"]  # the seed reveals every card
        tags.pop("Salt", None)  # with the salt, a short seed could be found by trying candidates
        tags["Redacted"] = str(seat)
    record = Record(tags=tags)
    start = 0
    for k, deal in enumerate(game.deals):
        n = game.num_players
        hand = Hand(line=0, number=deal["hand"], dealer=deal["dealer"])
        # hand-passing deal: the hands are those passed (known once all have kept a foot: 'kept' in the deal)
        hand.deals = [(s, shown(s, deal["hands"][s], "kept" in deal)) for s in range(n)]
        hand.upcards = list(deal["upcards"])
        order = [(deal["dealer"] + 1 + i) % n for i in range(n)]
        hand.replacements = [(s, shown(s, deal["replacements"][s])) for s in order if deal["replacements"][s]]
        finished = k < len(game.hand_results)
        end = game.hand_results[k]["actions_end"] if finished else len(game.history)
        for actor, action, drawn in game.history[start:end]:
            if action.kind == "keep" and seat is not None and actor != seat and game.phase == "pass" \
                    and not finished and k == len(game.deals) - 1:
                continue  # the hand-passing choices are hidden until every seat has kept a foot
            hand.moves.append(Move(0, actor, action, tuple(shown(actor, drawn)) if drawn else None))
        start = end
        if finished:
            hand.score = _score_of(game.hand_results[k])
        record.hands.append(hand)
    return record


def export_record(game: Game, seat: int | None = None, date: str | None = None,
                  fairness: Fairness | None = None, names: Sequence[str] | None = None) -> str:
    """The game as a record; ``seat`` redacts it for that seat, ``date`` fills the Date tag,
    ``fairness`` adds the seed's commitment (and its salt, unredacted), ``names`` the seats' names."""
    return format_record(record_from_game(game, seat, date, fairness, names))


def names_tag(names: Sequence[str], players: int) -> str:
    """The Names tag's value: a JSON list with one name per seat (JSON escapes every control character, so the
    tag stays on its line; a tag's value runs to the line's last quote, so the list's quotes need no escape)."""
    if len(names) != players:
        raise NotationError(f"give one name per seat: {players} seats, {len(names)} names")
    return json.dumps([str(name) for name in names], ensure_ascii=False)


def seat_names(record: Record, players: int) -> list[str]:
    """The seats' names of a record's Names tag, "" for a seat without one; all "" when the record has no tag
    (records written before the tag, or by the terminal). A malformed tag is an error naming its line."""
    value = record.tags.get("Names")
    if value is None:
        return [""] * players
    try:
        names = json.loads(value)
    except ValueError:
        names = None
    if not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names):
        raise RecordError(record.tag_lines.get("Names", 0),
                          f"the Names tag is a JSON list of {players} names, one per seat, not {value!r}")
    return names


# --------------------------------------------------------------------- parsing
def _parse_cards(text: str, line: int, allow_hidden: bool = True) -> list[Card]:
    out: list[Card] = []
    for word in text.split():
        if word == HIDDEN and allow_hidden:
            out.append(None)
            continue
        try:
            out.append(parse_card(word))
        except NotationError as exc:
            raise RecordError(line, str(exc)) from None
    return out


def _parse_score(text: str, line: int, hand: Hand) -> Score:
    m = _SCORE_HEAD_RE.match(text)
    parts = m.group(2).split(";") if m else []
    if m is None or len(parts) != 3:
        raise RecordError(line, f"a score line is 'score N: side 0 T [items], ...; totals ...; out SEAT|none', not {text!r}")
    number = int(m.group(1))
    if number != hand.number:
        raise RecordError(line, f"score of hand {number} inside hand {hand.number}")
    sides: list[SideResult] = []
    # Items are separated by ', ' inside brackets: split sides on '], ' first.
    chunks = [c.strip() for c in re.split(r"(?<=\]),", parts[0])]
    for i, chunk in enumerate(chunks):
        sm = _SIDE_RE.match(chunk)
        if sm is None or int(sm.group(1)) != i:
            raise RecordError(line, f"expected 'side {i} TOTAL [ITEM POINTS, ...]', not {chunk!r}")
        items: dict[str, int] = {}
        for item in filter(None, (x.strip() for x in sm.group(3).split(","))):
            im = _ITEM_RE.match(item)
            if im is None:
                raise RecordError(line, f"a score item is 'name points', not {item!r}")
            items[im.group(1)] = int(im.group(2))
        sides.append(SideResult(int(sm.group(2)), items))
    totals_words = parts[1].split()
    if not totals_words or totals_words[0] != "totals":
        raise RecordError(line, f"expected 'totals ...', not {parts[1].strip()!r}")
    try:
        totals = [int(w) for w in totals_words[1:]]
    except ValueError:
        raise RecordError(line, f"totals are whole numbers: {parts[1].strip()!r}") from None
    out_words = parts[2].split()
    concealed = out_words[2:] == ["concealed"]
    if not out_words or out_words[0] != "out" or len(out_words) not in (2, 3) or (len(out_words) == 3 and not concealed):
        raise RecordError(line, f"expected 'out SEAT', 'out SEAT concealed' or 'out none', not {parts[2].strip()!r}")
    if out_words[1] == "none" and not concealed:
        went_out = None
    elif out_words[1].isdigit():
        went_out = int(out_words[1])
    else:
        raise RecordError(line, f"expected 'out SEAT' or 'out none', not {parts[2].strip()!r}")
    return Score(line, number, went_out, concealed, sides, totals)


def _parse_move(text: str, line: int) -> Move:
    drawn: tuple[Card, ...] | None = None
    if text.endswith("}"):
        head, brace, inner = text[:-1].partition("{")
        if not brace or "{" in inner or "}" in inner:
            raise RecordError(line, f"cards drawn are written in one pair of braces at the end: {text!r}")
        drawn = tuple(_parse_cards(inner, line))
        if not drawn:
            raise RecordError(line, "empty braces: write the cards drawn, or no braces")
        text = head
    elif "{" in text or "}" in text:
        raise RecordError(line, f"cards drawn are written in braces at the end of the move: {text!r}")
    try:
        seat, action = parse_move(text)
    except NotationError as exc:
        raise RecordError(line, str(exc)) from None
    return Move(line, seat, action, drawn)


def decode_text(data: bytes, name: str) -> str:
    """The text of a file the user gives (``name`` says which): UTF-8, with the byte-order mark Windows editors
    write accepted; another encoding is an :class:`OptionError` that says so, never text with replaced letters."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OptionError(f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}): "
                          "save it as UTF-8") from None


def read_text_file(path: Path) -> str:
    """:func:`decode_text` of the file ``path``; a file that cannot be read is an :class:`OptionError`."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise OptionError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_text(data, str(path))


def parse_record(text: str) -> Record:
    """Parse a record (also a redacted one). Raises :class:`RecordError` naming the line."""
    record = Record()
    hand: Hand | None = None
    for no, raw in enumerate(text.splitlines(), start=1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("["):
            tm = _TAG_RE.match(s)
            if tm is None:
                raise RecordError(no, f'a tag is [Name "value"], not {s!r}')
            if hand is not None:
                raise RecordError(no, "tags come before the first hand")
            name, value = tm.group(1), tm.group(2)
            if name in record.tags:
                raise RecordError(no, f"tag {name} given twice")
            record.tags[name] = value
            record.tag_lines[name] = no
            continue
        hm = _HAND_RE.match(s)
        if hm is not None:
            hand = Hand(no, int(hm.group(1)), int(hm.group(2)))
            record.hands.append(hand)
            continue
        if hand is None:
            raise RecordError(no, f"expected a tag or 'hand N dealer D', not {s!r}")
        if hand.score is not None:
            raise RecordError(no, f"hand {hand.number} is already scored: expected 'hand {hand.number + 1} dealer D'")
        sm = _SEAT_LINE_RE.match(s)
        if sm is not None:
            kind, seat = sm.group(1), int(sm.group(2))
            key = f"{kind} {seat}"
            if key in hand.deal_lines:
                raise RecordError(no, f"'{key}' given twice in hand {hand.number}")
            if hand.moves:
                raise RecordError(no, f"'{kind}' lines come before the moves of the hand")
            hand.deal_lines[key] = no
            (hand.deals if kind == "deal" else hand.replacements).append((seat, _parse_cards(sm.group(3), no)))
            continue
        if s == "upcard" or s.startswith("upcard "):
            if "upcard" in hand.deal_lines or hand.moves:
                raise RecordError(no, "one 'upcard' line per hand, before the moves")
            hand.deal_lines["upcard"] = no
            hand.upcards = _parse_cards(s[len("upcard"):], no, allow_hidden=False)
            continue
        if s.startswith("score"):
            hand.score = _parse_score(s, no, hand)
            continue
        hand.moves.append(_parse_move(s, no))
    return record


# ---------------------------------------------------------------------- replay
def _tag(record: Record, name: str) -> str:
    if name not in record.tags:
        raise RecordError(0, f"the record has no [{name} \"...\"] tag")
    return record.tags[name]


def _int_tag(record: Record, name: str) -> int:
    value = _tag(record, name)
    try:
        return int(value)
    except ValueError:
        raise RecordError(record.tag_lines[name], f"tag {name} must be a whole number, not {value!r}") from None


def _new_game(record: Record) -> Game:
    if "Redacted" in record.tags:
        raise RecordError(record.tag_lines["Redacted"],
                          f"this record is redacted for seat {record.tags['Redacted']}: its hidden cards cannot be replayed; "
                          "only a full record replays ('record FILE full' in canasta play writes one)")
    if "Format" in record.tags and not 1 <= _int_tag(record, "Format") <= RECORD_FORMAT:
        raise RecordError(record.tag_lines["Format"], f"record format {record.tags['Format']} is newer than this "
                                                      f"version reads (formats 1 to {RECORD_FORMAT})")
    shuffle = record.tags.get("Shuffle", chance.LEGACY)
    if shuffle not in chance.SCHEMES:
        raise RecordError(record.tag_lines["Shuffle"], f"unknown shuffle {shuffle!r}: this version knows "
                                                       f"{', '.join(chance.SCHEMES)}")
    variant = _tag(record, "Variant")
    players = _int_tag(record, "Players")
    seed_text = _tag(record, "Seed")
    # Deals depend on str(seed) only: read "42" back as the int the engine was most likely given,
    # but keep "007" a string, since str(7) would deal other cards.
    seed: int | str = seed_text
    if re.fullmatch(r"-?\d+", seed_text) and str(int(seed_text)) == seed_text:
        seed = int(seed_text)
    rules_text = record.tags.get("Rules", "{}")
    try:
        rules = json.loads(rules_text)
    except json.JSONDecodeError as exc:
        raise RecordError(record.tag_lines["Rules"], f"tag Rules is not JSON: {exc}") from None
    if not isinstance(rules, dict):
        raise RecordError(record.tag_lines["Rules"], "tag Rules is a JSON object of table rules")
    try:
        cls = find_variant(variant)
    except CanastaError as exc:
        raise RecordError(record.tag_lines["Variant"], str(exc)) from None
    if players not in cls.player_counts:
        raise RecordError(record.tag_lines["Players"], f"{variant} is played by "
                          f"{', '.join(map(str, cls.player_counts))} players, not {players}")
    try:
        game = Game(variant, players, seed, rules, shuffle=shuffle)
    except CanastaError as exc:
        raise RecordError(record.tag_lines.get("Rules", 0), str(exc)) from None
    if "RulesVersion" in record.tags and _int_tag(record, "RulesVersion") != game.variant.rules_version:
        raise RecordError(record.tag_lines["RulesVersion"],
                          f"the record was written for rules version {record.tags['RulesVersion']} of {variant}; "
                          f"this engine implements version {game.variant.rules_version}")
    return game


def _same(line: int, what: str, written: Sequence[Card], actual: Sequence[int]) -> None:
    if list(written) != list(actual):
        raise RecordError(line, f"{what}: the record says {_cards_text(written) or 'nothing'}, "
                                f"the deal gives {_cards_text(actual) or 'nothing'}")


def _check_deal(hand: Hand, deal: dict[str, Any], players: int) -> None:
    if hand.number != deal["hand"] or hand.dealer != deal["dealer"]:
        raise RecordError(hand.line, f"expected 'hand {deal['hand']} dealer {deal['dealer']}'")
    seats = sorted(s for s, _ in hand.deals)
    if seats != list(range(players)):
        raise RecordError(hand.line, f"hand {hand.number} needs one 'deal SEAT: ...' line for each seat 0-{players - 1}")
    for seat, cards in hand.deals:
        _same(hand.deal_lines[f"deal {seat}"], f"cards dealt to seat {seat}", cards, deal["hands"][seat])
    if "upcard" not in hand.deal_lines:
        raise RecordError(hand.line, f"hand {hand.number} has no 'upcard' line")
    _same(hand.deal_lines["upcard"], "upcards", hand.upcards, deal["upcards"])
    written = dict(hand.replacements)
    for seat in range(players):
        if seat in written:
            _same(hand.deal_lines[f"replace {seat}"], f"red-three replacements of seat {seat}", written[seat],
                  deal["replacements"][seat])
        elif deal["replacements"][seat]:
            raise RecordError(hand.line, f"seat {seat} replaced red threes at the deal "
                                         f"({_cards_text(deal['replacements'][seat])}): the record has no 'replace {seat}:' line")


def _check_score(score: Score, result: dict[str, Any]) -> None:
    expected = _score_of(result)
    if score != expected:
        raise RecordError(score.line, f"the hand scores {_format_score(expected)!r}, the record says {_format_score(score)!r}")


def replay_record(text: str) -> Game:
    """Replay a record with every action checked; return the game at its end.

    Raises :class:`RecordError` (a :class:`NotationError`) naming the line of the
    first malformed line, illegal move, or chance line or score that differs from
    what the engine produces.
    """
    record = parse_record(text)
    game = _new_game(record)
    last_line = 0
    for i, hand in enumerate(record.hands):
        if i >= len(game.deals):
            raise RecordError(hand.line, f"hand {hand.number} is never dealt: hand {game.hand_no} has not ended")
        # Hand and Foot's hand-passing deal: the hands (and red-three replacements) follow the 'keep' moves
        passing = game.phase == "pass" and game.hand_no == hand.number
        if not passing:
            _check_deal(hand, game.deals[i], game.num_players)
        last_line = max([hand.line, *hand.deal_lines.values()])
        for move in hand.moves:
            last_line = move.line
            if len(game.hand_results) > i:
                raise RecordError(move.line, f"hand {hand.number} is over: expected its score line")
            if move.seat != game.actor:
                raise RecordError(move.line, f"it is seat {game.actor}'s turn to act, not seat {move.seat}'s")
            before = len(game.history)
            try:
                game.apply(move.action)
            except IllegalActionError as exc:
                raise RecordError(move.line, f"illegal move: {exc}") from None
            drawn = game.history[before][2]
            if move.drawn is None and drawn:
                raise RecordError(move.line, f"the move drew {_cards_text(drawn)} from the stock: "
                                             f"write them in braces, {{{_cards_text(drawn)}}}")
            if move.drawn is not None:
                _same(move.line, "cards drawn from the stock", move.drawn, drawn)
            if passing and game.phase != "pass":
                passing = False
                _check_deal(hand, game.deals[i], game.num_players)
        if passing:  # a record that stops during the passing: nobody holds a hand yet
            _check_deal(hand, game.deals[i], game.num_players)
        if hand.score is not None:
            last_line = hand.score.line
            if len(game.hand_results) <= i:
                raise RecordError(hand.score.line, f"hand {hand.number} has not ended")
            _check_score(hand.score, game.hand_results[i])
        elif len(game.hand_results) > i:
            raise RecordError(last_line, f"hand {hand.number} ended here: the record has no score line for it")
    if len(record.hands) < len(game.deals):
        raise RecordError(last_line, f"hand {game.hand_no} was dealt after this line: the record has no 'hand {game.hand_no}' lines")
    if "Result" in record.tags and record.tags["Result"] != result_text(game):
        raise RecordError(record.tag_lines["Result"],
                          f"the game's result is {result_text(game)!r}, the tag says {record.tags['Result']!r}")
    return game


def replay_command(text: str) -> str:
    """``canasta replay``: replay and check a record; a readable summary of the hand scores."""
    game = replay_record(text)
    sides = range(game.num_sides)
    lines = [f"{game.variant_name}, {game.num_players} players, seed {game.seed}: "
             f"{len(game.history)} actions in {len(game.deals)} hand(s), all legal and matching the record"]
    names = seat_names(parse_record(text), game.num_players)
    if any(names):  # the web app's records name their seats; seats count from 0 as in the notation
        lines.append("seats: " + ", ".join(f"seat {s} {name or '(no name)'}" for s, name in enumerate(names)))
    lines.append("hand" + "".join(f"{'side ' + str(s):>10}{'total':>7}" for s in sides) + "  went out")
    for r in game.hand_results:
        cells = "".join(f"{r['sides'][s]['total']:>+10}{r['totals'][s]:>7}" for s in sides)
        out = "nobody" if r["went_out"] is None else f"seat {r['went_out']}" + (" (concealed)" if r["concealed"] else "")
        lines.append(f"{r['hand']:>4}{cells}  {out}")
    if game.winner is not None or game.is_over:
        if game.winner is not None:
            others = sorted((s for s in sides if s != game.winner), key=lambda s: -game.scores[s])
            lines.append(f"side {game.winner} wins with {game.scores[game.winner]}; "
                         + ", ".join(f"side {s} {game.scores[s]}" for s in others))
        else:  # a game of so many hands (Hand and Foot) may end in a tie
            lines.append(f"a tie: {' to '.join(map(str, game.scores))}")
        settlement = game.settlement()
        if settlement is not None:  # Mille: skunks and the stakes
            lines.extend(settlement_lines(settlement, lambda s: f"side {s}"))
    else:
        lines.append(f"unfinished: hand {game.hand_no} in play, scores {' '.join(map(str, game.scores))}")
    return "\n".join(lines)


_HEX64 = re.compile(r"[0-9a-f]{64}")


def verify_record(text: str, commitment: str | None = None) -> str:
    """``canasta replay --verify [--commitment HEX]``: check that the deal was fixed before the first card.

    Recomputes the commitment from the revealed Seed and Salt (and, for a version 2 salt, the
    :data:`COMMITTED_TAGS`) and compares it with the Commitment tag, then replays the record, which deals
    every hand from that seed and checks each dealt card, draw and score. The record's own Commitment tag
    proves nothing by itself (a forger writes a matching one): ``commitment`` is the one the table showed
    when the game started, and must be the record's. Raises :class:`RecordError` if anything differs."""
    record = parse_record(text)
    for name in ("Commitment", "Salt", "Seed"):
        if name not in record.tags:
            missing = "redacted records have no seed or salt" if "Redacted" in record.tags else \
                "only records of finished server games carry the seed's commitment and salt"
            raise RecordError(0, f"the record has no [{name} \"...\"] tag: {missing}")
    tags = record.tags
    shown = None if commitment is None else commitment.strip().lower()
    if shown is not None and not _HEX64.fullmatch(shown):
        raise RecordError(0, "--commitment takes the 64 hex digits the table showed when the game started")
    version2 = SALT_V2.fullmatch(tags["Salt"]) is not None
    setup = {name: tags.get(name, chance.LEGACY if name == "Shuffle" else "") for name in COMMITTED_TAGS}
    try:
        expected = seed_commitment(tags["Seed"], tags["Salt"], setup if version2 else None)
    except ValueError as exc:
        raise RecordError(record.tag_lines["Salt"], f"the record's salt is not valid: {exc}") from None
    if not hmac.compare_digest(expected, tags["Commitment"].lower()):
        raise RecordError(record.tag_lines["Commitment"],
                          f"the commitment does not match: the seed and salt commit to {expected}, "
                          f"the record says {tags['Commitment']}")
    if shown is not None and not hmac.compare_digest(shown, expected):
        raise RecordError(record.tag_lines["Commitment"],
                          f"this is not the game you were shown: the table showed the commitment {shown}, "
                          f"this record's is {expected}")
    summary = replay_command(text)
    if "Practice" in tags:
        summary = f"note: {PRACTICE}, who could know every card before the first was dealt\n{summary}"
    bound = "the seed, " + ", ".join(COMMITTED_TAGS) if version2 else \
        "the seed only (a first-version commitment: the variant, rules and players are checked by the replay alone)"
    origin = "is the commitment you were shown when the game started" if shown is not None else \
        "is the record's own Commitment tag: compare it with the one the table showed when the game started " \
        "(--commitment HEX), or this proves only that the record is consistent"
    return (f"verified: {expected} {origin}; every deal replays from that seed\n"
            f"committed: {bound}; not covered: {', '.join(UNCOMMITTED_TAGS)} (set after the game started "
            f"or when the record was written)\n{summary}")


__all__ = ["COMMITTED_TAGS", "UNCOMMITTED_TAGS", "Card", "Fairness", "Hand", "Move", "Record", "RecordError", "Score",
           "SideResult", "decode_text", "export_record", "format_record", "game_setup", "names_tag", "parse_record",
           "read_text_file", "record_from_game", "replay_command", "replay_record", "result_text", "seat_names",
           "seed_commitment", "verify_record"]
