"""Which language ``citebot ask`` speaks: --locale, CITEBOT_LANGUAGE, then POSIX's locale."""

from __future__ import annotations

import pytest

from bot.i18n.command_line import command_line_language, environment_locale


@pytest.mark.parametrize(
    ("environ", "locale"),
    [
        (
            {"LC_ALL": "de_DE.UTF-8", "LC_MESSAGES": "nl_NL.UTF-8", "LANG": "pl_PL.UTF-8"},
            "de_DE.UTF-8",
        ),
        ({"LC_ALL": "", "LC_MESSAGES": "nl_NL.UTF-8", "LANG": "pl_PL.UTF-8"}, "nl_NL.UTF-8"),
        ({"LANG": "pl_PL.UTF-8", "LC_CTYPE": "de_DE.UTF-8"}, "pl_PL.UTF-8"),
        ({"LC_ALL": "C", "LANG": "pl_PL.UTF-8"}, "C"),
        ({"LANGUAGE": "fr:de"}, None),
    ],
)
def test_the_environment_locale_is_read_in_posix_precedence(
    environ: dict[str, str], locale: str | None
) -> None:
    assert environment_locale(environ) == locale


def test_the_flag_beats_the_setting_which_beats_the_environment() -> None:
    environ = {"LANG": "de_DE.UTF-8"}
    assert command_line_language("pt-BR", configured="nl", environ=environ) == "pt_BR"
    assert command_line_language(None, configured="nl", environ=environ) == "nl"
    assert command_line_language(None, configured=None, environ=environ) == "de"
    assert command_line_language(None, configured=None, environ={}) is None


def test_a_locale_without_a_catalogue_falls_through_to_the_next() -> None:
    assert command_line_language("ja-JP", configured="nl", environ={}) == "nl"
    assert (
        command_line_language("ja-JP", configured=None, environ={"LANG": "zh_CN.UTF-8"})
        == "zh_Hans"
    )
    assert (
        command_line_language("ja-JP", configured=None, environ={"LANG": "zh_TW.UTF-8"})
        == "zh_Hant"
    )
    assert command_line_language("ja-JP", configured=None, environ={}) is None
