"""The demo's documents as web pages, so a citation's link opens and quote checking can read it.

``GET /corpus/{slug}`` renders a corpus file's Markdown (its header comment left out) as a plain
HTML page. Raw HTML in the Markdown is shown as text, never passed through.
"""

from __future__ import annotations

from html import escape

from aiohttp import web
from markdown_it import MarkdownIt
from yarl import URL

from bot.demo.documents import Document, without_header
from bot.demo.index import Corpus
from config.hosts import HostPort

__all__ = ["CorpusPages", "quote_check_host"]

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])


def quote_check_host(base_url: str) -> HostPort:
    """What quote checking must allow for the demo's own pages, given the URL the demo was
    started at (``started_demo`` yields it): they are on a loopback address, refused otherwise."""
    url = URL(base_url)
    return HostPort(url.host or "127.0.0.1", url.port)


class CorpusPages:
    """The route serving one corpus's documents."""

    def __init__(self, corpus: Corpus) -> None:
        self._documents = {document.slug: document for document in corpus.documents}

    async def page(self, request: web.Request) -> web.Response:
        document = self._documents.get(request.match_info["slug"])
        if document is None:
            raise web.HTTPNotFound(reason="No such document in the demo corpus.")
        markdown = without_header(document.path.read_text(encoding="utf-8"))
        return web.Response(
            text=_html(document, markdown),
            content_type="text/html",
            charset="utf-8",
        )


def _html(document: Document, markdown: str) -> str:
    author = f'<meta name="author" content="{escape(document.author)}">' if document.author else ""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(document.title)}</title>{author}</head>\n"
        f"<body><main><article>\n{_MARKDOWN.render(markdown)}</article></main>\n"
        "<footer>Served by the citebot demo upstream.</footer></body></html>\n"
    )
