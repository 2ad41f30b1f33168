"""JSON log lines for the worker: one object a line, easy for any log platform to index.

A record's ``extra={"answer": {...}}`` is merged into its line (the one-line-per-answer
record of :mod:`bot.service`). Secrets never get here: they are ``SecretStr`` everywhere.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

__all__ = ["JsonFormatter", "configure_json_logging"]


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        answer = getattr(record, "answer", None)
        if isinstance(answer, dict):
            line.update(answer)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_json_logging(level: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("discord.gateway", "discord.http", "slack_bolt", "slack_sdk", "aiohttp.access"):
        logging.getLogger(noisy).setLevel(max(logging.getLogger(noisy).level, logging.WARNING))
