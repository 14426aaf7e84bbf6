"""Shared test configuration: Hypothesis profiles sized for two shared cores."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# CANASTA_HYPOTHESIS=thorough runs the property tests with more examples.
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=500,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("CANASTA_HYPOTHESIS", "default"))
