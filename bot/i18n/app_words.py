"""What citebot says in a platform's spaces of its own: its settings page (Slack's App Home and
the same page in a modal), its greeting and suggested prompts where a person talks to it alone,
its rotating status while it thinks, and the disclaimer it shows where a place wrote none. Part
of :class:`~bot.i18n.wording.Wording`, kept apart so that module stays readable; extracted and
translated with every other sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["AppWording", "SettingsPageLabels"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsPageLabels:
    """The words of a settings page, around each setting's label and value."""

    title: str
    """The page's heading."""
    short_title: str
    """The same, short enough for a modal's title (24 characters on Slack)."""
    workspace: str
    """Heads the workspace's settings."""
    recent_changes: str
    change: str
    """The button that opens a text or number setting's editor."""
    save: str
    on: str
    off: str
    no_limit: str
    none: str
    """A text setting that is empty (a disclaimer of ``none``)."""
    set_here: str
    """Where a value comes from: this place's own setting."""
    from_workspace: str
    """Where a channel's value comes from: its workspace's."""
    operator: str
    """Who made a change from the command line."""


class _Speaker(Protocol):
    def _(self, text: str) -> str: ...

    def _here(self, text: str) -> str: ...

    def number(self, n: float) -> str: ...


class AppWording:
    """Mixed into :class:`~bot.i18n.wording.Wording`, which speaks its language."""

    __slots__ = ()

    # -- the settings page ----------------------------------------------------------------------
    @property
    def settings_page(self: _Speaker) -> SettingsPageLabels:
        return SettingsPageLabels(
            title=self._("citebot's settings"),
            short_title=self._("Settings"),
            workspace=self._("This workspace"),
            recent_changes=self._("Recent changes"),
            change=self._("Change"),
            save=self._("Save"),
            on=self._("On"),
            off=self._("Off"),
            no_limit=self._("No limit"),
            none=self._("None"),
            set_here=self._("set here"),
            from_workspace=self._("from the workspace"),
            operator=self._("an operator"),
        )

    def setting_label(self: _Speaker, key: str) -> str:
        """A setting's name as an admin reads it on the settings page; the key itself for one
        this page does not know."""
        labels = {
            "enabled": self._("citebot answers here"),
            "language": self._("Language"),
            "private_by_default": self._("Private answers by default"),
            "follow_ups_without_mention": self._("Answer each follow-up without a mention"),
            "auto_answer": self._("Answer every new message"),
            "daily_questions": self._("Questions a day"),
            "daily_questions_per_person": self._("Questions a day per person"),
            "daily_tokens": self._("Tokens a day"),
            "daily_cost": self._("Spending a day (US dollars)"),
            "quote_check": self._("Check each quote on its page"),
            "disclaimer": self._("Disclaimer under each answer"),
            "handoff": self._("Whom “Ask a person” reaches"),
            "trusted_sources": self._("Trusted sources"),
            "provider": self._("Where answers come from"),
        }
        return labels.get(key, key)

    def follow_default(self: _Speaker, value: str) -> str:
        """The choice that removes a place's own value, showing the default it then takes."""
        return self._("Default ({value})").format(value=value)

    def follow_workspace(self: _Speaker, value: str) -> str:
        """The choice that removes a channel's own value, showing its workspace's."""
        return self._("As the workspace ({value})").format(value=value)

    def count_hint(self: _Speaker, most: int) -> str:
        return self._("A whole number from 1 to {most}, or none for no limit.").format(
            most=self.number(most)
        )

    def dollars_hint(self: _Speaker, most: int) -> str:
        return self._(
            "US dollars from 0.01 to {most}, such as 5 or 2.50, or none for no limit."
        ).format(most=self.number(most))

    def text_hint(self: _Speaker, limit: int) -> str:
        return self._("One line of at most {limit} characters, or none.").format(
            limit=self.number(limit)
        )

    def empty_follows_workspace(self: _Speaker) -> str:
        return self._("Leave it empty to follow the workspace.")

    def empty_follows_default(self: _Speaker) -> str:
        return self._("Leave it empty to follow the default.")

    # -- a conversation with citebot alone ------------------------------------------------------
    def greeting(self: _Speaker) -> str:
        return self._(
            "Hello! Ask me a question and I will answer it with its sources: every footnote "
            "links to the page it comes from."
        )

    def try_asking(self: _Speaker) -> str:
        """Titles the suggested prompts of a first conversation."""
        return self._("Try asking")

    def starter_prompts(self: _Speaker) -> tuple[tuple[str, str], ...]:
        """Suggested prompts for a first conversation: each one's title and what it asks."""
        return (
            (
                self._("What can you answer?"),
                self._("What kinds of questions can you answer, and which sources do you use?"),
            ),
            (
                self._("Explain with sources"),
                self._(
                    "Explain one of the central ideas of your sources, with the passages that "
                    "support it."
                ),
            ),
            (
                self._("Where to start"),
                self._("Which of your sources should I read first, and why?"),
            ),
        )

    def loading_messages(self: _Speaker) -> tuple[str, ...]:
        """What the app's status says in turn while an answer is on its way."""
        return (
            self._("Looking for sources…"),
            self._("Reading the sources…"),
            self._("Matching each sentence to its source…"),
            self._("Writing the answer…"),
        )

    def default_disclaimer(self: _Speaker) -> str:
        """Shown with an answer where the place's admins wrote no disclaimer, on a platform
        whose guidelines ask for one (Slack)."""
        return self._(
            "citebot's answers are generated and can be wrong: check them against their sources."
        )
