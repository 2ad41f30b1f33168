"""Sphinx's configuration for citebot's documentation site: MyST Markdown pages, the Furo theme.

Built strictly (``sphinx-build -W --keep-going -n -b html docs docs/_build/html``): every
warning is an error and every internal link and heading anchor must resolve. Nothing is fetched
from the network at build time (no intersphinx, no linkcheck), so the build runs anywhere the
``docs`` extra is installed.
"""

from __future__ import annotations

import sys
from importlib.metadata import version as installed_version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "citebot"
author = "The citebot team"
copyright = "2026, The citebot team"
release = installed_version("citebot")
version = release

extensions = ["myst_parser", "settings_table"]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "**/README.md"]

# Every heading up to ###### gets the anchor GitHub gives it, so a link such as
# ``decisions.md#quote-checking-botverify`` works on the site and on GitHub alike, and
# ``-n`` makes one that matches no heading an error.
myst_heading_anchors = 6
myst_enable_extensions = ["colon_fence", "deflist"]

nitpicky = True
highlight_language = "text"

html_theme = "furo"
html_title = f"citebot {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
