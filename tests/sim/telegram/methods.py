"""The methods that make what a person reads: messages, edits, deletions, chat actions, drafts.

Telegram's words, from tdlib/telegram-bot-api ``Client.cpp`` and the errors Telegram passes
through: "chat not found", "message thread not found", "message to be replied not found" (unless
``allow_sending_without_reply``), "message to edit not found", "message to delete not found",
"message can't be edited", "message can't be deleted", "message is not modified: specified new
message content and reply markup are exactly the same as a current content and reply markup of
the message", "TEXTDRAFT_PEER_INVALID" (a draft outside a private chat), "Forbidden: bot can't
initiate conversation with a user", "Forbidden: bot is not a member of the group chat".
``editMessageText`` without ``reply_markup`` takes the inline keyboard away, as Telegram does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.sim.telegram.model import SimChat, SimDraft, SimMessage
from tests.sim.telegram.rich import RichRefused, read_rich
from tests.sim.telegram.text import Formatted, TextRefused, format_text, readable
from tests.sim.telegram.wire import ApiError, Violation, bad_request

if TYPE_CHECKING:
    from tests.sim.telegram.server import Handler
    from tests.sim.telegram.sim import TelegramSim

__all__ = ["MESSAGE_HANDLERS"]

TEXT_MAX = 4096
_NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the"
    " same as a current content and reply markup of the message"
)


def _refused(sim: TelegramSim, method: str, values: dict[str, Any], detail: str) -> ApiError:
    """A refusal of the request's own making (its formatting, its length): a violation."""
    sim.violations.append(Violation(method, detail, values))
    return bad_request(detail)


def _writable(sim: TelegramSim, values: dict[str, Any]) -> SimChat:
    chat = sim.find_chat(values.get("chat_id"))
    if chat is None:
        raise bad_request("chat not found")
    if chat.kind == "private" and chat.user is not None and chat.user.id in sim.blocked_by:
        raise ApiError(403, "Forbidden: bot was blocked by the user")
    if chat.kind == "private" and not chat.members:
        raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
    if chat.kind != "private" and sim.bot.id not in chat.members:
        kind = "supergroup chat" if chat.kind == "supergroup" else "group chat"
        raise ApiError(403, f"Forbidden: bot is not a member of the {kind}")
    return chat


def _thread(chat: SimChat, values: dict[str, Any]) -> int | None:
    thread = values.get("message_thread_id")
    if thread is not None and thread not in chat.topics:
        raise bad_request("message thread not found")
    return thread if isinstance(thread, int) else None


def _reply_target(chat: SimChat, values: dict[str, Any]) -> SimMessage | None:
    reply = values.get("reply_parameters")
    if not reply:
        return None
    target = chat.message(reply["message_id"])
    if target is None and not reply.get("allow_sending_without_reply"):
        raise bad_request("message to be replied not found")
    return target


def _text(
    sim: TelegramSim, method: str, values: dict[str, Any], *, allow_empty: bool = False
) -> Formatted:
    try:
        formatted = format_text(
            str(values.get("text", "")),
            values.get("parse_mode"),
            values.get("entities"),
            limit=TEXT_MAX,
            allow_empty=allow_empty,
        )
    except TextRefused as refused:
        raise _refused(sim, method, values, str(refused)) from refused
    return _mentioned(sim, formatted)


def _mentioned(sim: TelegramSim, formatted: Formatted) -> Formatted:
    """A ``text_mention`` names the whole user it mentions (``MessageEntity.user``: a User);
    one of a user Telegram does not know to the bot is no mention (html-style: "mentions of a
    user by id work only if the user is known to the bot"), its words plain text."""
    kept: list[dict[str, Any]] = []
    for entity in formatted.entities:
        if entity["type"] == "text_mention":
            known = sim.users.get(int(entity["user"]["id"]))
            if known is None:
                continue
            entity = {**entity, "user": known.payload()}
        kept.append(entity)
    formatted.entities = kept
    return formatted


def _rich(sim: TelegramSim, method: str, values: dict[str, Any]) -> str:
    try:
        return read_rich(values["rich_message"]).text
    except RichRefused as refused:
        raise _refused(sim, method, values, str(refused)) from refused


def _keyboard(values: dict[str, Any]) -> list[list[dict[str, Any]]]:
    markup = values.get("reply_markup") or {}
    return list(markup.get("inline_keyboard", []))


async def _post(sim: TelegramSim, values: dict[str, Any], method: str) -> dict[str, Any]:
    chat = _writable(sim, values)
    thread = _thread(chat, values)
    reply_to = _reply_target(chat, values)
    if reply_to is not None and thread is None:
        thread = reply_to.thread_id
    message = sim.new_message(chat, sim.bot, thread_id=thread, reply_to=reply_to)
    if method == "sendRichMessage":
        message.rich, message.rich_text = values["rich_message"], _rich(sim, method, values)
    else:
        formatted = _text(sim, method, values)
        message.text, message.entities = formatted.text, formatted.entities
    message.keyboard = _keyboard(values)
    message.link_preview = values.get("link_preview_options")
    sim.post(message)
    return message.payload()


async def send_message(sim: TelegramSim, values: dict[str, Any]) -> dict[str, Any]:
    return await _post(sim, values, "sendMessage")


async def send_rich_message(sim: TelegramSim, values: dict[str, Any]) -> dict[str, Any]:
    return await _post(sim, values, "sendRichMessage")


def _own_message(sim: TelegramSim, values: dict[str, Any], purpose: str) -> SimMessage:
    if values.get("inline_message_id") is not None:
        raise _refused(sim, purpose, values, "the simulator does not model inline messages")
    chat = sim.find_chat(values.get("chat_id"))
    if chat is None:
        raise bad_request("chat not found")
    message = chat.message(values.get("message_id", 0))
    if message is None:
        raise bad_request("message to edit not found")
    if message.sender is not sim.bot:
        raise bad_request("message can't be edited")
    return message


async def edit_message_text(sim: TelegramSim, values: dict[str, Any]) -> dict[str, Any]:
    message = _own_message(sim, values, "editMessageText")
    keyboard = _keyboard(values)
    if values.get("rich_message") is not None:
        rich, rich_text = values["rich_message"], _rich(sim, "editMessageText", values)
        if (
            message.rich is not None
            and rich_text == message.rich_text
            and keyboard == message.keyboard
        ):
            raise bad_request(_NOT_MODIFIED)
        before = message.readable
        message.rich, message.rich_text, message.text, message.entities = rich, rich_text, "", []
    else:
        formatted = _text(sim, "editMessageText", values)
        same = (formatted.text, formatted.entities) == (message.text, message.entities)
        if message.rich is None and same and keyboard == message.keyboard:
            raise bad_request(_NOT_MODIFIED)
        before = message.readable
        message.rich, message.text, message.entities = None, formatted.text, formatted.entities
        if "link_preview_options" in values:
            message.link_preview = values["link_preview_options"]
    message.keyboard = keyboard
    sim.edited(message, before)
    return message.payload()


async def edit_message_reply_markup(sim: TelegramSim, values: dict[str, Any]) -> dict[str, Any]:
    message = _own_message(sim, values, "editMessageReplyMarkup")
    keyboard = _keyboard(values)
    if keyboard == message.keyboard:
        raise bad_request(_NOT_MODIFIED)
    message.keyboard = keyboard
    sim.edited(message, message.readable)
    return message.payload()


async def delete_message(sim: TelegramSim, values: dict[str, Any]) -> bool:
    chat = sim.find_chat(values.get("chat_id"))
    if chat is None:
        raise bad_request("chat not found")
    message = chat.message(values["message_id"])
    if message is None:
        raise bad_request("message to delete not found")
    member = chat.members.get(sim.bot.id)
    admin = member is not None and member.status == "administrator"
    if message.sender is not sim.bot and chat.kind != "private" and not admin:
        raise bad_request("message can't be deleted")
    message.deleted = True
    sim.touch()
    return True


async def send_chat_action(sim: TelegramSim, values: dict[str, Any]) -> bool:
    chat = _writable(sim, values)
    sim.actions.append((chat, _thread(chat, values), str(values["action"]), sim.now()))
    return True


def _draft(sim: TelegramSim, values: dict[str, Any], method: str) -> SimDraft:
    chat = sim.find_chat(values.get("chat_id"))
    if chat is None:
        raise bad_request("chat not found")
    if chat.kind != "private":
        raise bad_request("TEXTDRAFT_PEER_INVALID")
    _writable(sim, values)
    if values["draft_id"] == 0:
        raise _refused(sim, method, values, "draft_id must be non-zero")
    thread = _thread(chat, values)
    key = (chat.id, int(values["draft_id"]))
    draft = sim.drafts.get(key)
    if draft is None or not draft.showing(sim.now(), sim.draft_ttl):
        draft = sim.drafts[key] = SimDraft(chat=chat, draft_id=key[1], thread_id=thread)
    return draft


async def send_message_draft(sim: TelegramSim, values: dict[str, Any]) -> bool:
    draft = _draft(sim, values, "sendMessageDraft")
    formatted = _text(sim, "sendMessageDraft", values, allow_empty=True)
    draft.history.append(readable(formatted.text, formatted.entities))
    draft.updated_at = sim.now()
    sim.touch()
    return True


async def send_rich_message_draft(sim: TelegramSim, values: dict[str, Any]) -> bool:
    draft = _draft(sim, values, "sendRichMessageDraft")
    draft.history.append(_rich(sim, "sendRichMessageDraft", values))
    draft.updated_at = sim.now()
    sim.touch()
    return True


MESSAGE_HANDLERS: dict[str, Handler] = {
    "sendMessage": send_message,
    "sendRichMessage": send_rich_message,
    "editMessageText": edit_message_text,
    "editMessageReplyMarkup": edit_message_reply_markup,
    "deleteMessage": delete_message,
    "sendChatAction": send_chat_action,
    "sendMessageDraft": send_message_draft,
    "sendRichMessageDraft": send_rich_message_draft,
}
