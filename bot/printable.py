"""Words other people wrote (an asker's question, a site's name, an admin's disclaimer), made
safe for where an operator reads them: a terminal, or a spreadsheet a CSV is opened in.

A terminal obeys the control characters it is sent: an ESC sequence can retitle the window,
hide the lines before it, rewrite the clipboard (OSC 52) or make a link say something else, and
bidi overrides make a line read in another order than it is written ("Trojan source"). So
:func:`terminal_text` removes every C0 and C1 control but the line break and the tab, and every
bidi embedding, override, isolate and mark. A spreadsheet runs a cell that begins with ``=``,
``+``, ``-`` or ``@`` (or their full-width forms, which some read alike) as a formula, and a
leading tab or carriage return lets one through: :func:`spreadsheet_cell` puts a ``'`` before
such a cell (OWASP's CSV-injection rule), after removing what :func:`terminal_text` removes and
the carriage return (a CSV is read in terminals too). JSON needs neither: it is printed exact.
"""

from __future__ import annotations

import re

__all__ = ["spreadsheet_cell", "terminal_text"]

_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f"
"""C0 and C1 controls but the tab (\\x09) and the line break (\\x0a)."""
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""Arabic letter mark, left-to-right and right-to-left marks, embeddings, overrides, isolates."""
_UNSHOWN = re.compile(f"[{_CONTROLS}{_BIDI}]+")
_FORMULA = re.compile("^[ ]*[=+\\-@\t\uff1d\uff0b\uff0d\uff20]")
"""A cell a spreadsheet may run: a formula's first character, or a tab before one (a carriage
return is gone already; spaces before any of them are skipped by some)."""


def terminal_text(text: str) -> str:
    """``text`` without the characters a terminal acts on rather than shows."""
    return _UNSHOWN.sub("", text)


def spreadsheet_cell(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet runs: shown, never evaluated."""
    shown = terminal_text(text)
    return f"'{shown}" if _FORMULA.match(shown) else shown
