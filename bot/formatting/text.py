"""Small text tools every dialect needs: cutting to a limit safely, superscript numbers."""

from __future__ import annotations

from bot.footnotes import safe_cut

__all__ = ["ELLIPSIS", "clip", "superscript"]

ELLIPSIS = "…"
_CJK_PAUSES = "。，、！？；："
"""Where Chinese and Japanese text can be cut like at a space (after the mark)."""
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: cut at a word (when one is near) with an ellipsis,
    never inside a character, a combining sequence or an emoji join. The words kept are the
    source's own."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:limit]
    at = safe_cut(text, limit - len(ELLIPSIS))
    space = max(text.rfind(" ", 0, at + 1), text.rfind("\n", 0, at + 1))
    pause = max(text.rfind(mark, 0, at) for mark in _CJK_PAUSES) + 1
    best = max(space, pause)
    if best > at * 2 // 3:
        at = best
    return text[:at].rstrip() + ELLIPSIS


def superscript(number: int) -> str:
    return str(number).translate(_SUPERSCRIPT)
