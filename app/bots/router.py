"""Bot accounts over the API: a member's own bots and their tokens (his session), and the
bot API itself under ``/api/bot`` (a bot's token: ``Authorization: Bearer <token>``).
docs/bots.md describes the protocol with a whole session."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.bots import accounts, online
from app.bots.streams import bot_channel
from app.deps import ClubDep, MemberDep
from app.tables import chat

router = APIRouter(prefix="/api/bots", tags=["bot accounts"])


class BotIn(BaseModel):
    name: str = Field(max_length=64, description="the bot's name: 3 to 32 letters, digits, '.', '_' or '-'")


class TokenIn(BaseModel):
    scopes: list[str] = Field(max_length=8, description="of " + ", ".join(accounts.SCOPES))
    days: int = Field(default=accounts.DEFAULT_TOKEN_DAYS,
                      description=f"the token expires after this many days ({accounts.TOKEN_DAYS[0]} to {accounts.TOKEN_DAYS[1]})")
    label: str = Field(default="", max_length=200, description="a note to tell tokens apart")


@router.get("", summary="My bot accounts and their tokens (never the tokens themselves)")
def my_bots(member: MemberDep, club: ClubDep):
    return {"bots": accounts.list_bots(club.db, member)}


@router.post("", status_code=201, summary="Create a bot account that I own",
             responses={409: {"description": "the name is taken, or I own the most bots a member may"}})
def create_bot(body: BotIn, member: MemberDep, club: ClubDep):
    return accounts.create_bot(club.db, member, body.name)


@router.get("/online", summary="The bots online (their event stream open): each with its owner, games and rating")
def bots_online(member: MemberDep, club: ClubDep):
    return {"bots": online.online(club)}


@router.get("/muted", summary="The bots whose chat I muted")
def muted_bots(member: MemberDep, club: ClubDep):
    return {"bots": chat.muted_bots(club, member)}


class ChallengeIn(BaseModel):
    game: str = Field(max_length=32, description="the game's code")
    settings: dict[str, Any] = Field(default_factory=dict, description="the game's settings (as a proposal's)")
    timer: int | None = Field(default=None, description="seconds per decision (as a proposal's); null for none")
    level: str | None = Field(default=None, max_length=32,
                              description="the Club's computer players at the other seats (default: the Club's)")


@router.post("/{name}/challenge", status_code=201,
             summary="Challenge a bot that is online: a proposal inviting it, computer players at the other seats",
             responses={404: {"description": "no such bot"}, 409: {"description": "the bot is not online (bot_offline)"}})
def challenge_bot(name: str, body: ChallengeIn, member: MemberDep, club: ClubDep):
    return online.challenge(club, member, name, body.game, body.settings, body.timer, body.level)


@router.put("/{name}/mute", summary="Mute a bot's chat: its messages are left out of every table's chat I read",
            responses={404: {"description": "no bot of that name"}})
def mute_bot(name: str, member: MemberDep, club: ClubDep):
    return chat.set_muted(club, member, name, True)


@router.delete("/{name}/mute", summary="Read a bot's chat again")
def unmute_bot(name: str, member: MemberDep, club: ClubDep):
    return chat.set_muted(club, member, name, False)


@router.get("/{name}", summary="One of my bots, with its tokens")
def get_bot(name: str, member: MemberDep, club: ClubDep):
    return accounts.get_bot(club.db, member, name)


@router.post("/{name}/tokens", status_code=201,
             summary="A new token of my bot: the answer's token is shown this once (the Club keeps only its SHA-256)")
def create_token(name: str, body: TokenIn, member: MemberDep, club: ClubDep):
    return accounts.create_token(club.db, member, name, body.scopes, body.days, body.label)


@router.delete("/{name}/tokens/{token_id}", summary="Revoke a token of my bot (its open streams end)")
def revoke_token(name: str, token_id: int, member: MemberDep, club: ClubDep):
    bot_id = accounts.revoke_token(club.db, member, name, token_id)
    club.hub.publish(bot_channel(bot_id), {"kind": "token_revoked", "token": token_id})
    return {"ok": True}


@router.post("/{name}/disable", summary="Retire my bot: its tokens stop working until I enable it")
def disable_bot(name: str, member: MemberDep, club: ClubDep):
    bot_id = accounts.set_bot_disabled(club.db, member, name, True)
    club.hub.publish(bot_channel(bot_id), {"kind": "token_revoked", "token": None})
    return {"ok": True}


@router.post("/{name}/enable", summary="Bring my retired bot back")
def enable_bot(name: str, member: MemberDep, club: ClubDep):
    accounts.set_bot_disabled(club.db, member, name, False)
    return {"ok": True}
