"""Quote checking: is each cited quote really on its source's page?

:mod:`bot.verify.checker` (``QuoteChecker``) fetches and reads the pages, platform-free and
formatter-free; :mod:`bot.quote_checks` shows each :class:`Verdict` on the cards an answer
posted. This package's own import is light (the verdict alone): the formatter and the
presenters name a verdict without loading the fetching and reading behind it.
"""

from __future__ import annotations

from bot.verify.verdict import Verdict

__all__ = ["Verdict"]
