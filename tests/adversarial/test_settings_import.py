"""``citebot settings import`` of a file someone else wrote: deeply nested JSON once ended in a
traceback (exit 1). Every hostile document is one line, exit 2, and changes nothing: nested
past what a settings document is, larger than one ever is, or not UTF-8."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.places.document import MAX_DEPTH, MAX_DOCUMENT_BYTES
from tests.bot.places.conftest import Citebot, command_line
from tests.bot.places.test_cli import settings_cli

__all__ = ["command_line", "settings_cli"]

DEEP_ARRAYS = "[" * 200_000 + "]" * 200_000
DEEP_OBJECTS = '{"a":' * 100_000 + "1" + "}" * 100_000
UNCLOSED = '{"discord:1": ' + "[" * 100_000


@pytest.mark.parametrize("text", [DEEP_ARRAYS, DEEP_OBJECTS, UNCLOSED], ids=["[", "{", "open"])
def test_deeply_nested_json_is_one_line_exit_2_and_changes_nothing(
    settings_cli: Citebot, tmp_path: Path, text: str
) -> None:
    settings_cli("set", "discord:1", "language", "de")
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")

    for ran in (settings_cli("import", str(path)), settings_cli("import", "-", stdin=text)):
        assert ran.code == 2
        assert ran.out == ""
        assert ran.err == (
            f"citebot: not a settings document (nested more than {MAX_DEPTH} levels deep):"
            " write a JSON object of places, each with its settings, as citebot settings"
            " export prints it\n"
        )
    assert json.loads(settings_cli("export").out) == {"discord:1": {"language": "de"}}


def test_a_file_larger_than_any_settings_document_is_refused_unparsed(
    settings_cli: Citebot, tmp_path: Path
) -> None:
    path = tmp_path / "large.json"
    with path.open("wb") as large:
        large.write(b'{"discord:1": {"language": "fr"}}')
        large.write(b" " * MAX_DOCUMENT_BYTES)

    ran = settings_cli("import", str(path), env={"CITEBOT_LANGUAGE": "fr"})

    assert ran.code == 2
    assert ran.err.startswith("citebot: ")
    assert "16 Mio" in ran.err or "16 MiB" in ran.err
    assert ran.err.count("\n") == 1
    assert settings_cli("export").out.strip() == "{}"


def test_brackets_inside_a_value_are_words_not_nesting(settings_cli: Citebot) -> None:
    written = "[[[[[[[[[[[[ Answers may be wrong {{{{{{{{{{ \\" + '"' + " ]]]]"
    document = json.dumps({"discord:1": {"disclaimer": written}})

    ran = settings_cli("import", "-", stdin=document)

    assert ran.code == 0
    assert (
        json.loads(settings_cli("export").out)["discord:1"]["disclaimer"]
        == json.loads(document)["discord:1"]["disclaimer"]
    )


def test_a_file_that_is_not_utf_8_is_one_line(settings_cli: Citebot, tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"discord:1": {"disclaimer": "Réponses"}}'.encode("latin-1"))

    ran = settings_cli("import", str(path))

    assert (ran.code, ran.err.count("\n")) == (2, 1)
    assert ran.err.startswith("citebot: not a settings document ('utf-8' codec can't decode")
