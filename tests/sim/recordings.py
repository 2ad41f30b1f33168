"""Real provider traffic, recorded by others, and what a correct answer from each holds.

Each recording in ``tests/fixtures/providers/<provider>/`` is a reply body as the provider sent
it (``<name>.sse`` for a stream, ``<name>.json`` for a whole completion) with a sidecar,
``<name>.expected.json``: its provenance, the answer text and citations the client must yield,
and (``renders``) what a correct rendering shows. ``RECORDINGS_DIR`` points the replay at
another folder of the same shape (the recordings kept aside as an unseen check).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.sim.upstream import Recorded

__all__ = ["ROOT", "Recording", "recordings"]

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "providers"
_MEDIA_TYPES = {".sse": "text/event-stream", ".json": "application/json"}


@dataclass(frozen=True)
class Recording:
    name: str
    """``<provider>/<name>``, the test id."""
    reply: Recorded
    expected: dict[str, Any]


def recordings(root: Path | None = None) -> list[Recording]:
    """Every recording under ``root`` (by default ``RECORDINGS_DIR``, else the corpus)."""
    root = root or Path(os.environ.get("RECORDINGS_DIR") or ROOT)
    found = []
    for sidecar in sorted(root.glob("*/*.expected.json")):
        stem = sidecar.name.removesuffix(".expected.json")
        bodies = [sidecar.with_name(stem + suffix) for suffix in _MEDIA_TYPES]
        (body,) = [path for path in bodies if path.exists()]
        found.append(
            Recording(
                name=f"{sidecar.parent.name}/{stem}",
                reply=Recorded(body.read_bytes(), _MEDIA_TYPES[body.suffix]),
                expected=json.loads(sidecar.read_text(encoding="utf-8")),
            )
        )
    return found
