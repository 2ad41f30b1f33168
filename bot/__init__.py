"""citebot's platform-free core: the answer client, citations, footnotes and the formatter.

Nothing here imports a platform SDK or ``integrations``; ``bot.__main__`` is the one
composition root that wires the platforms in.
"""
