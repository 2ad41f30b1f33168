"""The formatter: a streamed answer in, a platform's messages out.

Layered top to bottom: ``formatter`` (the one entry point, :class:`AnswerFormatter`) drives
``blocks`` (deltas -> complete Markdown blocks), ``document`` (markdown-it-py -> a small model),
``write`` (model -> platform text with split points), ``pack`` (text -> messages that never
move), ``numbering`` (footnote numbers) and ``thread`` (cards into messages), over ``text``
(the shared text rules). ``ports`` is what a platform implements; ``commonmark`` the Markdown
most platforms share.
"""
