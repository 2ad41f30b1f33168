"""A fetched body's text: HTML's main text (trafilatura) and all of it, a PDF's, plain text.

The main text comes first because that is where a quote belongs; the whole text is the
fallback for pages whose extraction drops a table, a list or a sidebar quote. This is CPU work:
the checker runs it in a thread so the answers streaming on the event loop never wait for it.
"""

from __future__ import annotations

import io
import logging
import re

import trafilatura
from pypdf import PdfReader
from pypdf.errors import PyPdfError

from bot.verify.fetch import Page, Unreadable

__all__ = ["MAX_PDF_PAGES", "page_texts"]

log = logging.getLogger(__name__)

MAX_PDF_PAGES = 300
_LINE_END_HYPHEN = re.compile(r"(\w)-\n(\w)")


def page_texts(page: Page) -> tuple[str, ...]:
    """The texts to look for a quote in, best first; :class:`Unreadable` when there are none."""
    if page.content_type == "application/pdf":
        text = _pdf(page)
        joined = _LINE_END_HYPHEN.sub(r"\1\2", text)  # "infor-\nmation" as printed
        return (joined, text) if joined != text else (text,)
    text = page.body.decode(page.charset or "utf-8", errors="replace")
    if page.content_type in ("text/plain", "text/markdown"):
        return (text,)
    source: str | bytes = text if page.charset else page.body
    main = trafilatura.extract(
        source, include_comments=False, include_tables=True, favor_recall=True
    )
    whole = trafilatura.html2txt(source)
    return tuple(t for t in (main, whole) if t)


def _pdf(page: Page) -> str:
    if not page.complete:
        raise Unreadable("the PDF is larger than citebot reads")
    try:
        reader = PdfReader(io.BytesIO(page.body))
        return "\n".join(p.extract_text() or "" for p in reader.pages[:MAX_PDF_PAGES])
    except (PyPdfError, ValueError, KeyError, TypeError) as error:
        log.info("quote check: unreadable PDF (%s)", type(error).__name__)
        raise Unreadable(f"an unreadable PDF ({type(error).__name__})") from None
