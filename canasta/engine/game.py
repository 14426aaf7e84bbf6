"""The core of the rules engine: the state every rule family keeps, and the public API.

``Game(variant, players, seed, rules)`` builds the variant's rule family, a subclass of :class:`Game`
registered for the variant's flags (:mod:`canasta.engine.setgame`, :mod:`~canasta.engine.american`,
:mod:`~canasta.engine.feet`, :mod:`~canasta.engine.idmelds`, :mod:`~canasta.engine.idturn`); the core knows
no family's rules. The state is plain data (lists, ints, dicts). ``apply`` checks an action completely before
it changes anything, so a refused action leaves the game exactly as it was. Randomness comes only from the
seed: the deal of hand ``k`` is shuffled by the chance stream ``k`` of the game's seed under its shuffle scheme
(see :mod:`canasta.engine.chance`). The engine performs no I/O and reads no clock.
"""

from __future__ import annotations

import copy
from collections.abc import Sized
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr

import canasta.engine.chance as _chance
from canasta.cards import (
    JOKER,
    NUM_CODES,
    format_card,
    sort_key,
)
from canasta.engine.actions import (
    MELD,
    Action,
)
from canasta.engine.setmeld import WILD_RANK, Meld  # defined there (setrules and feet use them too); re-exported
from canasta.engine.setmeld import wild_mixes as wild_mixes
from canasta.errors import IllegalActionError, InconsistentPositionError, OptionError, SchemaError
from canasta.scoring import HandScore
from canasta.variants import find_variant
from canasta.variants.classic import Classic

SCHEMA_VERSION = 1

# Phases (decision points).
P_DRAW = "draw"      # start of turn: draw, take the pile, ask
P_PLAY = "play"      # after drawing: meld, add, discard, ask, retract
P_ANSWER = "answer"  # partner answers "may I go out?"
P_OVER = "over"      # game finished
P_PASS = "pass"      # Hand and Foot's hand-passing deal (canasta.engine.feet): each seat keeps a pile as its foot

#: Why a meld is refused after the turn's retract (every family: Game._retracted_problem, SambaGame._check_meld).
#: The bound is the engine's reading, not a sentence of one text: every variant that allows a retract
#: (each citing its own text for it) allows it once a turn, so that meld and retract cannot go round for ever.
RETRACTED_THIS_TURN = (
    "you retracted your insufficient meld this turn: no new initial meld until your next turn (a retract is a "
    "penalty allowed once a turn, so that meld and retract cannot go round for ever)")


def _is_wild(code: int) -> bool:
    return code == JOKER or 8 <= code <= 11


#: The variant flags that choose a built-in rule family: each family class names the set of flags it plays
#: (its ``PLAYS``) and registers itself (``Game.register_family`` after its class statement), and
#: ``Game(variant, ...)`` builds the family whose set is exactly the variant's true flags. A family defined
#: elsewhere may register a flag of its own.
FAMILY_FLAGS = ("MELD_IDS", "CLASSIC_TURN", "EXTENDED_SET_RULES", "FEET")


def variant_flags(variant_cls: type) -> frozenset[str]:
    """The family flags ``variant_cls`` sets (the built-in ones and those of every registered family)."""
    known = set(FAMILY_FLAGS).union(*Game._families)
    return frozenset(flag for flag in known if getattr(variant_cls, flag, False))


# (a family may be defined in plain Python on top of a compiled engine: tests/test_adding_a_variant.py)
@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """One game of a variant: a sequence of hands until a side reaches the target.

    ``Game(variant, ...)`` returns an instance of the variant's rule family (a subclass registered with
    :meth:`register_family`; the families live in their own modules, which :mod:`canasta.engine` imports)."""

    variant: Classic
    #: flag set -> family class (filled as the family modules are imported)
    _families: ClassVar[dict[frozenset[str], type[Game]]] = {}
    #: the flags of the variants this family plays
    PLAYS: ClassVar[frozenset[str]]
    #: the family's flags, as class constants (the family classes set theirs)
    #: the threes laid out and replaced when they come into a hand: the red ones (Modern American: all four)
    LAID_OUT_THREES: ClassVar[tuple[int, ...]] = (13, 14)
    #: the phases a position of this family may be in
    PHASES: ClassVar[frozenset[str]] = frozenset({P_DRAW, P_PLAY, P_ANSWER, P_OVER})

    # The state every family keeps (dealt by the family's ``_deal``; saved by ``to_dict``).
    stock: list[int]
    pile: list[int]
    #: per seat, a count per card code
    hands: list[list[int]]
    hand_sizes: list[int]
    #: per side, its melds by key: a rank (set melds) or a meld id (``IdMeld``)
    melds: list[dict[int, Meld]]
    frozen: bool
    red_threes: list[list[int]]
    #: cards a side took out of play (Cuban: black threes from a taken pile)
    removed: list[list[int]]
    opened: list[bool]
    minimum_extra: list[int]
    penalties: list[list[tuple[str, int]]]
    melded_before: list[bool]
    #: per seat, cards every player saw go into that hand (from a taken pile) and still there
    known: list[list[int]]
    turn: int
    hand_over: bool
    reshuffles: int
    #: the phase to go back to once 'may I go out?' is answered
    return_phase: str
    # The per-card tables the family's ``_set_card_tables`` reads from the variant once.
    #: per card code: a pile topped by it cannot be taken
    _blocks_pile: list[bool]
    #: per card code: laid out and replaced when it comes into a hand (red threes; all threes in American)
    _laid_out: list[bool]
    _threes_ordinary: bool
    _meld_ranks: range
    _min_naturals: int
    #: codes worth more than the others of their rank (Mille's Q of spades), listed as moves of their own
    _special_codes: tuple[int, ...]
    #: False: a finished hand stays on the table (scored, ``hand_over`` set) instead of the next deal, for a client
    #: that shows or checks the end of a hand on a copy (a replay's last frame, an episode's last step, the soak)
    deals_next_hand: bool = True

    @staticmethod
    def register_family(family: type[Game]) -> None:
        """Make ``family`` the class ``Game(variant, ...)`` builds for the variants with its ``PLAYS`` flags
        (called once after each family's class statement, explicit so that compiled classes register too)."""
        plays = family.PLAYS
        known = Game._families.get(plays)
        if known is not None and known is not family:
            raise TypeError(f"{known.__name__} already plays the variants with {sorted(plays)}")
        Game._families[plays] = family

    def __new__(cls, variant: str = "classic", *args: Any, **kwargs: Any) -> Game:
        if cls is Game:
            family = Game.family_of(variant)
            return family.__new__(family)  # this method again, for the family: (compiled) allocates its kind
        return object.__new__(cls)

    @staticmethod
    def family_of(variant: str) -> type[Game]:
        """The family class that plays ``variant`` (a registered name or alias)."""
        flags = variant_flags(find_variant(variant))
        family = Game._families.get(flags)
        if family is None:
            raise OptionError(f"no rule family plays a variant with {sorted(flags) or 'no family flags'}")
        return family

    def __init__(self, variant: str = "classic", players: int = 4, seed: int | str = 0,
                 rules: dict[str, Any] | None = None, *, shuffle: str = _chance.LEGACY, _deal: bool = True) -> None:
        if shuffle not in _chance.SCHEMES:
            raise OptionError(f"shuffle must be one of {', '.join(_chance.SCHEMES)}, not {shuffle!r}")
        cls = find_variant(variant)
        self.variant = cls(players, rules)  # type: ignore[assignment]
        self.variant_name = cls.name
        if variant_flags(cls) != self.PLAYS:
            raise OptionError(f"{cls.name} is not played by {type(self).__name__}")
        self._sides = [self.variant.side_of(s) for s in range(players)]
        v = self.variant
        self._set_card_tables()
        #: whom a seat may ask 'may I go out?' (None: nobody, or the variant does not offer asking)
        asks = getattr(v, "ASK_PERMISSION", True)
        self._partners = [self.variant.partner_of(s) if asks else None for s in range(players)]
        #: the other seats of each seat's side (Hand and Foot: whose feet going out waits for)
        self._mates = [self.variant.teammates_of(s) for s in range(players)]
        self.num_players = players
        self.num_sides = self.variant.num_sides
        self.seed = seed
        #: how shuffles derive from the seed (canasta.engine.chance): part of what a replay needs
        self.shuffle = shuffle
        self.scores = [0] * self.num_sides
        self.hand_results: list[HandScore] = []
        #: (seat, action, cards that came from the stock to that seat by the action)
        self.history: list[tuple[int, Action, tuple[int, ...]]] = []
        self.deals: list[dict[str, Any]] = []
        self.hand_no = 0
        self.dealer = players - 1  # so that seat 0 plays first in the first hand
        self.winner: int | None = None
        if _deal:
            self._deal()

    def _set_card_tables(self) -> None:
        """The per-card tables of the set-meld moves and checks, read from the variant once."""
        raise NotImplementedError  # each family defines it

    # ------------------------------------------------------------------ deal
    def chance(self, label: str) -> _chance.HmacStream | _chance.LegacyStream:
        """The chance stream named ``label`` (a pure function of the seed, the scheme and the label)."""
        return _chance.stream(self.shuffle, self.seed, label)

    def _shuffled_deck(self) -> list[int]:
        """Start the next hand (its number, its dealer) and return its pack, shuffled."""
        self.hand_no += 1
        if self.hand_no > 1:
            self.dealer = (self.dealer + 1) % self.num_players
        self.reshuffles = 0
        deck = self.variant.deck()
        self.chance(str(self.hand_no)).shuffle(deck)
        return deck

    def _deal(self) -> None:
        raise NotImplementedError  # each family defines it

    def _deal_hands(self, deck: list[int]) -> list[list[int]]:
        """Deal the variant's hand to each seat from the dealer's left, one card at a time; the rest of ``deck``
        is the stock. Returns each seat's cards in the order dealt (the deal's record)."""
        n = self.num_players
        self.stock = deck
        self.hands = [[0] * NUM_CODES for _ in range(n)]
        dealt: list[list[int]] = [[] for _ in range(n)]
        for _ in range(self.variant.hand_size):
            for i in range(n):
                seat = (self.dealer + 1 + i) % n
                c = self.stock.pop()
                self.hands[seat][c] += 1
                dealt[seat].append(c)
        self.hand_sizes = [self.variant.hand_size] * n
        return dealt

    def _reset_turn(self) -> None:
        self.phase = P_DRAW
        self.drawn = False
        self.took_pile = False
        self.pile_barred = False
        self.asked = False
        self.permission: bool | None = None
        self.turn_created: set[int] = set()
        self.turn_added_existing = False
        self.pending_value = 0
        self.pile_aside: list[int] | None = None
        self.take_snapshot: dict[str, Any] | None = None
        self.unusable: list[int] | None = None
        self.no_discard = False
        #: a retract happened this turn: no new initial meld until the next turn (Bicycle allows
        #: one retraction of an insufficient meld, with its penalty; meld and retract must not loop)
        self.retracted = False
        #: the side completed its initial meld in this turn
        self.opened_turn = False

    def _undo_turn_opening(self, seat: int) -> None:
        """The end of every family's retract, once the turn's melds are back in the hand: a pile taken this turn
        goes back as it was (its top card leaves the hand; the player draws again, from the stock only), and
        the side's minimum rises by the table rule ``retract_raises_minimum``; no new initial meld this turn."""
        side = self._sides[seat]
        snap = self.take_snapshot if self.took_pile else None
        if snap is not None:
            self.hands[seat][snap["top"]] -= 1
            self.hand_sizes[seat] -= 1
            self._forget_known(seat, (snap["top"],))
            self.pile = [*snap["pile"], snap["top"]]
            self.frozen = snap["frozen"]
            self.pile_aside = None
            self.took_pile = False
            self.drawn = False
            self.phase = P_DRAW
            self.pile_barred = True
        self.known[seat].sort()  # the melds came back in set order: keep the state canonical
        self.turn_created = set()
        self.pending_value = 0
        self.retracted = True  # (legal_actions and check: no new initial meld this turn)
        self.minimum_extra[side] += self.variant.rules["retract_raises_minimum"]

    # -------------------------------------------------------------- queries
    @property
    def actor(self) -> int:
        """The seat that must act now."""
        if self.phase == P_ANSWER:
            p = self.variant.partner_of(self.turn)
            assert p is not None
            return p
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == P_OVER

    def side_of(self, seat: int) -> int:
        return self.variant.side_of(seat)

    def minimum(self, side: int) -> int:
        return self.variant.minimum(self.scores[side]) + self.minimum_extra[side]

    def hand_cards(self, seat: int) -> list[int]:
        out: list[int] = []
        for code, k in enumerate(self.hands[seat]):
            if k:
                out.extend([code] * k)
        out.sort(key=sort_key)
        return out

    # ------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action now, one per distinct effect (suits are canonical)."""
        if self.retracted and self.phase == P_PLAY:
            return [a for a in self._legal_actions() if not self._melds_after_retract(a)]
        return self._legal_actions()

    def _melds_after_retract(self, action: Action) -> bool:
        """Whether ``action`` starts a meld after this turn's retract (refused: see :meth:`_do_retract`)."""
        return self.retracted and action.kind == MELD

    def _retracted_problem(self, raise_error: bool) -> bool:
        """The refusal of a meld after this turn's retract (the meld checks of every family call it)."""
        return self._fail(raise_error, "retracted-this-turn", RETRACTED_THIS_TURN)

    def _legal_actions(self) -> list[Action]:
        raise NotImplementedError  # each family defines it

    def check(self, action: object) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now.

        Any object is accepted (a client's input, typed or not) and refused unless it is an :class:`Action`."""
        if not isinstance(action, Action):
            raise IllegalActionError("not-an-action", f"{action!r} is not an action")
        self._check(action)

    def _check(self, action: Action) -> None:
        """The family's checks of an action (``check`` has made sure it is one)."""
        raise NotImplementedError  # each family defines it

    def _fail(self, raise_error: bool, rule: str, message: str) -> bool:
        if raise_error:
            raise IllegalActionError(rule, message)
        return False

    def _has_cards(self, hand: list[int], cards: tuple[int, ...]) -> bool:
        need: dict[int, int] = {}
        for c in cards:
            if not 0 <= c < NUM_CODES:
                return False
            need[c] = need.get(c, 0) + 1
        return all(hand[c] >= k for c, k in need.items())

    # ---------------------------------------------------------- transitions
    def apply(self, action: object) -> Game:
        """Check and perform ``action``; on error the game is unchanged."""
        self.check(action)
        self._do(cast(Action, action))  # (check refused anything else)
        return self

    def push(self, action: Action) -> Game:
        """Perform an action taken from :meth:`legal_actions` without re-checking it."""
        self._do(action)
        return self

    def _do(self, action: Action) -> None:
        raise NotImplementedError  # each family defines it

    def _remove_from_hand(self, seat: int, cards: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
            if self.unusable is not None and self.unusable[c] > hand[c]:
                self.unusable[c] = hand[c]
        self.hand_sizes[seat] -= len(cards)
        if self.known[seat]:
            self._forget_known(seat, cards)

    def _forget_known(self, seat: int, cards: tuple[int, ...]) -> None:
        """Cards of a kind now held fewer times than publicly known are no longer known to be held."""
        known, hand = self.known[seat], self.hands[seat]
        for c in set(cards):
            while known.count(c) > hand[c]:
                known.remove(c)

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, and everything face up on the table."""
        raise NotImplementedError  # each family defines it

    def settlement(self) -> dict[str, Any] | None:
        """The variant's end-of-game settlement (Mille's stakes) once the game is over, else None."""
        if self.phase != P_OVER:
            return None
        return self.variant.settle(list(self.scores), self.hand_results, self.winner)

    def _pile_aside_view(self) -> list[str]:
        """The cards of a taken pile set aside until the initial meld completes (empty: none), in pile order."""
        return [format_card(c) for c in self.pile_aside or ()]

    def _base_observation(self, seat: int | None) -> dict[str, Any]:
        """The observation keys every variant shares (melds are filled in by the family); None: a spectator."""
        return {
            "variant": self.variant_name, "rules": dict(self.variant.rules), "players": self.num_players,
            "seat": seat, "side": None if seat is None else self._sides[seat],
            "partner": None if seat is None else self.variant.partner_of(seat),
            "hand_no": self.hand_no, "dealer": self.dealer, "turn": self.turn,
            "actor": self.actor if not self.is_over else None, "phase": self.phase,
            "hand": [] if seat is None else [format_card(c) for c in self.hand_cards(seat)],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": len(self.stock), "pile_size": len(self.pile),
            "pile_top": format_card(self.pile[-1]) if self.pile else None,
            "pile": [format_card(c) for c in self.pile], "frozen": False, "melds": [],
            "red_threes": [[] for _ in range(self.num_sides)], "removed": [[] for _ in range(self.num_sides)],
            "opened": list(self.opened), "minimum": [0] * self.num_sides, "pending_value": 0,
            "pile_taken_aside": self._pile_aside_view(),
            "retracted_this_turn": self.retracted, "scores": list(self.scores), "asked": False, "permission": None,
            "hand_results": self.hand_results, "winner": self.winner,
            "known_hands": [[format_card(c) for c in sorted(k, key=sort_key)] for k in self.known],
            "settlement": self.settlement(),
        }

    # --------------------------------------------------------- persistence
    def copy(self) -> Game:
        """An independent game in the same position (fast: for search)."""
        g = copy.copy(self)  # immutable members (variant, seed, tuples) are shared
        g.scores = list(self.scores)
        g.hand_results = list(self.hand_results)
        g.history = list(self.history)
        g.deals = list(self.deals)
        g.stock = list(self.stock)
        g.pile = list(self.pile)
        g.hands = [list(h) for h in self.hands]
        g.hand_sizes = list(self.hand_sizes)
        g.melds = [{r: m.copy() for r, m in d.items()} for d in self.melds]
        g.red_threes = [list(r) for r in self.red_threes]
        g.removed = [list(r) for r in self.removed]
        g.opened = list(self.opened)
        g.minimum_extra = list(self.minimum_extra)
        g.penalties = [list(p) for p in self.penalties]
        g.melded_before = list(self.melded_before)
        g.known = [list(k) for k in self.known]
        g.turn_created = set(self.turn_created)
        g.pile_aside = None if self.pile_aside is None else list(self.pile_aside)
        g.unusable = None if self.unusable is None else list(self.unusable)
        return g

    def to_dict(self) -> dict[str, Any]:
        d = self._to_dict()
        return d

    def _to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "variant": self.variant_name,
            "rules_version": self.variant.rules_version,
            "rules": self.variant.non_default_rules(),
            "players": self.num_players,
            "seed": self.seed,
            **({"shuffle": self.shuffle} if self.shuffle != _chance.LEGACY else {}),
            "scores": list(self.scores),
            "hand_results": self.hand_results,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "winner": self.winner,
            "phase": self.phase,
            "reshuffles": self.reshuffles,
            "stock": list(self.stock),
            "pile": list(self.pile),
            "frozen": self.frozen,
            "hands": [self.hand_cards(s) for s in range(self.num_players)],
            "melds": [[[m.rank, list(m.cards)] for m in d.values()] for d in self.melds],
            "red_threes": [list(r) for r in self.red_threes],
            "removed": [list(r) for r in self.removed],
            "opened": list(self.opened),
            "minimum_extra": list(self.minimum_extra),
            "penalties": [[list(p) for p in ps] for ps in self.penalties],
            "melded_before": list(self.melded_before),
            "known": [list(k) for k in self.known],
            "turn": self.turn,
            "return_phase": getattr(self, "return_phase", P_DRAW),
            "drawn": self.drawn,
            "took_pile": self.took_pile,
            "pile_barred": self.pile_barred,
            "asked": self.asked,
            "permission": self.permission,
            "turn_created": sorted(self.turn_created),
            "turn_added_existing": self.turn_added_existing,
            "pending_value": self.pending_value,
            "pile_aside": self.pile_aside,
            "take_snapshot": self.take_snapshot and {**self.take_snapshot, "cards": list(self.take_snapshot["cards"])},
            "unusable": self.unusable,
            "no_discard": self.no_discard,
            "retracted": self.retracted,
            "history": [[s, a.kind, list(a.cards), a.target, list(g)] for s, a, g in self.history],
            "deals": self.deals,
        }

    def _extra_cards(self) -> list[int]:
        """Cards in play outside the stock, the pile, the hands, the melds and the cards laid out (none here)."""
        return []

    def _loaded_melds(self, saved: list[Any]) -> list[dict[int, Any]]:
        """The melds of a saved position, per side (``to_dict``'s ``melds``)."""
        raise NotImplementedError  # each family defines it

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        try:
            if d.get("schema") != SCHEMA_VERSION:
                raise SchemaError(f"saved position has schema {d.get('schema')!r}; this version reads {SCHEMA_VERSION}")
            g = cls(d["variant"], d["players"], d["seed"], d.get("rules") or {},
                    shuffle=d.get("shuffle", _chance.LEGACY), _deal=False)
            g.scores = list(d["scores"])
            g.hand_results = d["hand_results"]
            g.hand_no = d["hand_no"]
            g.dealer = d["dealer"]
            g.winner = d["winner"]
            g.reshuffles = d.get("reshuffles", 0)
            g.stock = list(d["stock"])
            g.pile = list(d["pile"])
            g.frozen = bool(d["frozen"])
            g.hands = []
            for cards in d["hands"]:
                counts = [0] * NUM_CODES
                for c in cards:
                    if not isinstance(c, int) or not 0 <= c < NUM_CODES:
                        raise SchemaError(f"{c!r} is not a card code")
                    counts[c] += 1
                g.hands.append(counts)
            g.hand_sizes = [sum(h) for h in g.hands]
            g.melds = g._loaded_melds(d["melds"])
            g.red_threes = [list(r) for r in d["red_threes"]]
            g.removed = [list(r) for r in d.get("removed") or [[] for _ in range(g.num_sides)]]
            g.opened = list(d["opened"])
            g.minimum_extra = list(d["minimum_extra"])
            g.penalties = [[(str(n), int(p)) for n, p in ps] for ps in d["penalties"]]
            g.melded_before = list(d["melded_before"])
            g.known = [list(k) for k in d.get("known") or [[] for _ in range(g.num_players)]]
            g.turn = d["turn"]
            g.hand_over = False
            g._reset_turn()
            g.phase = d["phase"]
            g.return_phase = d.get("return_phase", P_DRAW)
            g.drawn = d["drawn"]
            g.took_pile = d["took_pile"]
            g.pile_barred = d["pile_barred"]
            g.asked = d["asked"]
            g.permission = d["permission"]
            g.turn_created = set(d["turn_created"])
            g.turn_added_existing = d["turn_added_existing"]
            g.pending_value = d["pending_value"]
            g.pile_aside = d["pile_aside"]
            snap = d["take_snapshot"]
            g.take_snapshot = snap and {**snap, "cards": tuple(snap["cards"])}
            g.unusable = d["unusable"]
            g.no_discard = d["no_discard"]
            g.retracted = bool(d.get("retracted", False))
            g.history = [(s, Action(k, tuple(c), t), tuple(got)) for s, k, c, t, got in d.get("history", [])]
            g.deals = d.get("deals", [])
            g._load_family_state(d)
        except SchemaError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SchemaError(f"saved position is incomplete or malformed: {exc!r}") from exc
        g._validate_loaded()
        return g

    def _load_family_state(self, d: dict[str, Any]) -> None:
        """Restore the state a family adds to a saved position (what only its ``to_dict`` writes: Hand and Foot's
        feet and books, Burraco's pozzetti, Modern American's bonus cards); none here."""

    def _validate_loaded(self) -> None:
        """A loaded position must hold exactly the variant's pack and fit the table."""
        n, sides = self.num_players, self.num_sides
        per_seat: dict[str, Sized] = {"hands": self.hands, "melded_before": self.melded_before, "known": self.known}
        per_side: dict[str, Sized] = {"scores": self.scores, "melds": self.melds, "red_threes": self.red_threes,
                    "removed": self.removed, "opened": self.opened, "minimum_extra": self.minimum_extra,
                    "penalties": self.penalties}
        for name, seq in per_seat.items():
            if len(seq) != n:
                raise SchemaError(f"{name} must have one entry per seat ({n}), not {len(seq)}")
        for name, seq in per_side.items():
            if len(seq) != sides:
                raise SchemaError(f"{name} must have one entry per side ({sides}), not {len(seq)}")
        for hand, known in zip(self.hands, self.known, strict=True):
            if any(not isinstance(c, int) or not 0 <= c < NUM_CODES or known.count(c) > hand[c] for c in known):
                raise SchemaError("'known' names a card that the hand does not hold")
        if not (0 <= self.turn < n and 0 <= self.dealer < n):
            raise SchemaError(f"turn {self.turn} and dealer {self.dealer} must be seats 0..{n - 1}")
        if self.phase not in self.PHASES:
            raise SchemaError(f"unknown phase {self.phase!r}")
        if self.phase == P_ANSWER and self._partners[self.turn] is None:
            raise SchemaError("an 'answer' phase needs a partner")
        held: list[int] = [*self.stock, *self.pile, *(self.pile_aside or [])]
        for h in self.hands:
            if any(k < 0 for k in h):
                raise SchemaError("a hand holds a negative number of some card")
            held.extend(c for c, k in enumerate(h) for _ in range(k))
        held += [c for d in self.melds for m in d.values() for c in m.cards]
        held += [c for r in self.red_threes for c in r] + [c for r in self.removed for c in r]
        held += self._extra_cards()
        have = [0] * NUM_CODES
        for c in held:
            if not isinstance(c, int) or not (8 <= c < 60 or c == JOKER):
                raise SchemaError(f"{c!r} is not a card code")
            have[c] += 1
        want = [0] * NUM_CODES
        for c in self.variant.deck():
            want[c] += 1
        if have != want:
            total, expected = sum(have), sum(want)
            if total != expected:
                raise SchemaError(f"saved position holds {total} cards; {self.variant_name} uses {expected}")
            odd = next(c for c in range(NUM_CODES) if have[c] != want[c])
            raise SchemaError(f"saved position holds {have[odd]} x {format_card(odd)}; the pack has {want[odd]}")
        self._validate_turn_state()

    def _validate_turn_state(self) -> None:
        """The fields of the turn in progress agree with each other and with the piles: what a ``retract`` puts
        back (the pile as it was before the take, from ``take_snapshot``) is exactly what is set aside now, so a
        retract after loading neither creates nor loses a card (issue 17)."""
        def bad(field: str, message: str) -> InconsistentPositionError:
            return InconsistentPositionError(field, message)

        if self.phase == P_DRAW and (self.drawn or self.took_pile or self.pile_aside is not None or self.turn_created):
            raise bad("phase", "a player still to draw has drawn, taken the pile or melded this turn")
        if self.phase == P_PLAY and not self.drawn:
            raise bad("phase", "a player in the play phase has not drawn")
        if self.took_pile and not self.drawn:
            raise bad("took_pile", "the pile was taken but the player has not drawn")
        if self.pile_aside is not None:
            if not self.took_pile:
                raise bad("pile_aside", "cards are set aside from a pile take, but the pile was not taken")
            if not all(isinstance(c, int) and (8 <= c < 60 or c == JOKER) for c in self.pile_aside):
                raise bad("pile_aside", "not a list of card codes")
        self._validate_family_piles()
        self._validate_loaded_melds()
        snap = self.take_snapshot
        if snap is None:
            # without a snapshot a retract takes back only the melds (no pile is restored): no card is created or
            # lost, and sampled worlds (canasta.players.expert) leave the snapshot out
            return
        if not isinstance(snap, dict) or not {"cards", "top", "frozen", "pile", "red_threes"} <= set(snap):
            raise bad("take_snapshot", "needs cards, top, frozen, pile and red_threes")
        codes = [snap["top"], *snap["cards"], *snap["pile"]]
        if not all(isinstance(c, int) and (8 <= c < 60 or c == JOKER) for c in codes):
            raise bad("take_snapshot", "names something that is not a card code")
        if not self.took_pile or self.pile_aside is None:
            return  # a retract no longer restores the pile: the snapshot is not used
        if list(snap["pile"]) != [*self.pile, *self.pile_aside]:
            raise bad("take_snapshot", f"the pile before the take ({len(snap['pile'])} cards under the top card) is "
                                       f"not the pile left ({len(self.pile)}) with the cards set aside "
                                       f"({len(self.pile_aside)}): a retract would create or lose cards")
        side = self._sides[self.turn]
        if not isinstance(snap["red_threes"], int) or not 0 <= snap["red_threes"] <= len(self.red_threes[side]):
            raise bad("take_snapshot", "counts more laid-out red threes than the side has")
        if snap["top"] not in self._retract_cards(side):
            raise bad("take_snapshot", f"the top card taken ({format_card(snap['top'])}) is in no meld made this "
                                       "turn: a retract would take it from the hand")

    def _validate_family_piles(self) -> None:
        """Check the family's own piles of a loaded position (Hand and Foot's feet and knees); none here."""

    def _retract_cards(self, side: int) -> list[int]:
        """The cards on the table a retract would take back into the hand: the melds made this turn."""
        return [c for key in self.turn_created for c in (self.melds[side][key].cards if key in self.melds[side] else ())]

    def _validate_loaded_melds(self) -> None:
        """Every meld on the table is one the rules can build (the check the soak makes of final tables): a set
        meld of the rank it is filed under (``variant.meld_problem``), a meld-id meld of the kind its cards
        arrange into (``variant.arrange_meld``). Moves and checks assume it: a loaded run with a wild card where
        the variant allows none would list additions that ``check()`` refuses."""
        for side, melds in enumerate(self.melds):
            for key, meld in melds.items():
                problem = self._loaded_meld_problem(key, meld)
                if problem:
                    raise InconsistentPositionError("melds", f"side {side}, meld {key} "
                                                             f"({' '.join(format_card(c) for c in meld.cards)}): {problem}")

    def _loaded_meld_problem(self, key: int, meld: Any) -> str | None:
        """Why a loaded meld (filed under ``key``) is not one the rules can build, or None."""
        raise NotImplementedError  # each family defines it

    def to_json(self) -> str:
        import json

        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Game:
        import json

        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SchemaError(f"not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise SchemaError("a saved position is a JSON object")
        return cls.from_dict(data)

    def card_count(self) -> int:
        """Cards in play anywhere (conservation check)."""
        total = len(self.stock) + len(self.pile) + sum(sum(h) for h in self.hands)
        total += sum(m.size for d in self.melds for m in d.values())
        total += sum(len(r) for r in self.removed)
        total += len(self._extra_cards())
        return total + sum(len(r) for r in self.red_threes) + len(self.pile_aside or [])


__all__ = ["P_ANSWER", "P_DRAW", "P_OVER", "P_PLAY", "SCHEMA_VERSION", "WILD_RANK", "Game", "Meld", "_is_wild"]
