"""What a reading decides: each quote's verdict on one fetched page, from the page's texts.

The whole text comes first because it is cheap (one pass over the parsed page) and holds every
quote the main text does: most quotes are found there and the page's main text is never
extracted. The main text is the second look for a quote not found whole: extraction drops the
navigation, the notes and the asides a quote's words may be split by. Extraction is not linear
in a page's elements (trafilatura's comparison with justext is quadratic in runs of short
paragraphs: 20,000 ``<div><p>`` take 18 s), so a page of more than :data:`MAX_EXTRACTED_ELEMENTS`
is read whole only. PDFs are read with pypdf (line-end hyphens joined for the second look),
plain text as it is. This is CPU work on hostile input: it runs in a reader process
(:mod:`bot.verify.pool`), never in the worker's event loop.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import trafilatura

from bot.verify.match import Text, match
from bot.verify.page import Page, Unreadable
from bot.verify.verdict import Verdict

__all__ = [
    "MAX_EXTRACTED_ELEMENTS",
    "MAX_PDF_PAGES",
    "MAX_TEXT_CHARS",
    "MIN_WORDS",
    "PageTexts",
    "judge",
]

log = logging.getLogger(__name__)

MAX_PDF_PAGES = 300
MAX_TEXT_CHARS = 2_000_000
"""A page's text past this is not matched (the page counts as cut): about what the 2 MiB of
markup ``FetchLimits.max_text_bytes`` lets through holds."""
MAX_EXTRACTED_ELEMENTS = 5_000
"""Pages with more elements (counted by their tags) are read whole only: vatican.va's longest
documents have about 3,000 (Amoris laetitia, 555 KB); 5,000 ``<div><p>`` take trafilatura
1.4 s, 20,000 take 18."""
MIN_WORDS = 30
"""A page with fewer words than this that lacks the quote is taken as unread (a page built by
script, an interstitial), not as proof the quote is not there."""
_LINE_END_HYPHEN = re.compile(r"(\w)-\n(\w)")


def judge(page: Page, quotes: Sequence[str], *, extract: bool) -> tuple[Verdict | None, ...]:
    """Each quote's verdict on ``page``: found in its whole text or else in its main text;
    not found only where the page was read whole and has words enough to be the source;
    :class:`Unreadable` when the page has no text to look in. Without ``extract``, a quote
    not found whole on a page whose main text is yet to be extracted is left None: the
    extraction is a job of its own (:mod:`bot.verify.pool`), so that its deadline costs only
    the quotes that wait for it."""
    texts = PageTexts(page)
    whole = texts.whole()
    found = [match(quote, (whole,)).found for quote in quotes]
    if not all(found) and not extract and texts.extracts:
        return tuple(Verdict.FOUND if seen else None for seen in found)
    if not all(found) and (main := texts.main()) is not None:
        found = [
            seen or match(quote, (main,)).found for quote, seen in zip(quotes, found, strict=True)
        ]
    # What was read lacks the quote, but the rest (past a cap) or a page built by script might
    # hold it: that is not knowing, not "not found".
    judged = texts.complete and whole.words.count(" ") + 1 >= MIN_WORDS
    missing = Verdict.NOT_FOUND if judged else Verdict.UNREADABLE
    return tuple(Verdict.FOUND if seen else missing for seen in found)


@dataclass(slots=True)
class PageTexts:
    """One page's texts, each made once, when first asked for."""

    page: Page
    _whole: Text | None = field(default=None, init=False)
    _main: Text | None = field(default=None, init=False)
    _looked: bool = field(default=False, init=False)
    _cut: bool = field(default=False, init=False)

    @property
    def complete(self) -> bool:
        """Whether the whole page was read: fetched whole and no text left unmatched."""
        return self.page.complete and not self._cut

    def whole(self) -> Text:
        """All of the page's text; :class:`Unreadable` when it has none."""
        if self._whole is None:
            text = self._whole_text()
            if not text.strip():
                raise Unreadable("no text on the page")
            if len(text) > MAX_TEXT_CHARS:
                text, self._cut = text[:MAX_TEXT_CHARS], True
            self._whole = Text(text)
        return self._whole

    @property
    def extracts(self) -> bool:
        """Whether :meth:`main` extracts an article (the costly look): HTML of at most about
        :data:`MAX_EXTRACTED_ELEMENTS` elements (counted by their tags, before any parsing:
        an opening and a closing one each)."""
        if self.page.content_type in ("application/pdf", "text/plain", "text/markdown"):
            return False
        return self.page.body.count(b"<") <= 2 * MAX_EXTRACTED_ELEMENTS

    def main(self) -> Text | None:
        """The page's main text where it differs from the whole: an article's (HTML of at
        most :data:`MAX_EXTRACTED_ELEMENTS` elements), a PDF's with its hyphens joined."""
        if not self._looked:
            self._looked = True
            text = self._main_text()
            if text and text != self.whole().source:
                self._main = Text(text[:MAX_TEXT_CHARS])
        return self._main

    def _whole_text(self) -> str:
        if self.page.content_type == "application/pdf":
            return _pdf(self.page)
        if self.page.content_type in ("text/plain", "text/markdown"):
            return self._decoded()
        return trafilatura.html2txt(self._source())

    def _main_text(self) -> str | None:
        if self.page.content_type == "application/pdf":
            return _LINE_END_HYPHEN.sub(r"\1\2", self.whole().source)  # "infor-\nmation"
        if not self.extracts:
            return None
        return trafilatura.extract(
            self._source(), include_comments=False, include_tables=True, favor_recall=True
        )

    def _decoded(self) -> str:
        return self.page.body.decode(self.page.charset or "utf-8", errors="replace")

    def _source(self) -> str | bytes:
        """What trafilatura parses, each text its own parse (one tree at a time in memory, not
        a tree and its copy): without a charset from HTTP, the bytes, whose own declaration
        it reads."""
        return self._decoded() if self.page.charset else self.page.body


def _pdf(page: Page) -> str:
    if not page.complete:
        raise Unreadable("the PDF is larger than citebot reads")
    from pypdf import PdfReader  # a quarter of a reader's start-up, for the few PDFs
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(page.body))
        return "\n".join(p.extract_text() or "" for p in reader.pages[:MAX_PDF_PAGES])
    except (PyPdfError, ValueError, KeyError, TypeError) as error:
        log.info("quote check: unreadable PDF (%s)", type(error).__name__)
        raise Unreadable(f"an unreadable PDF ({type(error).__name__})") from None
