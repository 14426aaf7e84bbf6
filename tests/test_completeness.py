"""legal_actions() is complete, not only sound: every action check() accepts is listed, up to the
folding documented in docs/architecture.md ("What legal_actions() folds") and implemented by
canasta.completeness (issue 17, defect 3 and "Completeness, not only soundness")."""

from __future__ import annotations

import pytest

from canasta.completeness import card_class, completeness_misses, fold_key, is_covered
from canasta.notation import format_action, parse_action
from tests.helpers import act, legal_texts, position


def _assert_listed(game, move: str) -> None:  # type: ignore[no-untyped-def]
    action = parse_action(move)
    game.check(action)  # the rules accept it ...
    assert is_covered(game, action), f"{move} passes check() but legal_actions() lists only {sorted(legal_texts(game))}"


def test_american_pure_deuces_meld_start_listed_beside_a_joker() -> None:
    """Issue 17: 'American ... hand 2c 2d 2h JK ...: legal_actions() lists meld JK 2h 2d only, yet
    check("meld 2c 2d 2h") passes': the pure-deuces canasta (3000) must be reachable holding a joker."""
    game = position(variant="american", hands={0: "2c 2d 2h JK 5c 6c 8c 10c Jc Qc 4d 4h 5d 6d"},
                    melds={0: ["Ks Kh Kd"]}, phase="play")
    _assert_listed(game, "meld 2c 2d 2h")
    _assert_listed(game, "meld JK 2h 2d")
    assert completeness_misses(game)[1] == []


@pytest.mark.parametrize("variant", ["american", "classic"])
def test_three_jokers_meld_start_listed(variant: str) -> None:
    """Issue 17: 'Same with three jokers, and in Classic with wild_canastas=true'."""
    rules = {"wild_canastas": True} if variant == "classic" else {}
    game = position(variant=variant, rules=rules, hands={0: "JK JK JK 2c 2d 2h 5c 6c 8c 10c Jc Qc"},
                    melds={0: ["Ks Kh Kd"]}, phase="play")
    for move in ("meld JK JK JK", "meld JK JK 2c", "meld JK 2c 2d", "meld 2c 2d 2h"):
        _assert_listed(game, move)
    assert completeness_misses(game)[1] == []


def test_classic_last_black_three_added_after_melding_three() -> None:
    """Issue 17: 'Classic: one canasta on the side, hand 3s 3c 3s 3c: after meld 3s 3c 3s, only
    discard 3c is listed, while add 3 3c passes check()'."""
    game = position(hands={0: "3s 3c 3s 3c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    act(game, "meld 3s 3c 3s")
    _assert_listed(game, "add 3 3c")
    assert completeness_misses(game)[1] == []


def test_fold_keeps_what_the_rules_tell_apart() -> None:
    """The folding ignores only suits the variant ignores: a joker is not a 2, a red three is not a black
    three, Mille's Q of spades is not another queen; Samba's escaleras keep suits."""
    classic = position(hands={0: "5s 5h"})
    assert card_class(classic, parse_action("discard 5s").cards[0]) == card_class(classic, parse_action("discard 5h").cards[0])
    assert fold_key(classic, parse_action("meld JK 2c 2d")) != fold_key(classic, parse_action("meld 2c 2d 2h"))
    assert fold_key(classic, parse_action("discard 3h")) != fold_key(classic, parse_action("discard 3s"))
    mille = position(players=2, variant="mille", hands={0: "Qs Qh"})
    assert fold_key(mille, parse_action("discard Qs")) != fold_key(mille, parse_action("discard Qh"))
    samba = position(variant="samba", hands={0: "5s 5h"})
    assert fold_key(samba, parse_action("discard 5s")) != fold_key(samba, parse_action("discard 5h"))
    assert fold_key(samba, parse_action("discard 2s")) == fold_key(samba, parse_action("discard 2h"))
    assert format_action(parse_action("meld 2c 2d 2h"))  # (the notation reads the moves above)
