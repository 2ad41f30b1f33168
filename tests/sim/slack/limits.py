"""Slack's message limits, checked the way the Web API refuses a message.

Every block is first parsed and validated by slack_sdk's Block Kit models (``Block.parse`` and
``validate_json``: the field's own library, which knows every block type and most limits), then
against the documented limits those models leave out (numbers from Slack's documentation,
docs/platform-spec.md, and the observed ``msg_too_long`` at 4000). Markdown goes through
:mod:`tests.sim.slack.markdown` (what the markdown block documents as unsupported). Each check
returns ``None`` or ``(error_code, detail)``; the detail goes to ``response_metadata.messages``
like Slack's ``invalid_blocks`` answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.blocks import Block

from tests.sim.slack.markdown import unsupported

__all__ = ["Refusal", "block_problem", "check_blocks", "check_markdown", "check_message"]

TEXT_MAX = 4000
MARKDOWN_MAX = 12000
BLOCKS_MAX = 50
ATTACHMENTS_MAX = 100
SECTION_TEXT_MAX = 3000
SECTION_FIELDS_MAX = 10
SECTION_FIELD_MAX = 2000
HEADER_MAX = 150
CONTEXT_ELEMENTS_MAX = 10
ACTIONS_ELEMENTS_MAX = 25
CONTEXT_ACTIONS_ELEMENTS_MAX = 5
BUTTON_TEXT_MAX = 75
BUTTON_VALUE_MAX = 2000
BUTTON_URL_MAX = 3000
BLOCK_ID_MAX = 255
ACTION_ID_MAX = 255

Refusal = tuple[str, str]


def check_markdown(markdown: object, *, partial: bool = False) -> Refusal | None:
    """``partial``: a stream so far, judged on its finished lines only (a ``***`` that ends a
    chunk may open ``***bold***`` in the next)."""
    if not isinstance(markdown, str):
        return ("invalid_arguments", "markdown_text must be a string")
    if len(markdown) > MARKDOWN_MAX:
        return ("msg_too_long", f"markdown_text is {len(markdown)} > {MARKDOWN_MAX}")
    finished = markdown[: markdown.rfind("\n") + 1] if partial else markdown
    if problem := unsupported(finished):
        return ("invalid_blocks", f"markdown does not support {problem}")
    return None


def check_message(args: Mapping[str, Any], *, require_content: bool = True) -> Refusal | None:
    """The content rules shared by chat.postMessage, chat.update and chat.postEphemeral."""
    text, blocks = args.get("text"), args.get("blocks")
    markdown, attachments = args.get("markdown_text"), args.get("attachments")
    if markdown is not None and (text is not None or blocks is not None):
        return ("invalid_arguments", "markdown_text cannot be used with text or blocks")
    if markdown is not None:
        return check_markdown(markdown)
    if require_content and not text and not blocks and not attachments:
        return ("no_text", "text, blocks, attachments or markdown_text is required")
    if text is not None and len(str(text)) > TEXT_MAX:
        return ("msg_too_long", f"text is {len(str(text))} > {TEXT_MAX}")
    if attachments is not None:
        if not isinstance(attachments, list):
            return ("invalid_attachments", "attachments must be an array")
        if len(attachments) > ATTACHMENTS_MAX:
            return ("too_many_attachments", f"{len(attachments)} > {ATTACHMENTS_MAX}")
    if blocks is not None:
        return check_blocks(blocks)
    return None


def _plain(obj: object, where: str, limit: int, *, kinds: tuple[str, ...]) -> str | None:
    if not isinstance(obj, Mapping) or obj.get("type") not in kinds:
        return f"{where} must be a text object of type {'/'.join(kinds)}"
    text = obj.get("text")
    if not isinstance(text, str) or not text:
        return f"{where}.text must be a non-empty string"
    if len(text) > limit:
        return f"{where}.text must be less than {limit + 1} characters"
    return None


def _button(element: Mapping[str, Any], where: str) -> str | None:
    problem = _plain(element.get("text"), f"{where}/text", BUTTON_TEXT_MAX, kinds=("plain_text",))
    if problem:
        return problem
    value, url = element.get("value"), element.get("url")
    if value is not None and len(str(value)) > BUTTON_VALUE_MAX:
        return f"{where}/value must be less than {BUTTON_VALUE_MAX + 1} characters"
    if url is not None and len(str(url)) > BUTTON_URL_MAX:
        return f"{where}/url must be less than {BUTTON_URL_MAX + 1} characters"
    if len(str(element.get("action_id", ""))) > ACTION_ID_MAX:
        return f"{where}/action_id too long"
    return None


def _feedback(element: Mapping[str, Any], where: str) -> str | None:
    for side in ("positive_button", "negative_button"):
        button = element.get(side)
        if not isinstance(button, Mapping):
            return f"{where}/{side} is required"
        problem = _plain(
            button.get("text"), f"{where}/{side}/text", BUTTON_TEXT_MAX, kinds=("plain_text",)
        )
        if problem:
            return problem
        if not isinstance(button.get("value"), str) or len(button["value"]) > BUTTON_VALUE_MAX:
            return f"{where}/{side}/value must be a string of at most {BUTTON_VALUE_MAX}"
    return None


def _section(block: Mapping[str, Any], where: str) -> str | None:
    text, fields = block.get("text"), block.get("fields")
    if text is None and not fields:
        return f"{where} must have text or fields"
    if text is not None:
        problem = _plain(text, f"{where}/text", SECTION_TEXT_MAX, kinds=("mrkdwn", "plain_text"))
        if problem:
            return problem
    if fields is not None:
        if len(fields) > SECTION_FIELDS_MAX:
            return f"{where}/fields must provide no more than {SECTION_FIELDS_MAX} items"
        for j, field in enumerate(fields):
            problem = _plain(
                field, f"{where}/fields/{j}", SECTION_FIELD_MAX, kinds=("mrkdwn", "plain_text")
            )
            if problem:
                return problem
    accessory = block.get("accessory")
    if isinstance(accessory, Mapping) and accessory.get("type") == "button":
        return _button(accessory, f"{where}/accessory")
    return None


def _elements(block: Mapping[str, Any], where: str, limit: int) -> str | None:
    elements = block.get("elements")
    if not isinstance(elements, list) or not elements:
        return f"{where}/elements must be a non-empty array"
    if len(elements) > limit:
        return f"{where}/elements must provide no more than {limit} items"
    for j, element in enumerate(elements):
        kind = element.get("type") if isinstance(element, Mapping) else None
        problem = None
        if kind == "button":
            problem = _button(element, f"{where}/elements/{j}")
        elif kind == "feedback_buttons":
            problem = _feedback(element, f"{where}/elements/{j}")
        elif kind in ("mrkdwn", "plain_text"):
            problem = _plain(
                element, f"{where}/elements/{j}", SECTION_TEXT_MAX, kinds=("mrkdwn", "plain_text")
            )
        if problem:
            return problem
    return None


def _sdk(block: Mapping[str, Any], where: str) -> str | None:
    """What slack_sdk's model of the block refuses (unknown types parse to ``None``)."""
    try:
        parsed = Block.parse(dict(block))
        if parsed is None:
            return f"{where}/type {block.get('type')!r} is not a known block type"
        parsed.validate_json()
    except (SlackObjectFormationError, TypeError, ValueError, AttributeError, KeyError) as error:
        return f"{where}: {error}"
    return None


def _block(block: object, where: str) -> tuple[str | None, int]:
    """The problem with one block, and the markdown characters it spends."""
    if not isinstance(block, Mapping):
        return f"{where} must be an object", 0
    if problem := _sdk(block, where):
        return problem, 0
    kind = block.get("type")
    if len(str(block.get("block_id", ""))) > BLOCK_ID_MAX:
        return f"{where}/block_id must be less than {BLOCK_ID_MAX + 1} characters", 0
    if kind == "section":
        return _section(block, where), 0
    if kind == "header":
        return _plain(block.get("text"), f"{where}/text", HEADER_MAX, kinds=("plain_text",)), 0
    if kind == "context":
        return _elements(block, where, CONTEXT_ELEMENTS_MAX), 0
    if kind == "actions":
        return _elements(block, where, ACTIONS_ELEMENTS_MAX), 0
    if kind == "context_actions":
        return _elements(block, where, CONTEXT_ACTIONS_ELEMENTS_MAX), 0
    if kind == "markdown":
        text = block.get("text")
        if not isinstance(text, str) or not text:
            return f"{where}/text must be a non-empty string", 0
        if problem := unsupported(text):
            return f"{where}/text: markdown does not support {problem}", 0
        return None, len(text)
    return None, 0


def block_problem(block: object, where: str) -> str | None:
    """The problem with one block, as a view's checks ask it (:mod:`tests.sim.slack.views`)."""
    return _block(block, where)[0]


def check_blocks(blocks: object) -> Refusal | None:
    if not isinstance(blocks, Sequence) or isinstance(blocks, str):
        return ("invalid_blocks_format", "blocks must be an array")
    if len(blocks) > BLOCKS_MAX:
        return ("invalid_blocks", f"must provide no more than {BLOCKS_MAX} items [/blocks]")
    markdown_total = 0
    for i, block in enumerate(blocks):
        problem, spent = _block(block, f"/blocks/{i}")
        if problem:
            return ("invalid_blocks", problem)
        markdown_total += spent
    if markdown_total > MARKDOWN_MAX:
        return ("invalid_blocks", f"markdown blocks hold {markdown_total} > {MARKDOWN_MAX} in all")
    return None
