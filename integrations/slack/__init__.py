"""The Slack adapter: mentions and DMs answered in their thread (streamed natively in the app's
DM, posted and edited in channels), the cards as Block Kit replies.

slack-bolt is imported only by ``run`` and ``app``, so ``citebot ask --platform slack`` (which
needs just the presenter) stays light.
"""
