"""examples/train_maskable_ppo.py: MaskablePPO trains on the Gymnasium environment and is evaluated (a few
hundred steps: the example runs, not how well it learns; docs/research.md reports a full run)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (extra 'train': pip install -e '.[train]')")
pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_maskable_ppo.py"


def test_a_few_hundred_steps_of_maskable_ppo(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.train(steps=256, eval_hands=3, n_steps=128, batch_size=64, seed=1, progress=True)
    progress = capsys.readouterr().err.splitlines()  # a line after each rollout of 128 steps
    assert [line.split()[0] for line in progress] == ["128/256", "256/256"]
    assert result["model"].num_timesteps >= 256
    assert result["agent_steps_per_second"] > 0
    for key in ("before", "after"):
        figures = result[key]
        assert figures["hands"] == 3 and 0.0 <= figures["low"] <= figures["win_rate"] <= figures["high"] <= 1.0
    assert example.wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
