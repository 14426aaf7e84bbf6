"""Rule citations per variant (issue 17, "make the class of bug impossible").

Every refusal (``IllegalActionError``) that names a text must name one that covers the variant being played:
a Hand and Foot player refused a meld is told Denexa's rule, not Bicycle's. The refusals are collected the
way a referee would meet them: random legal play of each variant through the public API, and at sampled
positions a superset of candidate actions (every discard, takes with pairs of held cards, random melds of one
to four held cards, every held card onto every meld) passed to ``check()``.

In every variant every refusal of a rule must name a covering text (``Variant.RULE_SOURCES`` by the refusal's
rule, appended by ``Variant.cite`` where the message quotes no text); procedural refusals ("draw first", "you do
not hold those cards") need none.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator

import pytest

from canasta import Game
from canasta.engine.actions import ADD, ASK, DISCARD, DRAW, END, MELD, NO, RETRACT, TAKE, YES, Action
from canasta.errors import IllegalActionError
from canasta.notation import parse_action
from canasta.variants import VARIANTS
from tests.helpers import position

#: The texts of shared/rules by the name the engine cites them with.
TEXT_NAMES = re.compile(r"\b(Bicycle|Denexa|Encyclopedia|Fragment|Terms)\b")

_CLASSIC_TEXTS = {"Bicycle", "Denexa", "Encyclopedia", "Fragment", "Terms"}
#: Which texts cover each variant: those with a section on it, and those of the game a section describes it
#: against ('This is regular canasta with two variants', 'Bolivian Canasta is similar to Samba', Triple Play's
#: 'follow the same procedure used in Hand and Foot', which is Denexa's too).
COVERING_TEXTS: dict[str, set[str]] = {
    "classic": _CLASSIC_TEXTS,
    "uruguayan": _CLASSIC_TEXTS,
    "cuban": _CLASSIC_TEXTS,
    "american": {"Terms", "Encyclopedia"},
    "mille": {"Denexa"},
    "burraco": {"Denexa"},
    "samba": {"Denexa", "Encyclopedia"},
    "bolivian": {"Denexa", "Encyclopedia"},
    "brazilian": {"Denexa", "Encyclopedia"},
    "chilean": {"Denexa", "Encyclopedia"},
    "italian": {"Denexa", "Encyclopedia"},
    "hand-and-foot": {"Denexa", "Encyclopedia"},
    "triple-play": {"Denexa"},
}


def test_every_variant_has_its_covering_texts() -> None:
    assert set(COVERING_TEXTS) == set(VARIANTS)


def _candidates(game: Game, rng: random.Random) -> Iterator[Action]:
    held = game.hand_cards(game.actor)
    for kind in (DRAW, TAKE, ASK, YES, NO, RETRACT, END):
        yield Action(kind)
    kinds = sorted(set(held))
    for code in kinds:
        yield Action(DISCARD, (code,))
    for pair in itertools.combinations(kinds, 2):
        yield Action(TAKE, pair)
    for size in (1, 2, 3, 4):
        for _ in range(8 if len(held) >= size else 0):
            yield Action(MELD, tuple(rng.sample(held, size)))
    targets = set(range(1, 15)) | {t for side in game.melds for t in side}
    for target in sorted(targets):
        for code in kinds:
            yield Action(ADD, (code,), target)


def _refusals(variant: str, seed: int, steps: int) -> Iterator[IllegalActionError]:
    players = 4 if 4 in VARIANTS[variant].player_counts else 2
    game = Game(variant, players, seed)
    rng = random.Random(seed)
    for step in range(steps):
        if game.is_over:
            return
        if step % 6 == 0:
            for action in _candidates(game, rng):
                try:
                    game.check(action)
                except IllegalActionError as refusal:
                    yield refusal
        game.apply(rng.choice(game.legal_actions()))


#: Procedural refusals: the order of a turn, the shape of an action, what the player holds, the engine's own
#: bounds (one retract a turn). They enforce no sentence of a text, so they need not name one; every other
#: refusal, in every variant, names a text that covers the variant (``Variant.RULE_SOURCES``).
PROCEDURAL = {"already-drawn", "answer-pending", "ask-timing", "draw-first", "end-timing", "no-such-meld",
              "nothing-to-answer", "nothing-to-retract", "pile-barred", "retracted-this-turn", "pile-empty",
              "stock-empty", "unknown-action", "no-partner", "not-in-hand", "no-cards", "no-cards-expected",
              "no-target-expected", "game-over", "discard-one", "not-an-action"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_refusals_cite_a_text_that_covers_the_variant(variant: str) -> None:
    """Issue 17: 'Every refusal must cite the text of the variant being played.' Every refusal met in random
    play of the variant that is not procedural names a text, and each text named is one of its covering texts."""
    wrong: dict[str, str] = {}
    uncited: dict[str, str] = {}
    met = 0
    rules_met: set[str] = set()
    for seed in (1, 2):
        for refusal in _refusals(variant, seed=seed, steps=240):
            met += 1
            rules_met.add(refusal.rule)
            names = set(TEXT_NAMES.findall(refusal.message))
            for name in names - COVERING_TEXTS[variant]:
                wrong.setdefault(f"{name} ({refusal.rule})", refusal.message)
            if not names and refusal.rule not in PROCEDURAL:
                uncited.setdefault(refusal.rule, refusal.message)
    assert not wrong, f"{variant}: refusals cite texts that do not cover it: {wrong}"
    assert not uncited, f"{variant}: refusals of a rule that name no text: {uncited}"
    assert met > 100, f"{variant}: only {met} refusals met (the sample is too small to test anything)"
    assert rules_met - PROCEDURAL, f"{variant}: no refusal of a rule met, only procedural ones"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_rule_source_names_a_covering_text(variant: str) -> None:
    """Each entry of the variant's RULE_SOURCES (also those the soak did not reach) names a covering text."""
    cls = VARIANTS[variant]
    for rule, source in cls.RULE_SOURCES.items():
        names = set(TEXT_NAMES.findall(source))
        assert names, f"{variant}: the source of {rule!r} names no text: {source!r}"
        assert names <= COVERING_TEXTS[variant], f"{variant}: {rule!r} cites {names - COVERING_TEXTS[variant]}"


@pytest.mark.parametrize("variant", ["hand-and-foot", "triple-play"])
def test_too_many_wild_cards_cites_denexa(variant: str) -> None:
    """Denexa 'Hand and Foot': 'A meld can contain no more than one wild card in a meld of three, four, or five
    cards and no more than two in a meld of six or seven' (Triple Play: 'A meld can contain only one wild card
    in a meld of three to five cards'). Issue 17, defect 10: the refusal quoted Bicycle's limit of three."""
    g = position(variant=variant, hands={0: "Qh Qc 2s 2d 9c"}, phase="play", melds={0: ["Ks Kh Kd"]},
                 feet=[[] for _ in range(4)], in_foot=[True] * 4, books=[[], []],
                 knees=[[] for _ in range(4)], in_knee=[True] * 4, knee_side=[True, True], rest="stock")
    with pytest.raises(IllegalActionError) as info:
        g.check(parse_action("meld Qh Qc 2s 2d"))
    assert info.value.rule == "wild-limit"
    assert "Denexa" in info.value.message and "Bicycle" not in info.value.message
    assert "no more than" in info.value.message or "only one wild card" in info.value.message
