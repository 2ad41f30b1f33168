"""JSON log lines for the worker: one object a line, easy for any log platform to index.

A record's ``extra={"answer": {...}}`` or ``extra={"feedback": {...}}`` is merged into its
line (the one line per answer and per vote of :mod:`bot.service`). Secrets never get here:
they are ``SecretStr`` everywhere, and the HTTP clients' request lines (whose URLs may carry a
key) are not logged below WARNING.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from typing import Any

__all__ = ["MERGED", "QUIET", "JsonFormatter", "configure_json_logging"]

MERGED = ("answer", "feedback")
"""The ``extra`` keys whose dict becomes fields of the line itself."""


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in MERGED:
            fields = getattr(record, key, None)
            if isinstance(fields, dict):
                line.update(fields)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


QUIET = ("aiohttp.access", "httpx")
"""Loggers every worker quiets below WARNING: a request line may carry a key in its URL."""


def configure_json_logging(level: str, *, quiet: Iterable[str] = ()) -> None:
    """One JSON object a line on stderr; ``quiet`` names the platforms' own noisy loggers
    (their registry entries list them), kept below WARNING like :data:`QUIET`."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in (*QUIET, *quiet):
        logging.getLogger(noisy).setLevel(max(logging.getLogger(noisy).level, logging.WARNING))
