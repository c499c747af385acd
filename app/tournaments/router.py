"""Tournaments over the API, mirroring the pages: ``/api/tournaments``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.deps import ClubDep, MemberDep
from app.games.registry import codes
from app.tournaments import reading, service
from app.tournaments import traveller as travellers

router = APIRouter(prefix="/api", tags=["tournaments"])


class TournamentIn(BaseModel):
    name: str = Field(max_length=80, description="3 to 80 characters")
    game: str = Field(max_length=32, description="the game's code: " + ", ".join(codes()))
    format: Literal["duplikat", "svajcarski"] = Field(
        description="duplikat: matchpoints on the same deals (T4); svajcarski: place points (T5)")
    rounds: int = Field(description=f"rounds (kola), 1 to {service.MAX_ROUNDS}")
    start_at: datetime = Field(description="ISO 8601 with its time zone; registration closes then")
    settings: dict[str, Any] = Field(default_factory=dict,
                                     description="the game's settings (the Club's rules by default; house rules are unrated)")
    hands: int | None = Field(default=None, description="hands per round, in a game whose round counts hands (a multiple of its step; None: its default)")
    timer: int = Field(default=60, description="seconds per decision, 15 to 300 (required in tournaments)")
    round_minutes: int = Field(default=90, description="a round's deadline after its start (T3)")
    pause_minutes: int = Field(default=2, description="minutes between the end of a round and the next")
    robot_field: bool = Field(default=False, description="the Club's majstor players play every round too (T4)")
    bots_allowed: bool = Field(default=False, description="bot accounts (token scope bot:tournament) may register")
    place_points: list[float] | None = Field(default=None, description="svajcarski: points by place (T5)")
    seeding: Literal["random", "rating"] = Field(default="random", description="round 1: random or snake by rating")

    def spec(self) -> service.TournamentSpec:
        return service.TournamentSpec(
            name=self.name, game=self.game, format=self.format, rounds=self.rounds, start_at=self.start_at,
            settings=self.settings, hands=self.hands, timer_seconds=self.timer, round_minutes=self.round_minutes,
            pause_minutes=self.pause_minutes, robot_field=self.robot_field, bots_allowed=self.bots_allowed, place_points=self.place_points,
            seeding=self.seeding)


class RemoveIn(BaseModel):
    name: str = Field(max_length=64)


class OrganizerIn(BaseModel):
    organizer: bool = True


@router.get("/tournaments", summary="Upcoming, running and finished tournaments")
def list_tournaments(member: MemberDep, club: ClubDep):
    return reading.listing(club, member)


@router.post("/tournaments", status_code=201, summary="Create a tournament (admins and organizers)")
def create(body: TournamentIn, member: MemberDep, club: ClubDep):
    tournament_id = service.create(club, member, body.spec())
    return reading.detail(club, tournament_id, member)


@router.get("/tournaments/{tournament_id}", summary="A tournament: settings, players, rounds, standings")
def get_tournament(tournament_id: int, member: MemberDep, club: ClubDep):
    return reading.detail(club, tournament_id, member)


@router.post("/tournaments/{tournament_id}/register", summary="Register (late join until half the rounds started)")
def register(tournament_id: int, member: MemberDep, club: ClubDep):
    return service.register(club, member, tournament_id)


@router.post("/tournaments/{tournament_id}/leave",
             summary="Undo my registration (before my first round), or withdraw for good (T7, T10): "
                     "a table I still play in the running round goes to the computer player")
def leave(tournament_id: int, member: MemberDep, club: ClubDep):
    return service.leave(club, member, tournament_id)


@router.post("/tournaments/{tournament_id}/start", summary="Start the next round now (its organizer)")
def start(tournament_id: int, member: MemberDep, club: ClubDep):
    return service.start_now(club, member, tournament_id)


@router.post("/tournaments/{tournament_id}/pause", summary="No new round starts until resumed (its organizer)")
def pause(tournament_id: int, member: MemberDep, club: ClubDep):
    return service.pause(club, member, tournament_id, True)


@router.post("/tournaments/{tournament_id}/resume", summary="Resume a paused tournament (its organizer)")
def resume(tournament_id: int, member: MemberDep, club: ClubDep):
    return service.pause(club, member, tournament_id, False)


@router.post("/tournaments/{tournament_id}/remove", summary="Remove a player; a computer player takes his seat")
def remove(tournament_id: int, body: RemoveIn, member: MemberDep, club: ClubDep):
    return service.remove_player(club, member, tournament_id, body.name)


@router.get("/tournaments/{tournament_id}/standings", summary="The standings after the ended rounds")
def standings(tournament_id: int, member: MemberDep, club: ClubDep):
    data = reading.detail(club, tournament_id, member)
    return {"tournament": tournament_id, "format": data["format"], "standings": data["standings"]}


@router.get("/tournaments/{tournament_id}/rounds", summary="Each round's tables (T8: others' tables after the round)")
def rounds_of(tournament_id: int, member: MemberDep, club: ClubDep):
    data = reading.detail(club, tournament_id, member)
    return {"tournament": tournament_id, "rounds": data["rounds_played"]}


@router.get("/tournaments/{tournament_id}/rounds/{round_no}/boards/{board}",
            summary="A board's traveller: every table's result for each seat, with matchpoints")
def traveller(tournament_id: int, round_no: int, board: int, member: MemberDep, club: ClubDep):
    return travellers.traveller(club, tournament_id, round_no, board, member)


@router.post("/members/{name}/organizer", summary="Name a member an organizer of tournaments (admins)")
def organizer(name: str, body: OrganizerIn, member: MemberDep, club: ClubDep):
    return service.set_organizer(club, member, name, body.organizer)
