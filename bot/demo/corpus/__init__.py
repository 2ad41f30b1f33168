"""The bundled demo corpus: citebot's own documentation, one Markdown file a document.

Each file opens with an HTML comment naming its author, year, the question it answers (which
the demo offers as a related question) and its ``source_url``: where the file lives in the
project's repository, https://github.com/citebot/citebot, so citation cards have a link.
Change those URLs here if the repository moves.
"""
