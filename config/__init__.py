"""Settings (pydantic-settings): the variables of CONTRACT.md and the worker's knobs."""

from config.settings import DEMO, Settings, SettingsError, load_settings

__all__ = ["DEMO", "Settings", "SettingsError", "load_settings"]
