"""Checks a Telegram payload (a Bot API method's parameters, its name under ``"method"``) as
the simulator checks a request: against ``api.json`` (the method, its fields, their types and
documented limits), then as Telegram reads it (the HTML parsed, 4,096 characters after
parsing; a rich message's tags and limits), and against citebot's promises: no mention Telegram
would find, no link but http and https, and a card part whose classic form (the sink's fallback)
Telegram takes too. Returns problems, never raises."""

from __future__ import annotations

from typing import Any

from bot.render.ports import Payload
from integrations.telegram.cards import classic_html, parts_of
from tests.sim.telegram.params import Params
from tests.sim.telegram.rich import RichRefused, read_rich
from tests.sim.telegram.spec import method as spec_method
from tests.sim.telegram.text import TextRefused, format_text
from tests.sim.telegram.validate import check_request

__all__ = ["pings", "validate_telegram_payload"]

TEXT_MAX = 4096


def validate_telegram_payload(payload: Payload) -> list[str]:
    name = str(payload.get("method", ""))
    spec = spec_method(name)
    if spec is None:
        return [f"no Bot API method {name!r}"]
    # Where it goes is the sink's to say (docs/commands.md: chat_id may be left out): a chat's id
    # stands in for it.
    params = {"chat_id": -1001, **{k: v for k, v in payload.items() if k != "method"}}
    problems = list(check_request(spec, Params(values=params, encoding="json")).problems)
    if "text" in params:
        problems += _text(str(params["text"]), params.get("parse_mode"), params.get("entities"))
    rich = params.get("rich_message")
    if isinstance(rich, dict):
        try:
            view = read_rich(rich)
        except RichRefused as refused:
            problems.append(str(refused))
        else:
            problems += [f"link to {link[:60]!r}" for link in view.links if not _web(link)]
        if not rich.get("skip_entity_detection"):
            problems.append("a rich message without skip_entity_detection")
        for part in parts_of(payload):
            problems += [f"classic form: {p}" for p in _text(classic_html(part), "HTML", None)]
    return problems


def _text(text: str, parse_mode: Any, entities: Any) -> list[str]:
    try:
        formatted = format_text(text, parse_mode, entities, limit=TEXT_MAX)
    except TextRefused as refused:
        return [str(refused)]
    problems = [f"pings {word}" for word in pings(formatted.text, formatted.entities)]
    for entity in formatted.entities:
        if entity["type"] == "text_link" and not _web(entity["url"]):
            problems.append(f"link to {entity['url'][:60]!r}")
    return problems


def pings(text: str, entities: list[dict[str, Any]]) -> list[str]:
    """The mentions Telegram found in a parsed text: each would notify whoever it names."""
    units = text.encode("utf-16-le")
    return [
        units[e["offset"] * 2 : (e["offset"] + e["length"]) * 2].decode("utf-16-le")
        for e in entities
        if e["type"] in ("mention", "text_mention")
    ]


def _web(url: str) -> bool:
    return url.lower().startswith(("http://", "https://"))
