"""The scorekeeper (``canasta score``): score the end of a hand played with real cards.

The input describes what lies on the table and in the hands when a hand ends;
see ``docs/scorekeeper.md``. This module only *checks* the description and
turns it into the arguments of :func:`canasta.scoring.score_side`, the one
scoring routine the engine uses too. Meld rules come from the variant's
``meld_problem`` hook, card values and bonuses from the variant's tables.
"""

from __future__ import annotations

from collections import Counter
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from canasta.cards import (
    JOKER,
    THREE,
    format_card,
    format_rank,
    is_black_three,
    is_red_three,
    parse_card,
    rank_of,
)
from canasta.engine.game import WILD_RANK
from canasta.errors import CanastaError, NotationError, ScoreInputError
from canasta.scoring import score_side, settlement_lines
from canasta.variants import find_variant
from canasta.variants.base import Variant
from canasta.variants.classic import Classic

#: Bicycle: 'Failure to declare receipt of a red three ... results in a 500 point
#: penalty'; Denexa 'Penalties': 'Undeclared red 3s at end of hand: -500 points each.'
UNDECLARED_RED_THREE_PENALTY = Classic.UNDECLARED_RED_THREE_PENALTY

TOP_KEYS = ("variant", "rules", "players", "teams", "game")
GAME_KEYS = ("scores", "naturals", "chapeaux", "hand")
TEAM_KEYS = ("name", "melds", "threes", "hands", "went_out", "concealed", "undeclared_red_threes", "penalties",
             "bonuses", "black_threes_removed", "special_hand", "failed_go_out")

#: Row labels of the readable sheet; other items (penalties) are shown by their name.
ITEM_LABELS = {
    "melded_cards": "Melded cards",
    "cards_in_hand": "Cards in hand",
    "natural_canastas": "Natural canastas",
    "mixed_canastas": "Mixed canastas",
    "wild_canastas": "Wild canastas",
    "black_threes_removed": "Black threes removed",
    "red_threes": "Red threes",
    "going_out": "Going out",
    "concealed": "Concealed (extra)",
    "seven_canastas": "Seven canastas",
    "undeclared_red_threes": "Undeclared red threes",
    "failed_go_out": "Failed go-out",
    "natural_melds": "Natural melds (extra)",
    "no_twos_natural": "No 2s natural (extra)",
    "clean_burracos": "Clean burracos",
    "dirty_burracos": "Dirty burracos",
    "closing": "Closing",
    "pozzetto_not_taken": "Pozzetto not taken",
    "threes": "Threes",
    "incomplete_melds": "Incomplete aces/sevens/wild melds",
    "aces_sevens_in_hand": "3+ aces or sevens in a hand",
    "special_hand": "Special hand",
}


@dataclass
class _Side:
    """One validated entry of ``teams``: a partnership or a player alone."""

    who: str
    melds: list[tuple[int, list[int]]] = field(default_factory=list)
    threes: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    went_out: bool = False
    concealed: bool = False
    undeclared: int = 0
    removed_black_threes: int = 0
    penalties: list[tuple[str, int]] = field(default_factory=list)
    #: Modern American: the special hand the side went out with
    special_hand: str | None = None


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    return type(value).__name__


def _cards(value: Any, where: str) -> list[int]:
    """A list of card texts at ``where``, parsed to codes."""
    if not isinstance(value, list):
        raise ScoreInputError(f"{where} must be a list of cards such as [\"Kh\", \"2c\", \"JK\"], not {_type_name(value)}")
    out: list[int] = []
    for i, text in enumerate(value, 1):
        if not isinstance(text, str):
            raise ScoreInputError(f"{where}, card {i}: a card is written as text such as \"Kh\", not {_type_name(text)}")
        try:
            out.append(parse_card(text))
        except NotationError as exc:
            raise ScoreInputError(f"{where}, card {i}: {exc}") from None
    return out


def _meld_rank(cards: list[int]) -> int:
    naturals = [c for c in cards if c != JOKER and rank_of(c) != 2]
    return rank_of(naturals[0]) if naturals else WILD_RANK


def _rank_name(rank: int) -> str:
    if rank == WILD_RANK:
        return "wild cards"
    if rank == THREE:
        return "black threes"
    return format_rank(rank) + "s"


def _is_wild(code: int) -> bool:
    return code == JOKER or rank_of(code) == 2


def _players(teams: list[Any], declared: Any) -> int:
    """The number of players the shape of ``teams`` describes (checked against ``players``)."""
    shape = [len(t["hands"]) for t in teams]
    if len(teams) in (2, 3, 4) and all(n == 2 for n in shape):
        players = 2 * len(teams)  # partnerships (3 or 4 teams of two: Hand and Foot with 6 or 8 players)
    elif len(teams) == 2 and all(n == 3 for n in shape):
        players = 6  # two teams of three (Hand and Foot with the table rule team_size 3)
    elif len(teams) in (2, 3) and all(n == 1 for n in shape):
        players = len(teams)
    else:
        raise ScoreInputError(
            "cannot tell the number of players from the teams: give 2 teams with 2 hands each (4 players in "
            "partnerships; 3 or 4 such teams where the variant allows 6 or 8 players; 2 teams with 3 hands each "
            "for Hand and Foot's teams of three), or 2 or 3 entries with 1 hand each (2 or 3 players playing "
            f"alone); got {len(teams)} entries with {', '.join(map(str, shape))} hand(s)")
    if declared is not None:
        if not isinstance(declared, int) or isinstance(declared, bool):
            raise ScoreInputError(f"'players' must be a whole number, not {_type_name(declared)}")
        if declared != players:
            how = (f"{declared} players are {declared // 2} teams listing 2 hands each" if declared >= 4
                   else f"{declared} players are {declared} entries listing 1 hand each")
            if declared == 6:
                how += ", or 2 teams listing 3 hands each (Hand and Foot's team_size 3)"
            raise ScoreInputError(f"'players' says {declared}, but the teams describe {players} players ({how})")
    return players


def _check_sides(v: Variant, teams: list[Any]) -> None:
    """The entries of ``teams`` are the variant's sides: with 6 players Hand and Foot has three teams of two, or
    two teams of three under the table rule team_size 3."""
    if len(teams) == v.num_sides:
        return
    size = len(teams[0]["hands"])
    if size == 3:
        raise ScoreInputError(f"{len(teams)} teams listing 3 hands each are teams of three: give the table rule "
                              "\"team_size\": 3 in 'rules'")
    raise ScoreInputError(f"the table rules seat {v.num_players} players as {v.num_sides} teams, but 'teams' "
                          f"lists {len(teams)} entries of {size} hands: with \"team_size\": 3 give 2 teams "
                          "listing 3 hands each (without it, 3 teams listing 2 hands each)")


def _bind(data: dict[str, Any], players: int) -> Classic:
    name = data.get("variant", "classic")
    if not isinstance(name, str):
        raise ScoreInputError(f"'variant' must be a variant name such as \"classic\", not {_type_name(name)}")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise ScoreInputError(f"'rules' must be an object of table rules, e.g. {{\"going_out_bonus\": 100}}, not {_type_name(rules)}")
    cls = find_variant(name)  # UnknownVariantError names the known variants
    v = cls(players, rules)  # OptionError names the bad option
    if getattr(cls, "MELD_IDS", False):
        return v  # type: ignore[return-value]  # scored by _score_meld_ids
    if not isinstance(v, Classic):
        raise ScoreInputError(f"the scorekeeper cannot score {cls.title or cls.name} yet")
    return v


def _read_melds(v: Classic, raw: dict[str, Any], side: _Side, who: str) -> None:
    """The side's melds, each checked as the variant checks a meld, one meld a rank (closed piles aside)."""
    melds = raw.get("melds", [])
    if not isinstance(melds, list):
        raise ScoreInputError(f"{who}: 'melds' must be a list of melds, each a list of cards, not {_type_name(melds)}")
    seen: dict[int, int] = {}
    for i, meld_raw in enumerate(melds, 1):
        where = f"{who}, meld {i}"
        cards = _cards(meld_raw, where)
        if not cards:
            raise ScoreInputError(f"{where} is empty; a meld is at least three cards")
        shown = f"{where} ({' '.join(format_card(c) for c in cards)})"
        if any(is_red_three(c) for c in cards) and not v.THREES_ORDINARY:
            raise ScoreInputError(f"{shown}: red threes are never melded; list them in 'threes' (laid out on the table)")
        problem = v.meld_problem(cards)
        if problem:
            raise ScoreInputError(f"{shown} is not a valid meld: {problem}")
        rank = _meld_rank(cards)
        if v.MELD_MAX is not None and len(cards) >= v.MELD_MAX:
            pass  # Hand and Foot: a closed pile; 'a new meld of the same rank can be established'
        elif rank in seen:
            raise ScoreInputError(
                f"{who} has two melds of {_rank_name(rank)} (melds {seen[rank]} and {i}); a side has only one meld "
                "of each rank: write them as one meld")
        if v.MELD_MAX is None or len(cards) < v.MELD_MAX:
            seen[rank] = i
        if rank == THREE and not side.went_out and not v.THREES_ORDINARY:
            raise ScoreInputError(
                f"{shown}: black threes are melded only by the player going out (Fragment 'Going Out'), "
                f"and {who} did not go out")
        side.melds.append((rank, cards))


def _side(v: Classic, raw: dict[str, Any], who: str, partnership: bool) -> _Side:
    unknown = [k for k in raw if k not in TEAM_KEYS]
    if unknown:
        raise ScoreInputError(f"{who} has an unknown key {unknown[0]!r}; known: {', '.join(TEAM_KEYS)}")
    side = _Side(who)
    for key in ("went_out", "concealed"):
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise ScoreInputError(f"{who}: {key!r} must be true or false, not {_type_name(value)}")
        setattr(side, key, value)

    _read_melds(v, raw, side, who)

    side.threes = _cards(raw.get("threes", []), f"{who}, threes")
    if v.SCORES_TABLE:  # Modern American: threes of both colours laid out; one may be in a hand (5 points)
        return _american_side(v, raw, side, who, partnership)
    if v.THREES_ORDINARY and (side.threes or raw.get("undeclared_red_threes")):
        raise ScoreInputError(f"{who}: {v.title} has no red threes to lay out; threes are melded or held like other cards")
    for c in side.threes:
        if is_black_three(c):
            raise ScoreInputError(
                f"{who}, threes: {format_card(c)} is a black three; only red threes are laid out "
                "(a black three left in hand belongs in 'hands', three or four melded when going out in 'melds')")
        if not is_red_three(c):
            raise ScoreInputError(f"{who}, threes: {format_card(c)} is not a red three; 'threes' lists the red threes laid out")

    if "hands" not in raw:
        raise ScoreInputError(f"{who} has no 'hands': list the cards left in each player's hand, one list per player")
    for j, hand_raw in enumerate(raw["hands"], 1):
        where = f"{who}, hand {j}" if partnership else f"{who}, hand"
        hand = _cards(hand_raw, where)
        for c in hand:
            # Hand and Foot: 'hands' holds the unplayed foot too, where a red three may lie (it counts against)
            if is_red_three(c) and not v.THREES_ORDINARY and not getattr(v, "FEET", False):
                raise ScoreInputError(
                    f"{where}: {format_card(c)} is a red three; red threes belong in 'threes' "
                    "(one never declared counts in 'undeclared_red_threes' instead)")
        side.hands.append(hand)

    undeclared = raw.get("undeclared_red_threes", 0)
    if not isinstance(undeclared, int) or isinstance(undeclared, bool) or undeclared < 0:
        raise ScoreInputError(f"{who}: 'undeclared_red_threes' must be a whole number of red threes (0 or more), "
                              f"not {_type_name(undeclared)}")
    side.undeclared = undeclared

    removed = raw.get("black_threes_removed", 0)
    if removed and not v.REMOVES_BLACK_THREES_ON_TAKE:
        raise ScoreInputError(f"{who}: 'black_threes_removed' applies only where black threes leave play (Cuban)")
    if not isinstance(removed, int) or isinstance(removed, bool) or not 0 <= removed <= 4:
        raise ScoreInputError(f"{who}: 'black_threes_removed' must be a whole number from 0 to 4, not {removed!r}")
    side.removed_black_threes = removed

    side.penalties = _failed_go_outs(v, raw, who) + _named_points(raw, "penalties", who, negative=True)
    side.penalties += _named_points(raw, "bonuses", who, negative=False)
    return side


def _american_side(v: Classic, raw: dict[str, Any], side: _Side, who: str, partnership: bool) -> _Side:
    """Terms 'American Canasta: Scoring': 'All threes melded by a team' of both colours in 'threes'; a three
    left in a hand counts 5; ``special_hand`` names the special hand the side went out with."""
    for c in side.threes:
        if rank_of(c) != THREE:
            raise ScoreInputError(f"{who}, threes: {format_card(c)} is not a three; 'threes' lists the threes laid out")
    if "hands" not in raw:
        raise ScoreInputError(f"{who} has no 'hands': list the cards left in each player's hand, one list per player")
    for j, hand_raw in enumerate(raw["hands"], 1):
        side.hands.append(_cards(hand_raw, f"{who}, hand {j}" if partnership else f"{who}, hand"))
    for key in ("undeclared_red_threes", "black_threes_removed"):
        if raw.get(key):
            raise ScoreInputError(f"{who}: '{key}' does not apply to {v.title}")
    special = raw.get("special_hand")
    if special is not None:
        names = ", ".join(f'"{k}"' for k in getattr(v, "special_hands", lambda: ())())
        if not isinstance(special, str):
            raise ScoreInputError(f"{who}: 'special_hand' must be one of {names}, not {_type_name(special)}")
        try:
            points = v.score_special(special)["total"]  # type: ignore[attr-defined]
        except CanastaError as exc:
            raise ScoreInputError(f"{who}: {exc}") from None
        if not points:
            raise ScoreInputError(f"{who}: the table does not score a {special!r} hand (set the table rule zip_code_score)")
        if not side.went_out:
            raise ScoreInputError(f"{who}: a special hand ends the play by going out: set 'went_out' to true")
        if side.melds or side.threes:
            raise ScoreInputError(f"{who}: a special hand is the side's 'first and only meld' (Terms): no other melds "
                                  "or threes")
        side.special_hand = special
    side.penalties = _failed_go_outs(v, raw, who) + _named_points(raw, "penalties", who, negative=True)
    side.penalties += _named_points(raw, "bonuses", who, negative=False)
    return side


def _failed_go_outs(v: Any, raw: dict[str, Any], who: str) -> list[tuple[str, int]]:
    """``failed_go_out``: how many times a player of the side, told 'yes' to 'May I go out?', could not go out;
    each costs the variant's table rule failed_go_out_penalty (Denexa: 'Not being able to go out after having asked
    "May I go out?": -100 points'), the engine's own item ``failed_go_out``."""
    count = raw.get("failed_go_out", 0)
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise ScoreInputError(f"{who}: 'failed_go_out' must be a whole number of failed go-outs (0 or more), "
                              f"not {_type_name(count)}")
    if not count:
        return []
    penalty = v.rules.get("failed_go_out_penalty", 0)
    if not penalty:
        raise ScoreInputError(f"{who}: {v.title} has no penalty for failing to go out after asking "
                              "(its table rule failed_go_out_penalty is 0 or absent)")
    return [("failed_go_out", -penalty * count)]


def _named_points(raw: dict[str, Any], key: str, who: str, *, negative: bool) -> list[tuple[str, int]]:
    """Penalties (negative) or bonuses (positive) the texts give for things only real cards allow,
    e.g. Denexa's -100 for going out after a 'no', the Encyclopedia's 100 for an exact deal."""
    kind, example = ("penalty", '{"failed_go_out": -100}') if negative else ("bonus", '{"exact_deal": 100}')
    given = raw.get(key, {})
    if not isinstance(given, dict):
        raise ScoreInputError(f"{who}: '{key}' must be an object of name: points, e.g. {example}, not {_type_name(given)}")
    out: list[tuple[str, int]] = []
    for name, points in given.items():
        if not name.strip():
            raise ScoreInputError(f"{who}: a {kind} needs a name")
        if name == "failed_go_out":
            raise ScoreInputError(f"{who}: give failed go-outs as a count, e.g. \"failed_go_out\": 1 (the variant "
                                  "sets the points)")
        if not isinstance(points, int) or isinstance(points, bool) or (points >= 0 if negative else points <= 0):
            what = "a negative whole number of points (it is deducted), e.g. -100" if negative else \
                "a positive whole number of points, e.g. 100"
            raise ScoreInputError(f"{who}: {kind} {name!r} must be {what}, not {_type_name(points)}")
        out.append((name, points))
    return out


def _check_table(v: Classic, sides: list[_Side]) -> None:
    """Checks that look at the whole table: card counts, who went out, what going out needs."""
    _check_card_counts(v, sides)
    _check_going_out(v, sides)


def _check_card_counts(v: Classic, sides: list[_Side]) -> None:
    """No card, rank, black or red three given more often than the pack holds."""
    pack = Counter(v.deck())
    given: Counter[int] = Counter()
    places: dict[int, list[str]] = {}
    for s in sides:
        groups: list[tuple[str, list[int]]] = [(f"{s.who} meld {i}", cards) for i, (_, cards) in enumerate(s.melds, 1)]
        groups.append((f"{s.who} threes", s.threes))
        groups += [(f"{s.who} hand {j}" if len(s.hands) > 1 else f"{s.who} hand", h) for j, h in enumerate(s.hands, 1)]
        for where, cards in groups:
            for c in cards:
                given[c] += 1
                places.setdefault(c, []).append(where)
    # A table rule that drops cards from the pack (seven_of_each) does not say which suit goes,
    # so a card is checked against the most copies of any card of its rank, and each rank as a whole.
    by_rank: Counter[int] = Counter()
    most: Counter[int] = Counter()
    for c, n in pack.items():
        by_rank[rank_of(c)] += n
        most[rank_of(c)] = max(most[rank_of(c)], n)

    def spots_of(codes: list[int]) -> str:
        spots = Counter(w for c in codes for w in places[c])
        return ", ".join(w + (f" ×{k}" if k > 1 else "") for w, k in spots.items())

    for c, n in sorted(given.items()):
        if n > most[rank_of(c)]:
            raise ScoreInputError(
                f"impossible card count: {n} × {format_card(c)} given ({spots_of([c])}), "
                f"but the pack holds {most[rank_of(c)]}")
    for rank in sorted({rank_of(c) for c in given}):
        codes = [c for c in given if rank_of(c) == rank]
        n = sum(given[c] for c in codes)
        if n > by_rank[rank]:
            raise ScoreInputError(
                f"impossible card count: {n} {_rank_name(rank) if rank != 3 else 'threes'} given ({spots_of(codes)}), "
                f"but the pack holds {by_rank[rank]}")
    removed_given = sum(s.removed_black_threes for s in sides)
    black_in_play = sum(n for c, n in given.items() if rank_of(c) == 3 and not is_red_three(c))
    if removed_given + black_in_play > sum(n for c, n in pack.items() if rank_of(c) == 3 and not is_red_three(c)):
        raise ScoreInputError(
            f"impossible card count: {removed_given} black threes removed plus {black_in_play} on the table or in hand")
    red_in_pack = sum(n for c, n in pack.items() if is_red_three(c))
    red_given = sum(sum(1 for c in s.threes if is_red_three(c)) + s.undeclared for s in sides)
    if red_given > red_in_pack:
        raise ScoreInputError(
            f"impossible card count: {red_given} red threes given (laid out plus undeclared), but the pack holds {red_in_pack}")



def _check_going_out(v: Classic, sides: list[_Side]) -> None:
    """At most one side went out, with what going out needs, and only it has an empty hand."""
    out = [s.who for s in sides if s.went_out]
    if len(out) > 1:
        raise ScoreInputError(f"only one side can go out, but {' and '.join(out)} both say went_out")
    for s in sides:
        if s.concealed and not s.went_out:
            raise ScoreInputError(f"{s.who} is marked concealed but did not go out; 'concealed' means going out concealed")
        empty = sum(1 for h in s.hands if not h)
        if s.special_hand is not None:
            continue
        if s.went_out and getattr(v, "FEET", False):
            hv: Any = v  # Hand and Foot's bound variant
            books = [(rank, 0 if rank == WILD_RANK else sum(1 for c in cards if _is_wild(c)))
                     for rank, cards in s.melds if len(cards) >= hv.MELD_MAX]
            why = hv.books_problem(books)
            if why:
                raise ScoreInputError(f"{s.who} went out, but {why}")
            if not empty:
                raise ScoreInputError(
                    f"{s.who} went out, but no hand of the side is empty; the player who went out has no cards left")
        elif s.went_out:
            canastas = [cards for _, cards in s.melds if len(cards) >= v.CANASTA_SIZE]
            natural = sum(1 for cards in canastas if all(_is_wild(c) for c in cards) or not any(_is_wild(c) for c in cards))
            if len(canastas) < v.canastas_to_go_out or natural < v.natural_canastas_to_go_out:
                need = f"{v.canastas_to_go_out} canasta(s)"
                if v.natural_canastas_to_go_out:
                    need += f", {v.natural_canastas_to_go_out} of them natural"
                raise ScoreInputError(
                    f"{s.who} went out with {len(canastas)} canasta(s) ({natural} natural), but going out needs {need}")
            if not empty:
                raise ScoreInputError(
                    f"{s.who} went out, but no hand of the side is empty; the player who went out has no cards left")
            if s.undeclared and len(s.hands) == 1:
                raise ScoreInputError(
                    f"{s.who} went out and so holds no cards: there can be no undeclared red threes in hand")
        elif empty and not s.undeclared:
            raise ScoreInputError(
                f"{s.who} has an empty hand but did not go out; only the player who went out ends with no cards "
                "(is 'went_out' on the right side?)")


def score_input(data: Any) -> dict[str, Any]:
    """Score the end of a hand described by ``data`` (parsed JSON).

    Returns ``{"teams": [{"total": int, "items": {name: points}}, ...]}``, one entry
    per side in input order. Raises :class:`ScoreInputError` (or the variant's
    ``OptionError`` / ``UnknownVariantError``) naming the problem in bad input.
    """
    if not isinstance(data, dict):
        raise ScoreInputError(f"the input must be a JSON object with a 'teams' list, not {_type_name(data)}")
    unknown = [k for k in data if k not in TOP_KEYS]
    if unknown:
        raise ScoreInputError(f"unknown key {unknown[0]!r} in the input; known: {', '.join(TOP_KEYS)}")
    if "teams" not in data:
        raise ScoreInputError("the input has no 'teams': list one entry per side (per player when playing alone)")
    teams = data["teams"]
    if not isinstance(teams, list):
        raise ScoreInputError(f"'teams' must be a list of objects, one per side, not {_type_name(teams)}")
    for i, t in enumerate(teams, 1):
        if not isinstance(t, dict):
            raise ScoreInputError(f"entry {i} of 'teams' must be an object with melds, threes and hands, not {_type_name(t)}")
        if "hands" not in t:
            raise ScoreInputError(f"entry {i} of 'teams' has no 'hands': list the cards left in each player's hand, "
                                  "one list per player (an empty list for the player who went out)")
        if not isinstance(t["hands"], list):
            raise ScoreInputError(f"entry {i} of 'teams': 'hands' must be a list with one list of cards per player, "
                                  f"not {_type_name(t['hands'])}")
    players = _players(teams, data.get("players"))
    v = _bind(data, players)
    _check_sides(v, teams)
    partnership = players >= 4
    if getattr(v, "CLASSIC_TURN", False) or getattr(v, "MELD_IDS", False):
        by_runs = _score_samba(v, teams, partnership) if getattr(v, "CLASSIC_TURN", False) else \
            _score_meld_ids(v, teams, partnership)
        if "game" in data:  # the Samba family and Burraco: the winner at the target too (the variant's game_won)
            by_runs["game"] = _game_after(v, data["game"], by_runs["teams"])
        return by_runs
    sides = [_side(v, t, _who(i, t, partnership), partnership) for i, t in enumerate(teams, 1)]
    _check_table(v, sides)

    red_in_pack = sum(1 for c in v.deck() if is_red_three(c))
    result: list[dict[str, Any]] = []
    for s in sides:
        args: dict[str, Any] = {
            "melds": s.melds, "red_threes": s.threes, "hands": s.hands, "went_out": s.went_out,
            "concealed": s.concealed, "all_red_threes": len(s.threes) == red_in_pack,
            "removed_black_threes": s.removed_black_threes,
        }
        reserved = set(score_side(v, **args)["items"]) | {"seven_canastas", "undeclared_red_threes"}
        for name, _ in s.penalties:
            if name in reserved:
                raise ScoreInputError(f"{s.who}: penalty name {name!r} is already a part of the score; choose another name")
        penalties = [("undeclared_red_threes", -v.UNDECLARED_RED_THREE_PENALTY * s.undeclared)] if s.undeclared else []
        if s.special_hand is not None:  # Terms 6: 'the team that went out scores only the amount shown'
            scored = v.score_special(s.special_hand)  # type: ignore[attr-defined]
            for name, points in s.penalties:
                scored["items"][name] = points
            scored["total"] = sum(scored["items"].values())
        else:
            scored = score_side(v, **args, penalties=penalties + s.penalties)
        entry: dict[str, Any] = {"total": scored["total"], "items": dict(scored["items"])}
        if "naturals" in scored:  # Mille: the asterisks and the chapeau of the hand
            entry["naturals"] = scored["naturals"]
            entry["chapeau"] = scored.get("chapeau", False)
        result.append(entry)
    out: dict[str, Any] = {"teams": result}
    if "game" in data:
        out["game"] = _game_after(v, data["game"], result)
    return out


def _whole_numbers(value: Any, n: int, what: str, *, minimum: int | None = None) -> list[int]:
    if not isinstance(value, list) or len(value) != n or any(
            not isinstance(x, int) or isinstance(x, bool) or (minimum is not None and x < minimum) for x in value):
        low = "" if minimum is None else f" of {minimum} or more"
        raise ScoreInputError(f"'game': {what!r} must be a list of {n} whole numbers{low}, one per entry of 'teams', "
                              f"not {value!r}")
    return list(value)


def _game_after(v: Any, raw: Any, hand: list[dict[str, Any]]) -> dict[str, Any]:
    """The game after this hand: running scores, whether it ended, and the variant's settlement.

    ``raw`` gives the game *before* this hand: ``scores`` (required), and for Mille the
    ``naturals`` scored and ``chapeaux`` suffered so far by each player (default 0).
    """
    if not isinstance(raw, dict):
        raise ScoreInputError(f"'game' must be an object with the scores before this hand, e.g. "
                              f"{{\"scores\": [850, 420]}}, not {_type_name(raw)}")
    unknown = [k for k in raw if k not in GAME_KEYS]
    if unknown:
        raise ScoreInputError(f"'game' has an unknown key {unknown[0]!r}; known: {', '.join(GAME_KEYS)}")
    n = len(hand)
    if "scores" not in raw:
        raise ScoreInputError("'game' needs 'scores': each side's game score before this hand")
    before = _whole_numbers(raw["scores"], n, "scores")
    naturals = _whole_numbers(raw.get("naturals", [0] * n), n, "naturals", minimum=0)
    chapeaux = _whole_numbers(raw.get("chapeaux", [0] * n), n, "chapeaux", minimum=0)
    scores = [b + t["total"] for b, t in zip(before, hand, strict=True)]
    top = max(scores)
    game_won = getattr(v, "game_won", None)  # Samba, Burraco: the engine's own test (Burraco: 'reach' or 'exceed')
    if game_won is not None:
        winner = game_won(scores)
    else:
        winner = scores.index(top) if top >= v.target_score and scores.count(top) == 1 else None
    if getattr(v, "hands_per_game", None) is not None:  # Hand and Foot: 'The game ends after four hands have been played'
        hand_no = raw.get("hand")
        if not isinstance(hand_no, int) or isinstance(hand_no, bool) or hand_no < 1:
            raise ScoreInputError(f"'game' needs 'hand': the number of this hand (1 to {v.hands_per_game}), "
                                  f"since {v.title} is {v.hands_per_game} hands")
        over = hand_no >= v.hands_per_game
        winner = scores.index(top) if over and scores.count(top) == 1 else None
        return {"scores": scores, "hands": v.hands_per_game, "hand": hand_no, "over": over, "winner": winner,
                "settlement": None}
    # the game so far as hand results: the settlement hook counts naturals and chapeaux from them
    history: list[dict[str, Any]] = [{"sides": [{"total": 0, "naturals": naturals[s] if k == 0 else 0,
                                                 "chapeau": k < chapeaux[s]} for s in range(n)]}
                                     for k in range(max([1, *chapeaux]))]
    history.append({"sides": [{"total": t["total"], "naturals": t.get("naturals", 0),
                               "chapeau": t.get("chapeau", False)} for t in hand]})
    return {"scores": scores, "target": v.target_score, "over": winner is not None, "winner": winner,
            "settlement": v.settle(scores, history, winner) if winner is not None else None}


#: Keys of a team in a variant with sets and runs (Burraco).
RUN_TEAM_KEYS = ("name", "melds", "hands", "closed", "pozzetto_taken", "unseen_pozzetto")


def _score_meld_ids(v: Any, teams: list[dict[str, Any]], partnership: bool) -> dict[str, Any]:
    """Score a hand of a variant with sets and runs (Burraco, Denexa 'Scoring') from real cards.

    Each meld is a list of cards; the variant's ``arrange_meld`` decides whether it is a set or a
    run (``["4h", "5h", "6h"]`` is a run, in any order) and which card plays wild. ``closed``
    marks the side that closed; ``pozzetto_taken`` (default true) whether the side picked up its
    pozzetto; ``unseen_pozzetto`` the cards of a pozzetto taken face down and never looked at
    (scored like a hand, without the penalty).
    """
    from canasta.scoring import score_meld_side

    pack = Counter(v.deck())
    given: Counter[int] = Counter()
    parsed = []
    for i, raw in enumerate(teams, 1):
        who = _who(i, raw, partnership)
        unknown = [k for k in raw if k not in RUN_TEAM_KEYS]
        if unknown:
            raise ScoreInputError(f"{who} has an unknown key {unknown[0]!r}; known: {', '.join(RUN_TEAM_KEYS)}")
        flags = {}
        for key, default in (("closed", False), ("pozzetto_taken", True)):
            value = raw.get(key, default)
            if not isinstance(value, bool):
                raise ScoreInputError(f"{who}: {key!r} must be true or false, not {_type_name(value)}")
            flags[key] = value
        melds_raw = raw.get("melds", [])
        if not isinstance(melds_raw, list):
            raise ScoreInputError(f"{who}: 'melds' must be a list of melds, each a list of cards, not {_type_name(melds_raw)}")
        melds: list[tuple[list[int], int]] = []
        set_ranks: dict[int, int] = {}
        burracos = 0
        for j, meld_raw in enumerate(melds_raw, 1):
            where = f"{who}, meld {j}"
            cards = _cards(meld_raw, where)
            got = v.arrange_meld(cards)
            if isinstance(got, str):
                raise ScoreInputError(f"{where} ({' '.join(format_card(c) for c in cards)}) is not a valid meld: {got}")
            kind, (order, wild_index, _low) = got
            if kind == "set":
                rank = next(rank_of(c) for c in cards if not _is_wild(c))
                if rank in set_ranks:
                    raise ScoreInputError(f"{who} has two sets of {format_rank(rank)}s (melds {set_ranks[rank]} and {j}); "
                                          "'Each partnership can only have one set for each rank'")
                set_ranks[rank] = j
                wilds = sum(1 for c in cards if _is_wild(c))
            else:
                wilds = 1 if wild_index >= 0 else 0
            burracos += len(cards) >= v.CANASTA_SIZE
            melds.append((list(order), wilds))
            given.update(cards)
        if not isinstance(raw.get("hands"), list):
            raise ScoreInputError(f"{who}: 'hands' must be a list with one list of cards per player")
        hands = [_cards(h, f"{who}, hand {k}") for k, h in enumerate(raw["hands"], 1)]
        unseen = _cards(raw.get("unseen_pozzetto", []), f"{who}, unseen_pozzetto")
        if unseen and len(unseen) != v.pozzetto_size:
            raise ScoreInputError(f"{who}: a pozzetto has {v.pozzetto_size} cards, not {len(unseen)}")
        for h in hands:
            given.update(h)
        given.update(unseen)
        if flags["closed"]:
            if not flags["pozzetto_taken"]:
                raise ScoreInputError(f"{who} closed without taking its pozzetto: closing needs the pozzetto taken")
            if not burracos:
                raise ScoreInputError(f"{who} closed without a burraco: closing needs at least one burraco")
            if all(h for h in hands):
                raise ScoreInputError(f"{who} closed, but no hand of the side is empty")
        parsed.append((melds, hands + ([unseen] if unseen else []), flags))
    if sum(1 for _, _, f in parsed if f["closed"]) > 1:
        raise ScoreInputError("only one side can close")
    for c, n in sorted(given.items()):
        if n > pack[c]:
            raise ScoreInputError(f"impossible card count: {n} × {format_card(c)} given, but the pack holds {pack[c]}")
    result = []
    for melds, hands, flags in parsed:
        scored = score_meld_side(v, melds=melds, hands=hands, closed=flags["closed"],
                                 pile_missed=not flags["pozzetto_taken"])
        result.append({"total": scored["total"], "items": dict(scored["items"])})
    return {"teams": result}


#: Keys of a team in Samba.
SAMBA_TEAM_KEYS = ("name", "melds", "threes", "hands", "went_out", "undeclared_red_threes", "penalties", "bonuses",
                   "failed_go_out")


def _score_samba(v: Any, teams: list[dict[str, Any]], partnership: bool) -> dict[str, Any]:
    """Score a hand of Samba (Denexa 'Scoring') from real cards.

    Each meld is a list of cards: cards of one rank (with at most two wild cards) are a set, cards of
    one suit in sequence (``["4h", "5h", "6h"]``, in any order) an escalera; seven cards make a
    canasta or a samba. ``threes`` are the red threes laid out; ``undeclared_red_threes`` cost 500
    each ('Undeclared red 3s at end of hand: -500 points each').
    """
    pack = Counter(v.deck())
    given: Counter[int] = Counter()
    parsed = []
    for i, raw in enumerate(teams, 1):
        who = _who(i, raw, partnership)
        unknown = [k for k in raw if k not in SAMBA_TEAM_KEYS]
        if unknown:
            raise ScoreInputError(f"{who} has an unknown key {unknown[0]!r}; known: {', '.join(SAMBA_TEAM_KEYS)}")
        went_out = raw.get("went_out", False)
        if not isinstance(went_out, bool):
            raise ScoreInputError(f"{who}: 'went_out' must be true or false, not {_type_name(went_out)}")
        melds_raw = raw.get("melds", [])
        if not isinstance(melds_raw, list):
            raise ScoreInputError(f"{who}: 'melds' must be a list of melds, each a list of cards, not {_type_name(melds_raw)}")
        melds: list[tuple[str, list[int], int]] = []
        for j, meld_raw in enumerate(melds_raw, 1):
            where = f"{who}, meld {j}"
            cards = _cards(meld_raw, where)
            got = v.arrange_meld(cards)
            if isinstance(got, str):
                raise ScoreInputError(f"{where} ({' '.join(format_card(c) for c in cards)}) is not a valid meld: {got}")
            kind, (order, _wild_index, _low) = got
            melds.append((kind, list(order), sum(1 for c in cards if _is_wild(c))))
            given.update(cards)
        threes = _cards(raw.get("threes", []), f"{who}, threes")
        if any(not is_red_three(c) for c in threes):
            raise ScoreInputError(f"{who}: 'threes' lists the red threes laid out (3h, 3d)")
        given.update(threes)
        if not isinstance(raw.get("hands"), list):
            raise ScoreInputError(f"{who}: 'hands' must be a list with one list of cards per player")
        hands = [_cards(h, f"{who}, hand {k}") for k, h in enumerate(raw["hands"], 1)]
        for h in hands:
            given.update(h)
        undeclared = raw.get("undeclared_red_threes", 0)
        if not isinstance(undeclared, int) or isinstance(undeclared, bool) or undeclared < 0:
            raise ScoreInputError(f"{who}: 'undeclared_red_threes' must be a whole number of red threes (0 or more)")
        held_reds = sum(1 for h in hands for c in h if is_red_three(c))
        if held_reds != undeclared:
            raise ScoreInputError(f"{who}: a red three in hand is an undeclared red three: set "
                                  f"'undeclared_red_threes' to {held_reds}")
        sevens = sum(1 for _, cards, _ in melds if len(cards) >= v.CANASTA_SIZE)
        if went_out:
            if sevens < v.CANASTAS_TO_GO_OUT:
                raise ScoreInputError(f"{who} went out with {sevens} seven-card melds: 'In order to go out, a "
                                      "partnership must have formed at least two seven-card melds'")
            if all(h for h in hands):
                raise ScoreInputError(f"{who} went out, but no hand of the side is empty")
        penalties = _failed_go_outs(v, raw, who) + _named_points(raw, "penalties", who, negative=True)
        penalties += _named_points(raw, "bonuses", who, negative=False)
        if undeclared:
            penalties.insert(0, ("undeclared_red_threes", -500 * undeclared))
        parsed.append((melds, threes, hands, went_out, penalties))
    if sum(1 for p in parsed if p[3]) > 1:
        raise ScoreInputError("only one side can go out")
    for c, n in sorted(given.items()):
        if n > pack[c]:
            raise ScoreInputError(f"impossible card count: {n} × {format_card(c)} given, but the pack holds {pack[c]}")
    result = []
    for melds, threes, hands, went_out, penalties in parsed:
        # red threes in hand are charged as undeclared, not as cards in hand
        hands = [[c for c in h if not is_red_three(c)] for h in hands]
        scored = v.score_team(melds=melds, red_threes=len(threes), all_red_threes=len(threes) == v.red_threes_in_pack,
                              hands=hands, went_out=went_out, penalties=penalties)
        result.append({"total": scored["total"], "items": dict(scored["items"])})
    return {"teams": result}


def _who(i: int, raw: dict[str, Any], partnership: bool) -> str:
    who = f"{'team' if partnership else 'player'} {i}"
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        raise ScoreInputError(f"{who}: 'name' must be text, not {_type_name(name)}")
    return f"{who} ({name})" if name else who


def render_sheet(data: Any, result: dict[str, Any]) -> str:
    """A readable score sheet: one column per side, one row per part of the score, then the totals."""
    teams_in: list[Any] = data.get("teams", []) if isinstance(data, dict) else []
    teams_out: list[dict[str, Any]] = result["teams"]
    sizes = {len(t["hands"]) if isinstance(t, dict) and isinstance(t.get("hands"), list) else 0 for t in teams_in}
    # teams of two (2, 3 or 4 of them) or two teams of three (Hand and Foot's team_size 3)
    size = sizes.pop() if len(sizes) == 1 else 0
    partnership = (size == 2 and len(teams_out) in (2, 3, 4)) or (size == 3 and len(teams_out) == 2)
    heads: list[str] = []
    for i in range(len(teams_out)):
        raw = teams_in[i] if i < len(teams_in) and isinstance(teams_in[i], dict) else {}
        name = raw.get("name")
        heads.append(name if isinstance(name, str) and name else f"{'Team' if partnership else 'Player'} {i + 1}")
    rows: list[str] = []
    for t in teams_out:
        for key in t["items"]:
            if key not in rows:
                rows.append(key)
    labels = [ITEM_LABELS.get(k, k.replace("_", " ").capitalize()) for k in rows]
    label_w = max([len(x) for x in [*labels, "Total"]])
    col_w = max(8, *(len(h) for h in heads))

    def line(label: str, cells: list[str]) -> str:
        return f"{label:<{label_w}}" + "".join(f"  {c:>{col_w}}" for c in cells)

    title = "Canasta"
    variant = data.get("variant", "classic") if isinstance(data, dict) else "classic"
    with suppress(CanastaError):
        title = find_variant(str(variant)).title or title
    players = size * len(teams_out) if partnership else len(teams_out)
    how = (f"{len(teams_out)} partnerships" + (" of three" if size == 3 else "")) if partnership else "each alone"
    out = [f"{title}: score of the hand, {players} players ({how})", ""]
    out.append(line("", heads))
    for key, label in zip(rows, labels, strict=True):
        out.append(line(label, [str(t["items"].get(key, 0)) for t in teams_out]))
    out.append("-" * (label_w + len(heads) * (col_w + 2)))
    out.append(line("Total", [str(t["total"]) for t in teams_out]))
    game = result.get("game")
    if game is not None:
        out.append(line("Game score", [str(s) for s in game["scores"]]))
    if any("naturals" in t for t in teams_out):
        out.append(line("Naturals", ["*" * t.get("naturals", 0) or "-" for t in teams_out]))
        out.append(line("Chapeau", ["yes" if t.get("chapeau") else "-" for t in teams_out]))
    for i, raw in enumerate(teams_in[:len(teams_out)]):
        if isinstance(raw, dict) and raw.get("went_out") is True:
            out.append("")
            out.append(f"{heads[i]} went out{' concealed' if raw.get('concealed') is True else ''}.")
    if game is not None:
        out.append("")
        if game["winner"] is None and "hands" in game:
            out.append(f"The game ends in a tie, {' to '.join(map(str, game['scores']))}." if game["over"] else
                       f"The game goes on (hand {game['hand']} of {game['hands']}).")
        elif game["winner"] is None:
            out.append(f"The game goes on (target {game['target']}).")
        else:
            out.append(f"{heads[game['winner']]} wins the game, {' to '.join(map(str, game['scores']))}.")
            if game["settlement"] is not None:
                out.extend(settlement_lines(game["settlement"], lambda s: heads[s]))
    return "\n".join(out)


__all__ = ["UNDECLARED_RED_THREE_PENALTY", "render_sheet", "score_input"]
