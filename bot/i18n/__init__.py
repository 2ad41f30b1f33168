"""citebot's own words in the asker's language: the sentences and labels (``wording``, gettext
catalogues in ``locale/``) and the instruction that asks the upstream for that language."""
