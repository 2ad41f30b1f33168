"""The Discord adapter: ``/ask`` streamed into the interaction response, cards in a thread.

discord.py imports the stdlib ``audioop`` (voice support we never use), which warns with a
DeprecationWarning on Python 3.11+; import it once here with that warning silenced so a
warnings-as-errors test run doesn't fail on an import we cannot change.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: F401
