"""The Microsoft Teams adapter's lower half: Teams' settings, limits, Markdown, citation cards
and presenter, the Bot Framework's authentication both ways, the connector client, a personal
chat's stream and the app manifest, on the Teams SDK's models (``microsoft-teams-api``,
``microsoft-teams-cards``; docs/decisions.md, "Teams SDK").

The SDK is imported only by the modules that build or send activities, so the registry entry
(``platform.py``) stays light.
"""
