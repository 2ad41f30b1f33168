"""The document model: what markdown-it-py's parse becomes for the writer."""

from __future__ import annotations

from bot.render.document import Footnote, Paragraph, parse_blocks


def test_a_footnote_knows_the_sentence_it_supports() -> None:
    (paragraph,) = parse_blocks("Faith seeks understanding. Grace perfects nature.[^2] Amen.")
    assert isinstance(paragraph, Paragraph)
    (note,) = [n for n in paragraph.inlines if isinstance(n, Footnote)]
    assert note.sentence == "Grace perfects nature."
