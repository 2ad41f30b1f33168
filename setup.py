"""The build compiles citebot's gettext catalogues with Babel, so no ``.mo`` is ever committed.

``compile_catalogues`` is a sub-command of ``build``: a wheel (``pip install .``) gets the
``.mo`` files in its build directory; an editable install (``pip install -e .``, PEP 660: setuptools
runs ``build``'s sub-commands with ``editable_mode``) writes them next to their ``.po`` in the
source tree, where the editable ``bot`` package reads them. Everything else is in pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import Command, setup
from setuptools.command.build import build

CATALOGUES = "bot/i18n/locale/*/LC_MESSAGES/*.po"


class compile_catalogues(Command):
    description = "compile the gettext catalogues (.po) to .mo with Babel"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        self.build_lib: str | None = None
        self.editable_mode = False

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def _targets(self) -> dict[Path, Path]:
        """Each catalogue's .mo for its .po; in place for an editable install."""
        root = Path() if self.editable_mode else Path(self.build_lib or "build")
        return {po: root / po.with_suffix(".mo") for po in sorted(Path().glob(CATALOGUES))}

    def run(self) -> None:
        for po, mo in self._targets().items():
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parents[1].name)
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as target:
                write_mo(target, catalog)  # fuzzy entries are left out, as msgfmt does

    def get_source_files(self) -> list[str]:
        return [str(po) for po in self._targets()]

    def get_outputs(self) -> list[str]:
        return [] if self.editable_mode else [str(mo) for mo in self._targets().values()]

    def get_output_mapping(self) -> dict[str, str]:
        return {}


class build_with_catalogues(build):
    sub_commands: ClassVar = [*build.sub_commands, ("compile_catalogues", None)]


setup(cmdclass={"build": build_with_catalogues, "compile_catalogues": compile_catalogues})
