"""Matching a question against a place's own answers (:func:`best_match`), in the language
the place speaks: see :mod:`bot.matching.match` for the rule and ``python -m bench`` for what
it measures."""

from bot.matching.match import THRESHOLD, best_match, similarity
from bot.matching.reading import Reading, language_of, read_question

__all__ = ["THRESHOLD", "Reading", "best_match", "language_of", "read_question", "similarity"]
