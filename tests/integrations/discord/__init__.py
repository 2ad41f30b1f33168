import integrations.discord  # noqa: F401  (imports discord.py with its audioop warning silenced)
