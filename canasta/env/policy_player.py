"""A policy over the environments' encoding as a computer player (the arena's and the game's ``Player``).

A *policy* maps what the environments hand an agent, ``(observation float32[obs_size], action_mask
int8[num_actions])``, to an action index (canasta.encoding). :class:`PolicyPlayer` turns one into a player:
``choose(obs, legal)`` encodes the observation dict it is given (``encode_observation``, clipped to
``obs_bounds`` as the environments clip it), masks the legal actions, asks the policy and decodes its index.
So an agent trained in PettingZoo, Gymnasium or OpenSpiel plays where the computer players play:

>>> from canasta.arena import run_arena
>>> run_arena("classic", ["mymod:MyAgent", "basic"], games=2, workers=1, hands=1)

where ``mymod.MyAgent`` is a subclass naming its policy (the arena builds a player from its class and a
seed, ``module.path:ClassName``), e.g. a saved MaskablePPO model (sb3-contrib)::

    class MyAgent(SB3Player):
        model_path = "runs/ppo_classic.zip"

A policy that picks an index the mask does not allow is an error (ValueError), never a silent substitute.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from canasta.encoding import action_mask, describe_index, encode_observation, legal_indices, obs_bounds
from canasta.engine.actions import Action

#: the environment variable naming SB3Player's model file when no path is given
MODEL_VARIABLE = "CANASTA_SB3_MODEL"
#: (observation vector, action mask) -> action index
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


@functools.lru_cache(maxsize=64)
def _bounds(variant: str, players: int, rules_json: str) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    return obs_bounds(variant, players, json.loads(rules_json))


class PolicyPlayer:
    """A player that asks ``policy`` (or a subclass's :meth:`act`) for the index of its move."""

    name = "policy"

    def __init__(self, seed: int | str | None = 0, policy: Policy | None = None) -> None:
        self.seed = seed
        self.policy = policy

    def act(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        """The index to play; subclasses without a ``policy`` override this."""
        if self.policy is None:
            raise NotImplementedError("give PolicyPlayer a policy, or override act()")
        return int(self.policy(observation, mask))

    def choose(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        variant: str = obs["variant"]
        indices = legal_indices(legal, variant)
        low, high = _bounds(variant, obs["players"], json.dumps(obs.get("rules") or {}, sort_keys=True))
        vector = np.clip(encode_observation(obs), low, high)
        index = self.act(vector, action_mask(indices, variant))
        chosen = indices.get(int(index))
        if chosen is None:
            raise ValueError(f"the policy chose index {index} ({describe_index(int(index), variant)}), "
                             f"which the mask does not allow")
        return chosen


@functools.lru_cache(maxsize=8)
def _load_maskable_ppo(path: str) -> Any:
    from sb3_contrib import MaskablePPO  # the extra "train"

    return MaskablePPO.load(path, device="cpu")


class SB3Player(PolicyPlayer):
    """A saved sb3-contrib MaskablePPO model (examples/train_maskable_ppo.py ``--save``) as a player: its
    masked most likely action. The model is ``model_path`` (passed, or set on a subclass: the arena builds
    players from a class and a seed), else the file the environment variable ``CANASTA_SB3_MODEL`` names, so
    ``CANASTA_SB3_MODEL=ppo.zip canasta arena --players canasta.env.policy_player:SB3Player,basic`` needs no
    module of one's own. It is loaded once per process."""

    name = "sb3"
    model_path: ClassVar[str] = ""

    def __init__(self, seed: int | str | None = 0, model_path: str | None = None) -> None:
        super().__init__(seed)
        path = model_path or self.model_path or os.environ.get(MODEL_VARIABLE, "")
        if not path:
            raise ValueError(f"SB3Player needs a model_path (pass it, set it on a subclass, or name the file in "
                             f"the environment variable {MODEL_VARIABLE})")
        self.model = _load_maskable_ppo(path)

    def act(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        action, _ = self.model.predict({"observation": observation, "action_mask": mask},
                                       action_masks=mask.astype(bool), deterministic=True)
        return int(action)
