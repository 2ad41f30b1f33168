"""One module per registered platform, named as it is registered, each defining ``PLATFORM``
(a :class:`tests.integrations.conformance.kit.Conformance`)."""

import integrations.discord  # noqa: F401  (imports discord.py with its audioop warning silenced)
