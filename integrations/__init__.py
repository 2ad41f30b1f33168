"""Per-platform adapters: each translates between one platform and the core."""
