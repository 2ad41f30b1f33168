"""The ``settings-table`` directive: the environment variables citebot reads, as a table drawn
from the settings model itself, so the documentation cannot drift from the code.

``shared`` renders :class:`config.Settings`; a platform's name renders that registered
platform's :class:`~config.environment.PlatformSettings`::

    ```{settings-table} discord
    ```

Each row is a variable (with its aliases), its default as a person reads it and the field's
``description``. A field without a description, a name that is neither ``shared`` nor a
registered platform, and a settings model no page renders are build warnings, which the strict
build (``-W``) turns into errors: a new variable or a new platform cannot go undocumented.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from pydantic.fields import FieldInfo
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import ExtensionMetadata

from bot.platforms import load_platforms
from config import EnvironmentSettings, Settings
from config.environment import SHOWN_DEFAULT

SHARED = "shared"

logger = logging.getLogger(__name__)


def models() -> dict[str, type[EnvironmentSettings]]:
    """Every settings model a table is owed to: the shared one, then each platform's."""
    found: dict[str, type[EnvironmentSettings]] = {SHARED: Settings}
    for platform in load_platforms().values():
        if platform.environment is not None:
            found[platform.name] = platform.environment
    return found


def shown_default(field: FieldInfo) -> str:
    """The default as the documentation says it: the field's own words where it has them
    (``SHOWN_DEFAULT``), else its value in the variable's own spelling."""
    extra = field.json_schema_extra
    if isinstance(extra, dict) and isinstance(extra.get(SHOWN_DEFAULT), str):
        return str(extra[SHOWN_DEFAULT])
    default: Any = field.get_default(call_default_factory=False)
    if default is None or default == ():
        return "none"
    if isinstance(default, bool):
        return "`on`" if default else "`off`"
    if isinstance(default, float) and default.is_integer():
        return str(int(default))
    if isinstance(default, int | float):
        return str(default)
    return f"`{default}`"


def cell(text: str) -> str:
    """Text that stays in its table cell: one line, no unescaped column bar."""
    return " ".join(text.split()).replace("|", "\\|")


def rows(model: type[EnvironmentSettings], *, where: str) -> list[str]:
    """The Markdown table of ``model``'s variables; a field without a description warns."""
    lines = ["| variable | default | meaning |", "|---|---|---|"]
    for name, field in model.model_fields.items():
        first, *aliases = model.names(name)
        variable = f"`{first}`" + "".join(f" (alias `{alias}`)" for alias in aliases)
        if not field.description:
            logger.warning(
                "%s.%s (%s) has no description= for the configuration table",
                model.__name__,
                name,
                first,
                location=where,
            )
        meaning = field.description or ""
        lines.append(f"| {variable} | {cell(shown_default(field))} | {cell(meaning)} |")
    return lines


class SettingsTable(SphinxDirective):
    """``{settings-table} NAME``: the table of one settings model (see the module)."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0].strip()
        known = models()
        if name not in known:
            raise self.error(
                f"settings-table: {name!r} is neither {SHARED!r} nor a registered platform "
                f"({', '.join(sorted(set(known) - {SHARED}))})"
            )
        self._remember(name)
        where = f"{self.env.docname}:{self.lineno}"
        return self.parse_text_to_nodes("\n".join(rows(known[name], where=where)))

    def _remember(self, name: str) -> None:
        tables: dict[str, str] = getattr(self.env, "citebot_settings_tables", {})
        tables[name] = self.env.docname
        self.env.citebot_settings_tables = tables  # type: ignore[attr-defined]


def tables_of(env: BuildEnvironment) -> dict[str, str]:
    """Which page renders each model's table (the build's memory of it)."""
    tables: dict[str, str] = getattr(env, "citebot_settings_tables", {})
    return tables


def forget_page(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """A page read again renders its tables again."""
    tables = tables_of(env)
    for name in [name for name, page in tables.items() if page == docname]:
        del tables[name]


def merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    """A parallel reader's tables join the main build's."""
    env.citebot_settings_tables = {**tables_of(env), **tables_of(other)}  # type: ignore[attr-defined]


def every_model_rendered(app: Sphinx, env: BuildEnvironment) -> None:
    """A settings model no page renders is a warning: its variables would go undocumented."""
    for name in models().keys() - tables_of(env).keys():
        logger.warning(
            "no page renders the settings table of %r: add ```{settings-table} %s``` to "
            "docs/configuration.md",
            name,
            name,
        )


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("settings-table", SettingsTable)
    app.connect("env-purge-doc", forget_page)
    app.connect("env-merge-info", merge)
    app.connect("env-check-consistency", every_model_rendered)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
