"""The bundled demo corpus: citebot's own documentation, one Markdown file a document."""
