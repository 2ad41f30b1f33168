"""The bot, its chats and their members, its commands, callback answers, and the update methods.

A callback query can be answered once, and only for a while: Telegram documents no figure, and
answers a late or second answer with "query is too old and response timeout expired or query ID
is invalid" (``QUERY_ID_INVALID``); about 15 seconds was measured
(gist d-Rickyy-b/f789c75228bf00f572eec4450ed0d7c9), the simulator's ``callback_ttl``.
``getMe`` says ``can_read_all_group_messages: false`` while privacy mode is on.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tests.sim.telegram.model import SimChat, SimMember
from tests.sim.telegram.wire import bad_request

if TYPE_CHECKING:
    from tests.sim.telegram.server import Handler
    from tests.sim.telegram.sim import TelegramSim

__all__ = ["CHAT_HANDLERS"]

_QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"


async def get_me(sim: TelegramSim, values: dict[str, Any]) -> dict[str, Any]:
    return {
        **sim.bot.payload(),
        "can_join_groups": True,
        "can_read_all_group_messages": not sim.privacy_mode,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


def _chat(sim: TelegramSim, values: dict[str, Any]) -> SimChat:
    chat = sim.find_chat(values.get("chat_id"))
    if chat is None or (chat.kind != "private" and sim.bot.id not in chat.members):
        raise bad_request("chat not found")
    return chat


async def get_chat(sim: TelegramSim, values: dict[str, Any]) -> dict[str, Any]:
    chat = _chat(sim, values)
    return {
        **chat.payload(),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": dict.fromkeys(
            [
                "unlimited_gifts",
                "limited_gifts",
                "unique_gifts",
                "premium_subscription",
                "gifts_from_channels",
            ],
            False,
        ),
    }


def _members(sim: TelegramSim, chat: SimChat) -> dict[int, SimMember]:
    if chat.kind == "private" and chat.user is not None:
        return {chat.user.id: SimMember(chat.user), sim.bot.id: SimMember(sim.bot)}
    return chat.members


async def get_chat_member(sim: TelegramSim, values: dict[str, Any]) -> dict[str, Any]:
    chat = _chat(sim, values)
    member = _members(sim, chat).get(values["user_id"])
    if member is not None:
        return member.payload()
    user = sim.users.get(values["user_id"])
    if user is None:
        raise bad_request("user not found")
    return {"status": "left", "user": user.payload()}


async def get_chat_administrators(sim: TelegramSim, values: dict[str, Any]) -> list[dict[str, Any]]:
    chat = _chat(sim, values)
    if chat.kind == "private":
        raise bad_request("there are no administrators in the private chat")
    return [
        member.payload()
        for member in chat.members.values()
        if member.status in ("creator", "administrator")
        and (not member.user.is_bot or member.user is sim.bot or values.get("return_bots"))
    ]


def _scope_key(values: dict[str, Any]) -> tuple[str, str]:
    scope = values.get("scope") or {"type": "default"}
    return json.dumps(scope, sort_keys=True), str(values.get("language_code", ""))


async def set_my_commands(sim: TelegramSim, values: dict[str, Any]) -> bool:
    sim.commands[_scope_key(values)] = list(values["commands"])
    sim.touch()
    return True


async def get_my_commands(sim: TelegramSim, values: dict[str, Any]) -> list[dict[str, Any]]:
    return sim.commands.get(_scope_key(values), [])


async def delete_my_commands(sim: TelegramSim, values: dict[str, Any]) -> bool:
    sim.commands.pop(_scope_key(values), None)
    return True


async def answer_callback_query(sim: TelegramSim, values: dict[str, Any]) -> bool:
    callback = sim.callbacks.get(str(values["callback_query_id"]))
    if callback is None or callback.answered or sim.now() - callback.created > sim.callback_ttl:
        raise bad_request(_QUERY_INVALID)
    callback.answered = True
    callback.answer = {k: v for k, v in values.items() if k != "callback_query_id"}
    sim.touch()
    return True


async def get_updates(sim: TelegramSim, values: dict[str, Any]) -> list[dict[str, Any]]:
    return await sim.updates.get_updates(values)


async def set_webhook(sim: TelegramSim, values: dict[str, Any]) -> bool:
    return await sim.updates.set_webhook(values)


async def delete_webhook(sim: TelegramSim, values: dict[str, Any]) -> bool:
    return await sim.updates.delete_webhook(values)


async def get_webhook_info(sim: TelegramSim, values: dict[str, Any]) -> dict[str, Any]:
    return sim.updates.webhook_info()


CHAT_HANDLERS: dict[str, Handler] = {
    "getMe": get_me,
    "getChat": get_chat,
    "getChatMember": get_chat_member,
    "getChatAdministrators": get_chat_administrators,
    "setMyCommands": set_my_commands,
    "getMyCommands": get_my_commands,
    "deleteMyCommands": delete_my_commands,
    "answerCallbackQuery": answer_callback_query,
    "getUpdates": get_updates,
    "setWebhook": set_webhook,
    "deleteWebhook": delete_webhook,
    "getWebhookInfo": get_webhook_info,
}
