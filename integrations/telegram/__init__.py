"""The Telegram adapter: questions from private chats and groups through the Bot API (aiogram
3), answers streamed into a draft or an edited message, the cards as rich messages replying to
the answer."""
