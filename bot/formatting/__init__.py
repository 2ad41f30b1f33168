"""The formatter's parts: writing blocks in a dialect (writer) and the answer formatter."""
