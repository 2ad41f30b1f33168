"""Answers worth formatting, as the upstream sends them (text, raw citations, related)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone
from bot.upstream.sources import Sources


@dataclass(frozen=True)
class Case:
    text: str
    citations: list[dict[str, Any]] = field(default_factory=list)
    related: tuple[str, ...] = ()

    def done(self) -> AnswerDone:
        return AnswerDone(
            text=self.text,
            finish_reason="stop",
            citations=self.normalised(),
            related_questions=self.related,
        )

    def normalised(self) -> tuple[Citation, ...]:
        sources = Sources()
        sources.take({"citations": self.citations})
        return sources.citations("")


class CitationFields(TypedDict, total=False):
    """The fields of a :class:`Citation` a card test sets (the platform presenters show them)."""

    cited_text: str
    heading: str | None
    title: str | None
    author: str | None
    year: str | None
    reference: str | None
    source_url: str | None


def source(index: int, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "cited_text": f"{index + 1}. The Church teaches, in passage {index + 1}, what follows.",
        "cited_text_heading": f"Part {index + 1}",
        "document_title": f"Document {index + 1}",
        "document_index": index,
        "document_author": "Second Vatican Council",
        "document_year": "1965",
        "document_reference": str(index + 1),
        "source_url": f"https://www.vatican.va/doc/{index + 1}.html",
    }
    base.update(fields)
    return base


MARKDOWN_HEAVY = Case(
    text=(
        "# Grace and nature\n\nGrace **builds on** nature, it does not *destroy* it.[^1]\n\n"
        "#### A small heading\n\n- first point[^2]\n  - nested point\n- second ~~point~~\n\n"
        "1. one\n2. two\n\n> A quoted line.[^1]\n\n| Term | Meaning |\n|---|---|\n"
        "| Grace | A gift[^2] |\n| Nature | What is given |\n\n---\n\n"
        "See [the Catechism](https://www.vatican.va/ccc) and ![a picture](https://x.org/p.png)."
    ),
    citations=[source(0), source(1)],
    related=("What is grace?", "Is nature good?"),
)

CODE_WITH_BRACKETS = Case(
    text=(
        "Index with `a[1]`, not a footnote.[^1]\n\n```python\nb = a[1]  # [^2] is code\n"
        "print(a[2])\n```\n\nAfter the code.[^2]"
    ),
    citations=[source(0), source(1)],
)

MANY_CITATIONS = Case(
    text=" ".join(f"Claim number {n} is supported.[^{n}]" for n in range(1, 14))
    + " Again the first.[^1]",
    citations=[source(i) for i in range(14)],
    related=tuple(f"Question {n}?" for n in range(7)),
)

DANGLING_AND_DUPLICATES = Case(
    text="First.[^2][^2] Unknown source.[^9] Same document twice.[^3] Plain [1] marker.",
    citations=[source(0), source(1), source(1, document_index=2), source(3)],
)

DEFINITIONS = Case(
    text="Body of the answer.[^1] More.[^2]\n\n[^1]: Lumen Gentium 8\n[^2]: Dei Verbum 10\n",
    citations=[source(0), source(1)],
)

CJK_AND_EMOJI = Case(
    text="恩宠成全本性。[^1]这是一个很长的句子👨‍👩‍👧，包含表情符号。[^2] Café naïve 🇻🇦.",
    citations=[
        source(0, cited_text="恩宠不废除本性，而是成全本性。" * 120, document_title="神学大全"),
        source(1, cited_text="e\u0301" * 1200),
    ],
)

HTML_ENTITIES = Case(
    text="Faith &amp; reason.[^1] L&apos;Église dit « oui ».[^2]",
    citations=[
        source(0, cited_text="C&apos;est l&apos;&oelig;uvre de l&apos;Esprit &amp; de la foi."),
        source(1, document_title="Lettre &laquo; Spe salvi &raquo;"),
    ],
)

NULL_FIELDS = Case(
    text="A claim with a bare source.[^1]",
    citations=[
        {
            "cited_text": "Only the quote is known.",
            "document_index": 0,
            "document_title": None,
            "document_author": None,
            "document_year": None,
            "document_reference": None,
            "source_url": None,
            "cited_text_heading": None,
        }
    ],
)

BAD_URLS = Case(
    text="Click [here](javascript:alert(1)) or [there](discord://x) or [ok](https://ok.org).[^1]"
    "[^2][^3]",
    citations=[
        source(0, source_url="javascript:alert(1)"),
        source(1, source_url="discord://channels/1"),
        source(2, source_url="ftp://files.org/x"),
    ],
)

MENTIONS = Case(
    text="Hi @everyone and @here, <@123> <@!5> <@&7> <!channel> <!here> <!everyone> <#C1> "
    "<!subteam^S1>.[^1]\n\n`@everyone <@1> <!channel>`\n\n```\n@here <@&7> <!here>\n```",
    citations=[
        source(
            0,
            cited_text="Tell @everyone and <!channel> and <@U1>.",
            document_title="@here <@&1>",
            document_author="<!everyone>",
        )
    ],
    related=("Ask @everyone <!channel>?",),
)


def catechism(index: int, reference: str, quote: str) -> dict[str, Any]:
    """A passage of the Catechism, as Magisterium cites it: the document's one URL."""
    return source(
        index,
        document_title="Catechism of the Catholic Church",
        source_url="https://www.vatican.va/archive/ENG0015/__P6Z.HTM",
        document_reference=reference,
        cited_text_heading=None,
        cited_text=quote,
    )


ONE_DOCUMENT_MANY_PASSAGES = Case(
    # Magisterium's habit: several passages of one document, each its own citation, one URL.
    text="Grace is favor[^1], a participation in the life of God[^2]. It heals us[^3] and "
    "makes us holy[^4], as the Council taught[^5].",
    citations=[
        catechism(0, "1996", "Our justification comes from the grace of God. Grace is favor."),
        catechism(1, "1997", "Grace is a participation in the life of God."),
        catechism(2, "1999", "The grace of Christ is the gratuitous gift that God makes to us."),
        catechism(3, "1999", "It is the sanctifying or deifying grace received in Baptism."),
        source(4),
    ],
)

UNSAFE_URLS = Case(
    # URLs Discord's spec refuses raw (format: uri, 2,048) and Slack's 3,000 limit.
    text="A Japanese page[^1], a pipe[^2], a stray percent[^3], a very long one[^4] and "
    "[a link](https://例え.jp/パス?q=ünï).",
    citations=[
        source(0, source_url="https://例え.jp/パス?q=ünï"),
        source(1, source_url="https://example.org/a|b{c}"),
        source(2, source_url="https://example.org/100%zz"),
        source(3, source_url="https://example.org/" + "a" * 2100),
    ],
)

_SENTENCES = [
    "The Church has always taught that faith and reason are two wings of one flight.",
    "Charity is the form of all the virtues, and without it nothing profits us.",
    "Scripture and Tradition flow from the same divine wellspring.",
    "Grace perfects nature rather than destroying it, as the scholastics said.",
]


def long_answer(length: int = 9000) -> Case:
    parts: list[str] = []
    size, n = 0, 0
    while size < length:
        n += 1
        if n % 7 == 0:
            chunk = "```text\n" + "\n".join(f"line {n}.{i} a[{i}]" for i in range(12)) + "\n```"
        else:
            chunk = " ".join(f"{s}[^{(n + i) % 5 + 1}]" for i, s in enumerate(_SENTENCES))
        parts.append(chunk)
        size += len(chunk) + 2
    return Case(text="\n\n".join(parts), citations=[source(i) for i in range(5)])


CASES: dict[str, Case] = {
    "markdown_heavy": MARKDOWN_HEAVY,
    "code_with_brackets": CODE_WITH_BRACKETS,
    "many_citations": MANY_CITATIONS,
    "dangling_and_duplicates": DANGLING_AND_DUPLICATES,
    "definitions": DEFINITIONS,
    "cjk_and_emoji": CJK_AND_EMOJI,
    "html_entities": HTML_ENTITIES,
    "null_fields": NULL_FIELDS,
    "bad_urls": BAD_URLS,
    "mentions": MENTIONS,
    "long_answer": long_answer(),
    "one_document_many_passages": ONE_DOCUMENT_MANY_PASSAGES,
    "unsafe_urls": UNSAFE_URLS,
}
