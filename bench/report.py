"""The shape every benchmark reports in, so ``python -m bench`` can print one table and write
``bench/results.json``.

Machines are noisy, so a result is either a ratio against a baseline measured in the same run
or a count that does not depend on the machine's speed (calls, 429s).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Result"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """One measured number, its target and (where there is one) its same-run baseline."""

    metric: str
    """What was measured, as the issue names it: ``first visible text``."""
    subject: str
    """Where: ``discord``, ``slack``, ``formatter``, ``worker``."""
    value: float
    unit: str
    """``ms``, ``x``, ``calls``, ``429s``, ``KiB``, ``s``, ``answers``."""
    target: str
    """The target as people read it: ``≤ 50 ms``."""
    met: bool
    baseline: float | None = None
    baseline_name: str | None = None
    """What the baseline is: ``slack_sdk chat_stream (buffer 256)``."""
    detail: dict[str, Any] = field(default_factory=dict)
    """Anything behind the number (per-run values, curve points) for results.json."""

    @property
    def ratio(self) -> float | None:
        """The value against the baseline, when there is a baseline to divide by."""
        if self.baseline in (None, 0):
            return None
        return self.value / self.baseline

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio}
