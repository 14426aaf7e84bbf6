"""Issue 21, defect 2: "`meld` then `retract` repeats forever". Bicycle 'Insufficient Melds': "A player
may also retract all cards in the meld. The partnership is then penalized during the deal by an
increase of ten points in the minimum count requirement." The retraction is a correction with a
penalty, once a turn, not a licence to loop: after it the turn has no new initial meld."""

from __future__ import annotations

import pytest

from canasta.engine.game import Game
from canasta.soak import run_soak
from tests.helpers import act, assert_illegal, legal_texts, position


def test_bicycle_retract_all_cards_in_the_meld_once_a_turn_then_no_new_initial_meld() -> None:
    """'A player may also retract all cards in the meld. The partnership is then penalized ... by an
    increase of ten points in the minimum count requirement': once, then the turn goes on to its discard."""
    game = position(hands={0: "5s 5h 5d 6s 6h 6d 9c Kc"}, phase="play")
    act(game, "meld 5s 5h 5d")
    assert "retract" in legal_texts(game)
    act(game, "retract")
    assert game.minimum_extra[0] == 10
    assert not any(t.startswith("meld") for t in legal_texts(game)), legal_texts(game)
    assert_illegal(game, "meld 5s 5h 5d", "retracted-this-turn")
    assert_illegal(game, "meld 6s 6h 6d", "retracted-this-turn")
    act(game, "discard Kc")  # the next turn starts afresh
    assert not game.retracted


def test_retracted_flag_survives_save_and_load() -> None:
    game = position(hands={0: "5s 5h 5d 9c Kc"}, phase="play")
    act(game, "meld 5s 5h 5d", "retract")
    loaded = Game.from_json(game.to_json())
    assert loaded.retracted
    assert legal_texts(loaded) == legal_texts(game)


@pytest.mark.parametrize("variant", ["samba", "american"])
def test_retract_once_a_turn_in_other_variants(variant: str) -> None:
    """The same bound on Classic's turn in the Samba family and on Modern American's extended rules."""
    game = Game(variant, 4, 3)
    seen_retract = False
    for _ in range(3000):
        if game.is_over:
            break
        legal = game.legal_actions()
        retract = next((a for a in legal if a.kind == "retract"), None)
        if retract is not None:
            game.apply(retract)
            seen_retract = True
            assert not any(a.kind == "meld" and len(a.cards) > 1 for a in game.legal_actions())
            break
        melds = [a for a in legal if a.kind == "meld"]
        game.apply(melds[0] if melds else legal[-1])
    assert seen_retract


def test_soak_asserts_the_retract_bound_and_a_bound_on_actions_per_hand() -> None:
    """The soak asserts at most one retract a turn and a hand within its bound of actions."""
    result = run_soak(variant="classic", players=4, hands=3, seed=5, check_listed=False)
    assert result["failure_count"] == 0
    assert result["max_retracts_per_turn"] <= 1
    assert 0 < result["max_hand_actions_seen"] <= result["hand_action_bound"]
