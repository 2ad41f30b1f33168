"""The Markdown both chat platforms mostly share, as a base their dialects adjust.

Mentions are killed with a zero-width space after ``<`` (and wherever a dialect adds more), so
nothing from upstream can ping, in text or code alike. Links are ``[label](url)``, their labels
unescaped, since a platform's link text takes few escapes (brackets become parentheses).
"""

from __future__ import annotations

import re

from bot.render.dialect import ZWSP, Dialect

__all__ = ["ZWSP", "CommonMarkSyntax", "escape_line_start"]

_ESCAPE = str.maketrans({c: "\\" + c for c in "\\*_~`|[]"} | {"<": "<" + ZWSP})
_ORDINAL = re.compile(r"[0-9]+(?=[.)])")
_INFO = re.compile(r"[^\w+#.-]")


def escape_line_start(text: str) -> str:
    """Text that starts a line must not read as a heading, quote or list item."""
    ordinal = _ORDINAL.match(text)
    if ordinal:
        return text[: ordinal.end()] + "\\" + text[ordinal.end() :]
    return "\\" + text if text[:1] in ("#", ">", "+", "-") else text


class CommonMarkSyntax(Dialect):
    quote_prefix = "> "
    max_heading = 6
    label_escape = re.compile(r"\\(.)")
    """The escapes a link's label drops (the character escaped stays)."""

    def escape(self, text: str, *, line_start: bool) -> str:
        written = self.kill_mentions(text.translate(_ESCAPE))
        return escape_line_start(written) if line_start else written

    def code_span(self, text: str) -> str:
        body = self.kill_mentions(text)
        if "`" not in body:
            return f"`{body}`" if body else ""
        return f"`` {body.replace('``', '`' + ZWSP + '`')} ``"

    def emphasis(self, kind: str, inner: str) -> str:
        if not inner:
            return ""
        mark = {"strong": "**", "emph": "*", "strike": "~~"}[kind]
        return f"{mark}{inner}{mark}"

    def heading(self, level: int, inner: str) -> str:
        return "#" * min(level, self.max_heading) + " " + inner

    def fence(self, info: str) -> tuple[str, str]:
        return "```" + _INFO.sub("", info)[:20], "```"

    def code_line(self, line: str) -> str:
        return self.kill_mentions(line).replace("```", "`" + ZWSP + "``")

    def bullet(self, number: int | None) -> str:
        return "- " if number is None else f"{number}. "

    def neutralise(self, text: str) -> str:
        return self.kill_mentions(text)

    def link_label(self, inner: str) -> str:
        return self.label_escape.sub(r"\1", inner).replace("[", "(").replace("]", ")").strip()

    def linked(self, label: str, target: str) -> str:
        return f"[{label}]({target})"
