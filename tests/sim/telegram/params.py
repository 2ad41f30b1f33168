"""A Bot API request's parameters, however they came: query string, JSON body,
``application/x-www-form-urlencoded`` or ``multipart/form-data``.

Telegram's server takes all four and merges them (tdlib/telegram-bot-api ``HttpConnection``);
aiogram sends every request as form data, strings as they are and anything else JSON-encoded
(``"123"``, ``"true"``, ``'{"inline_keyboard": ...}'``), and multipart when a file is attached.
What is kept is the raw value (a form's string, or a JSON body's value): the validator decodes it
against the field's declared types (:mod:`tests.sim.telegram.validate`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import BodyPartReader, web

__all__ = ["BadBody", "Params", "read_params"]

Encoding = Literal["none", "query", "json", "form", "multipart"]


class BadBody(Exception):
    """A body that cannot be read as any of the four forms."""


@dataclass
class Params:
    values: dict[str, Any]
    """Raw values by name: ``str`` from a form or the query string, any JSON value from a JSON
    body."""
    files: dict[str, bytes] = field(default_factory=dict)
    """Uploaded file parts by their field name (``attach://name`` refers to them)."""
    encoding: Encoding = "none"

    @property
    def from_form(self) -> bool:
        """Whether scalar values arrived as strings (anything but a JSON body)."""
        return self.encoding != "json"


async def read_params(request: web.Request) -> Params:
    values: dict[str, Any] = dict(request.query)
    encoding: Encoding = "query" if values else "none"
    files: dict[str, bytes] = {}
    kind = request.content_type
    if kind == "application/json":
        raw = await request.read()
        if raw.strip():
            try:
                body = json.loads(raw)
            except ValueError as error:
                raise BadBody(f"can't parse JSON body: {error}") from error
            if not isinstance(body, dict):
                raise BadBody("the JSON body must be an object")
            values.update(body)
            encoding = "json"
    elif kind == "multipart/form-data":
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader) or part.name is None:
                continue
            if part.filename is not None:
                files[part.name] = await part.read()
            else:
                values[part.name] = await part.text()
        encoding = "multipart"
    elif kind == "application/x-www-form-urlencoded":
        form = await request.post()
        values.update({k: v for k, v in form.items() if isinstance(v, str)})
        encoding = "form"
    return Params(values=values, files=files, encoding=encoding)
