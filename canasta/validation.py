"""Is this a position the real game can reach? Checks a :class:`~canasta.engine.game.Game` against the
invariants that seeded random play keeps (``canasta soak`` checks the same ones along games).

Used on positions that were not reached by play: the OpenSpiel game's ``resample_from_infostate``
and the computer players' sampled worlds (:mod:`canasta.players.worlds`), which deal hidden cards
at random and must never deal a hand the rules could not have left there.

:func:`position_problems` lists what is wrong (empty: the position passes);
:func:`validate_position` raises :class:`InvalidPositionError` with that list.

Checked:

* cards: every card of the pack is somewhere exactly once (per card code, not only in total);
* sizes: each seat's ``hand_sizes`` is the number of cards in its hand, no count is negative,
  and the cards shown as known to be in a hand (``known_hands``) are in it;
* threes: no hand holds a card the rules lay out as soon as it comes into a hand (red threes
  in the Classic family and in Samba's; in Modern American, more threes than a seat may keep:
  one, any number with the table rule ``threes_optional``);
* phase: a phase of the engine (``pass`` only in Hand and Foot), the actor a seat of the table,
  and a position that is not over has at least one legal action.
"""

from __future__ import annotations

from canasta.cards import BLACK_THREE_CODES, NUM_CODES, RED_THREE_CODES
from canasta.engine.american import AmericanGame
from canasta.engine.american_table import threes_kept
from canasta.engine.game import P_OVER, Game
from canasta.engine.idmelds import MeldIdGame
from canasta.engine.idturn import SambaGame
from canasta.errors import CanastaError

#: codes of the threes of both colours
THREE_CODES = tuple(sorted(BLACK_THREE_CODES + RED_THREE_CODES))


class InvalidPositionError(CanastaError):
    """A position the real game cannot reach; ``problems`` lists why."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def card_codes(game: Game) -> list[int]:
    """The number of cards of each code anywhere in the position (hands, stock, pile, table, piles aside)."""
    counts = [0] * NUM_CODES
    cards: list[int] = [*game.stock, *game.pile, *(game.pile_aside or [])]
    for side in game.melds:
        for meld in side.values():
            cards.extend(meld.cards)
    for group in (*game.red_threes, *game.removed):
        cards.extend(group)
    # the pozzetti (Burraco), the bonus cards (Modern American), the feet, knees, books and passed piles (Hand and Foot)
    cards.extend(game._extra_cards())
    for c in cards:
        counts[c] += 1
    for hand in game.hands:
        for c in range(NUM_CODES):
            counts[c] += hand[c]
    return counts


def never_held(game: Game) -> tuple[int, ...]:
    """Codes no hand ever holds in a live position: laid out (and replaced) as soon as they come into it."""
    if isinstance(game, AmericanGame):
        return ()  # Modern American: a count per side, checked by held_threes_allowed
    if isinstance(game, SambaGame):
        return RED_THREE_CODES  # Samba's turn is Classic's
    if isinstance(game, MeldIdGame):
        return ()  # Burraco has no red-three rule
    return tuple(c for c in range(NUM_CODES) if game._laid_out[c])


def held_threes_allowed(game: AmericanGame, seat: int) -> int:
    """Modern American: how many threes ``seat`` may hold now. The engine keeps one while the side has not
    melded (``threes_kept``); once the partner melds, the seat lays its three out only at its own next
    turn, so one may still be held until then."""
    return max(1, threes_kept(game, game._sides[seat]))


def position_problems(game: Game) -> list[str]:
    """What makes ``game`` a position the real game cannot reach (empty: none found)."""
    problems: list[str] = []
    deck = [0] * NUM_CODES
    for c in game.variant.deck():
        deck[c] += 1
    held = card_codes(game)
    wrong = [c for c in range(NUM_CODES) if held[c] != deck[c]]
    if wrong:
        problems.append("cards: " + ", ".join(f"code {c} {held[c]} in play, {deck[c]} in the pack" for c in wrong))
    if len(game.hands) != game.num_players or len(game.hand_sizes) != game.num_players:
        problems.append(f"sizes: {len(game.hands)} hands for {game.num_players} players")
        return problems
    for s, hand in enumerate(game.hands):
        if any(k < 0 for k in hand):
            problems.append(f"sizes: seat {s} holds a negative count")
        if sum(hand) != game.hand_sizes[s]:
            problems.append(f"sizes: seat {s} holds {sum(hand)} cards, its hand size says {game.hand_sizes[s]}")
        known = game.known[s]
        if any(known.count(c) > hand[c] for c in known):
            problems.append(f"sizes: seat {s} is shown to hold {known} but does not")
    live = game.phase != P_OVER and not game.is_over
    if live:
        bad = never_held(game)
        for s, hand in enumerate(game.hands):
            if any(hand[c] for c in bad):
                problems.append(f"threes: seat {s} holds a card the rules lay out ({[c for c in bad if hand[c]]})")
            if isinstance(game, AmericanGame):
                threes = sum(hand[c] for c in THREE_CODES)
                allowed = held_threes_allowed(game, s)
                if threes > allowed:
                    problems.append(f"threes: seat {s} holds {threes} threes, may keep {allowed}")
    if game.phase not in game.PHASES:
        problems.append(f"phase: {game.phase!r} is not a phase of {game.variant_name}")
    elif live:
        try:
            actor = game.actor
            if not 0 <= actor < game.num_players:
                problems.append(f"phase: seat {actor} to act at a table of {game.num_players}")
            elif not game.legal_actions():
                problems.append(f"phase: {game.phase!r}, seat {actor} to act, no legal action")
        except (CanastaError, ValueError, KeyError, IndexError, AssertionError) as exc:
            problems.append(f"phase: the legal actions cannot be listed ({type(exc).__name__}: {exc})")
    return problems


def validate_position(game: Game) -> None:
    """Raise :class:`InvalidPositionError` unless ``game`` passes :func:`position_problems`."""
    problems = position_problems(game)
    if problems:
        raise InvalidPositionError(problems)
