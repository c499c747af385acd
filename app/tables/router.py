"""Playing over REST: my view, the legal words, posting a word, presence and chat."""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.parties.slow_frames import table_clocks
from app.parties.slow_reminders import looked
from app.tables import chat, presence, reads, service
from app.tables.words import ACTION_ID_PATTERN
from app.deps import ClubDep, MemberDep
from app.responses import FastJSONResponse

router = APIRouter(prefix="/api/parties/{partie_id}", tags=["tables"])


class ActionIn(BaseModel):
    word: str = Field(max_length=64, description="a word of the record notation, e.g. 'QS', 'dalje', '2'")
    version: int = Field(description="the version of the state the word was decided on")
    action_id: str | None = Field(
        default=None, min_length=1, max_length=64, pattern=ACTION_ID_PATTERN,
        description="client id (no control characters); a resend applies nothing twice",
    )


class TakeoverIn(BaseModel):
    seat: int
    agree: bool = True


class ChatIn(BaseModel):
    text: str = Field(max_length=2000)


@router.get("/view", summary="The table as my seat sees it (spectators: public only)")
def view(partie_id: int, member: MemberDep, club: ClubDep):
    state = reads.table_state(club, partie_id, member)
    if "slow" in state and state.get("seat") in (state.get("to_act") or []):
        looked(club, partie_id, member.id)  # he read his table: no reminder for this decision
    return FastJSONResponse(state)


@router.get("/clocks", summary="A slow partie's clocks: each seat's decision time, bank and vacation left")
def clocks(partie_id: int, member: MemberDep, club: ClubDep):
    return table_clocks(club, partie_id, member.id)


@router.post("/reclaim", summary="Slow partie: take back my seat that the others handed to a computer player",
             responses={409: {"description": "my seat was not voted to a computer player"}})
def reclaim(partie_id: int, member: MemberDep, club: ClubDep):
    return {"seats": presence.reclaim(club, member, partie_id)}


@router.get("/legal", summary="The words my seat may say now")
def legal(partie_id: int, member: MemberDep, club: ClubDep):
    state = reads.table_state(club, partie_id, member)
    return FastJSONResponse({"version": state["version"], "seat": state["seat"], "legal": state.get("legal", [])})


@router.get("/events", summary="The events after a version (or a state frame to resync)")
def events(partie_id: int, member: MemberDep, club: ClubDep,
           since: int = Query(default=0, ge=0, le=2**31,
                              description="the last version I have (default 0: the events from the start)")):
    frames, resync = reads.events_since(club, partie_id, member, since)
    return FastJSONResponse({"events": frames, "state": resync})


@router.post(
    "/actions",
    summary="Say a word for my seat",
    responses={409: {"description": "stale version; error.current is the current state"}, 422: {"description": "illegal word"}},
)
def post_action(partie_id: int, body: ActionIn, member: MemberDep, club: ClubDep):
    applied = service.submit(club, partie_id, member, body.word, body.version, body.action_id)
    state = reads.table_state(club, partie_id, member)
    return JSONResponse(
        {"applied": {"version": applied.version, "word": applied.word, "duplicate": applied.duplicate}, "state": state}
    )


@router.post("/leave", summary="Leave the table for now (the others see me away)")
def leave(partie_id: int, member: MemberDep, club: ClubDep):
    return {"seats": presence.set_away(club, member, partie_id, True)}


@router.post("/back", summary="Come back to the table")
def back(partie_id: int, member: MemberDep, club: ClubDep):
    return {"seats": presence.set_away(club, member, partie_id, False)}


@router.post("/takeover", summary="Agree that a computer player takes an away player's seat")
def takeover(partie_id: int, body: TakeoverIn, member: MemberDep, club: ClubDep):
    return {"seats": presence.vote_takeover(club, member, partie_id, body.seat, body.agree)}


@router.get("/chat", summary="The table's chat")
def get_chat(partie_id: int, member: MemberDep, club: ClubDep):
    return {"messages": chat.history(club, partie_id, member.id)}


@router.post("/chat", status_code=201, summary="Write in the table's chat")
def post_chat(partie_id: int, body: ChatIn, member: MemberDep, club: ClubDep):
    return chat.post(club, member, partie_id, body.text)
