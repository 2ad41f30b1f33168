"""What Slack's ``markdown`` block (and ``markdown_text``, its argument form) documents.

Source: https://docs.slack.dev/reference/block-kit/blocks/markdown-block: "The markdown types
that are not supported are code block with syntax highlighting, horizontal lines, tables, and
task list." Links are documented as ``[my text](url)`` and escaping by the ``\\*This is special
text\\*`` example. The page does not say how Slack answers an unsupported construct; the
simulator refuses it (``invalid_blocks``) so no test can miss one. Backslash escapes inside
link text are not refused (Slack documents no error for them) but reported by
:func:`undocumented`, so a test can ask for the documented forms only.
"""

from __future__ import annotations

import functools
import re

from markdown_it import MarkdownIt

__all__ = ["undocumented", "unsupported"]

_TASK = re.compile(r"\[[ xX]\]\s")
_ESCAPED_LINK_TEXT = re.compile(r"\[((?:[^\]\\\n]|\\.)*)\]\(")
_ESCAPE = re.compile(r"\\(.)")


@functools.cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def unsupported(markdown: str) -> str | None:
    """The first construct the markdown block documents as unsupported, named as Slack does."""
    tokens = _parser().parse(markdown)
    for index, token in enumerate(tokens):
        if token.type == "fence" and token.info.strip():
            return f"code block with syntax highlighting ({token.info.strip()!r})"
        if token.type == "hr":
            return "horizontal line"
        if token.type == "table_open":
            return "table"
        if (
            token.type == "inline"
            and index >= 2
            and tokens[index - 2].type == "list_item_open"
            and _TASK.match(token.content)
        ):
            return f"task list ({token.content.splitlines()[0]!r})"
    return None


def undocumented(markdown: str) -> list[str]:
    """Link texts that lean on backslash escapes other than the documented ``\\*``."""
    return [
        match.group(0)
        for match in _ESCAPED_LINK_TEXT.finditer(markdown)
        if any(escaped != "*" for escaped in _ESCAPE.findall(match.group(1)))
    ]
