"""The words a dialect writes around an answer (:class:`Labels`), as
:attr:`bot.i18n.wording.Wording.labels` says them in one language."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Labels"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Labels:
    """The words a dialect writes around an answer: on its cards, headings and buttons."""

    sources: str
    """Heading of the citation cards."""
    sources_lead: str
    """``sources`` leading the card titles inline, punctuated as the language does (Slack's
    notification text: ``Sources:``, ``Sources :``, ``参考来源：``)."""
    source: str
    """The title of a source that has neither title nor reference."""
    supports: str
    """Names the sentences of the answer a source supports (a Discord field's name)."""
    supports_lead: str
    """``supports`` leading those sentences inline, punctuated as the language does
    (``Supports:``, ``Étaye :``, ``佐证：``)."""
    quoted: str
    """How the language quotes the answer's words after that lead, with ``{quote}`` for them
    (``“{quote}”``, ``„{quote}“``, ``« {quote} »``)."""
    also_consulted: str
    related: str
    good_answer: str
    bad_answer: str
    """Feedback buttons' names (for screen readers, where the buttons show only 👍/👎)."""
    quote_found: str
    """Under a quote found on its source's page (the card puts a ✓ before it)."""
    quote_not_found: str
    """Under a quote its source's page, read whole, does not have: not proof the source never
    said it (the page may have changed, or shown a paywall's teaser)."""
    untrusted: str
    """On the card of a source outside the place's ``trusted_sources`` (after a ⚠)."""
    ask_sources: str
    """The button under a place's own answer that asks the sources anyway."""
    ask_person: str
    """The button under an answer that asks the place's ``handoff`` ("Ask a person")."""
