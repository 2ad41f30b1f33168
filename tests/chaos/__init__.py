"""The chaos suite: real processes and servers failing the way production does, each test
asserting what a person sees."""

import integrations.discord  # noqa: F401  (imports discord.py with its audioop warning silenced)
