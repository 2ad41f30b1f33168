"""The answer API: the streaming client, the events it yields, its typed failures, and the
normalisers that turn every provider's citations into one
:class:`~bot.upstream.citations.Citation`."""
