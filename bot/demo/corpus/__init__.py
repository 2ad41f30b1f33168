"""The bundled demo corpus: citebot's own documentation, one Markdown file a document.

Each file opens with an HTML comment naming its author, year and the question it answers (which
the demo offers as a related question). The files name no ``source_url``: the demo serves each
as a page of its own (``/corpus/{slug}``) and its citations link there, so the cards' links open
and quote checking can read them, offline.
"""
