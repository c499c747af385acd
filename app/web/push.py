"""Push notices over HTTP: the Club's public key, a device's subscription, the texts.

- ``GET /api/push/key``: the VAPID public key (base64url), the ``applicationServerKey``
  of the page's ``pushManager.subscribe()``.
- ``POST /api/push/subscriptions``: switch notices on for this device (the body is the
  browser's ``PushSubscription.toJSON()``, and ``lang``, the page's language by default).
- ``DELETE /api/push/subscriptions``: switch them off (``{"endpoint": ...}``).
- ``GET /api/push/subscriptions``: my devices (never their endpoints).

What is pushed and when: app/push/outbox.py; the texts here, in the device's language.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from app.deps import ClubDep, MemberDep
from app.errors import ClubError, Invalid
from app.games.registry import descriptors
from app.push import subscriptions
from app.web.i18n import LANGUAGES, N_, gettext_for, lang_of

router = APIRouter(prefix="/api/push", tags=["push"])

# The texts of the pushes (the page's toasts say the same, static/js/notices.js).
PUSH_TEXTS = {
    "invited": N_("{by} invites you to {game} #{partie}"),
    "rematch": N_("{by} asks for a rematch: {game} #{partie}"),
    "started": N_("{game} #{partie} has started"),
    "turn": N_("Your turn: {game} #{partie}"),
    "reminder": N_("Reminder: your turn at {game} #{partie} is waiting, and its time is running out"),
    "round": N_("{name}: round {round} has begun, your table is #{partie}"),
    "ended": N_("{game} #{partie} has ended"),
    "evening": N_("{name} begins in {minutes} min"),
}
TITLE = "Klub"


def describe(lang: str, notice: dict[str, Any], game: str | None) -> dict[str, str]:
    """A push's title, text and page (where a click on it leads) in a language."""
    _ = gettext_for(lang if lang in LANGUAGES else "sr-Latn")
    kind = notice.get("kind", "")
    names = {g.code: g.name(lang) for g in descriptors()}
    key = "rematch" if kind == "invited" and notice.get("rematch_of") is not None else kind
    values = {
        "by": notice.get("by", ""), "game": names.get(game or "", game or ""), "partie": notice.get("partie", ""),
        "name": notice.get("name", ""), "round": notice.get("round", ""), "minutes": notice.get("minutes", ""),
    }
    body = _(PUSH_TEXTS.get(key, "{game} #{partie}")).format(**values)
    partie = notice.get("partie")
    url = "/lobby" if kind == "invited" or not isinstance(partie, int) else \
        f"/archive/{partie}" if kind == "ended" else f"/table/{partie}"
    if kind == "evening" and isinstance(notice.get("league"), int):
        url = f"/leagues/{notice['league']}"
    return {"title": TITLE, "body": body, "url": url}


class Keys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: StrictStr = Field(max_length=200, description="the browser's P-256 public key, base64url (65 bytes)")
    auth: StrictStr = Field(max_length=100, description="the browser's authentication secret, base64url (16 bytes)")


class SubscriptionIn(BaseModel):
    """``PushSubscription.toJSON()`` of the browser, and the notices' language."""

    model_config = ConfigDict(extra="forbid")
    endpoint: StrictStr = Field(max_length=4096, description="the push service's URL for this browser (https)")
    keys: Keys
    expirationTime: int | None = Field(default=None, description="as the browser gives it; not used")
    lang: StrictStr | None = Field(default=None, max_length=16,
                                   description="the notices' language: sr-Latn or en (default: the page's)")


class EndpointIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: StrictStr = Field(max_length=4096)


def _push(club):
    if club.push is None:
        raise ClubError("push notices are not running on this server", code="push_unavailable", status=503)
    return club.push


@router.get("/key", summary="The Club's VAPID public key (the applicationServerKey of a subscription)")
async def public_key(club: ClubDep):
    key = await run_in_threadpool(lambda: _push(club).public_key)
    return {"public_key": key}


@router.post(
    "/subscriptions",
    summary="Switch push notices on for this device (at most 5 devices per member: the oldest goes)",
    responses={201: {"description": "a new device"}, 200: {"description": "a device already known, refreshed"},
               422: {"description": "a bad endpoint (https only) or keys"}},
)
async def subscribe(body: SubscriptionIn, request: Request, member: MemberDep, club: ClubDep):
    lang = body.lang if body.lang is not None else lang_of(request)
    if lang not in LANGUAGES:
        raise Invalid(f"lang is one of {', '.join(LANGUAGES)}", code="invalid_lang")
    _push(club)
    out = await run_in_threadpool(subscriptions.subscribe, club, member, body.endpoint, body.keys.p256dh,
                                  body.keys.auth, lang)
    return JSONResponse(out, status_code=201 if out["created"] else 200)


@router.delete(
    "/subscriptions",
    summary="Switch push notices off for a device of mine",
    responses={404: {"description": "no device of mine has this endpoint"}},
)
async def unsubscribe(body: EndpointIn, member: MemberDep, club: ClubDep):
    await run_in_threadpool(subscriptions.unsubscribe, club, member, body.endpoint)
    return {"removed": True}


@router.get("/subscriptions", summary="My devices that get push notices")
async def my_devices(member: MemberDep, club: ClubDep):
    return {"devices": await run_in_threadpool(subscriptions.devices, club, member),
            "max": subscriptions.MAX_PER_MEMBER}
