"""What citebot says about what a community makes its own: its own answers, the way to a
person ("Ask a person"), its trusted sources and the provider it answers from. Part of
:class:`~bot.i18n.wording.Wording`, kept apart so that module stays readable; extracted and
translated with every other sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["CommunityWording", "OwnAnswerLabels"]


@dataclass(frozen=True, slots=True, kw_only=True)
class OwnAnswerLabels:
    """The words around a place's own answers where its admins list and change them."""

    title: str
    id: str
    question: str
    answer: str
    set_by: str
    when: str
    add: str
    remove: str
    none_yet: str


class _Speaker(Protocol):
    def _(self, text: str) -> str: ...

    def number(self, n: float) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class CommunityWording:
    """Mixed into :class:`~bot.i18n.wording.Wording`, which speaks its language."""

    __slots__ = ()

    # -- own answers -----------------------------------------------------------------------
    def own_answer_mark(self: _Speaker, name: str, date: str) -> str:
        """Under a place's own answer, in place of the sources': who of its admins set it and
        when (``date`` in ISO form, UTC)."""
        return self._(
            "This is the admins' own answer here, set by {name} on {date}. No source was asked."
        ).format(name=name, date=date)

    @property
    def own_answer_labels(self: _Speaker) -> OwnAnswerLabels:
        return OwnAnswerLabels(
            title=self._("Own answers"),
            id=self._("ID"),
            question=self._("Question"),
            answer=self._("Answer"),
            set_by=self._("Set by"),
            when=self._("When"),
            add=self._("Add an own answer"),
            remove=self._("Remove"),
            none_yet=self._(
                "No own answers here yet. Questions that match one closely get its answer "
                "instead of the sources'."
            ),
        )

    def own_answer_saved(self: _Speaker, answer: str) -> str:
        return self._("Own answer {id} saved.").format(id=answer)

    def own_answer_removed(self: _Speaker, answer: str) -> str:
        return self._("Own answer {id} removed.").format(id=answer)

    def no_such_own_answer(self: _Speaker, answer: str) -> str:
        return self._("{id}: there is no own answer with this ID here").format(id=answer)

    def own_answer_empty(self: _Speaker, what: str) -> str:
        """``what``: ``question`` or ``answer``, as the command line names them."""
        return self._("{what}: must not be empty").format(what=what)

    def too_many_own_answers(self: _Speaker, most: int) -> str:
        return self._(
            "This place already keeps {most} own answers: remove one before adding another"
        ).format(most=self.number(most))

    def own_answers_how_to(self: _Speaker) -> str:
        """Telegram's ``/settings answers``: how to add and remove one."""
        return self._(
            "Add one with /settings answers add QUESTION | ANSWER, remove one with "
            "/settings answers remove ID."
        )

    # -- ask a person ----------------------------------------------------------------------
    def handoff_request(self: _Speaker, target: str, asker: str) -> str:
        """The one message "Ask a person" posts: ``target`` is whom it notifies (a role, a
        group, the admins: a mention), ``asker`` who pressed it; the question is linked after
        it (:meth:`handoff_question`)."""
        return self._("{target}: {asker} would like a person to answer their question.").format(
            target=target, asker=asker
        )

    def handoff_question(self: _Speaker) -> str:
        """The link to the question, after :meth:`handoff_request`."""
        return self._("See the question")

    def handoff_done(self: _Speaker) -> str:
        """Told the asker once their "Ask a person" has been posted."""
        return self._("Done: a person has been asked to look at your question.")

    def handoff_already(self: _Speaker) -> str:
        return self._("A person has already been asked about this answer.")

    def button_expired(self: _Speaker) -> str:
        """A button whose answer citebot no longer remembers (its days are up, or the place
        or the asker was forgotten)."""
        return self._("This button no longer works. Please ask your question again.")

    def sources_already(self: _Speaker) -> str:
        """ "Ask the sources" pressed again under the same own answer."""
        return self._("The sources have already been asked about this question.")

    def handoff_off(self: _Speaker) -> str:
        """ "Ask a person" pressed where its admins have since set ``handoff`` to none."""
        return self._("Nobody here is set up to be asked any more.")

    # -- the settings ----------------------------------------------------------------------
    def setting_hosts(self: _Speaker, key: str, most: int, got: str) -> str:
        return self._(
            "{key}: must be at most {most} hosts separated by commas (vatican.va, usccb.org), "
            "or none, got {got}"
        ).format(key=key, most=self.number(most), got=got)
