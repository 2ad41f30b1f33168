"""Settings (pydantic-settings): the variables operators set and the worker's knobs.

``Settings`` is what every platform shares; each platform defines its own variables on
``PlatformSettings`` in its package.
"""

from config.environment import EnvironmentSettings, PlatformSettings, SettingsError
from config.settings import DEMO, Settings, load_settings

__all__ = [
    "DEMO",
    "EnvironmentSettings",
    "PlatformSettings",
    "Settings",
    "SettingsError",
    "load_settings",
]
