"""A request's body read by a middleware before the app, and given to the app again."""

from __future__ import annotations

from starlette.types import Message, Receive


async def read_body(receive: Receive, limit: int) -> tuple[list[Message], bytes | None]:
    """Every request message up to the end of the body; the body, or None when over ``limit``."""
    messages: list[Message] = []
    body = b""
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, body
        body += message.get("body", b"")
        if len(body) > limit:
            return messages, None
        if not message.get("more_body", False):
            return messages, body


def replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives the messages already read first, then the rest."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed
