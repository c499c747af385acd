"""Leagues over the API: ``/api/leagues``."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.deps import BotDep, ClubDep, MemberDep, OptionalMemberDep
from app.leagues import organizing, reading, service

router = APIRouter(prefix="/api", tags=["leagues"])


class LeagueIn(BaseModel):
    name: str = Field(max_length=80, description="3 to 80 characters")
    game: str = Field(max_length=32, description="the game's code")
    format: Literal["duplikat", "svajcarski"]
    rounds: int = Field(description="rounds (kola) per evening")
    weekday: int = Field(description="0 Monday .. 6 Sunday")
    start_time: str = Field(max_length=5, description="HH:MM, wall time in zone")
    zone: str = Field(default="Europe/Belgrade", max_length=64, description="an IANA time zone")
    first_date: date = Field(description="the season's first evening is the first weekday on or after it")
    evenings: int = Field(description=f"evenings in the season (N), 1 to {service.MAX_EVENINGS}")
    best_of: int = Field(description="the evenings that count (best K of N)")
    skipped_dates: list[date] = Field(default_factory=list, max_length=100, description="dates with no evening")
    open_hours: int = Field(default=24, description="an evening's registration opens this many hours before it")
    settings: dict[str, Any] = Field(default_factory=dict)
    hands: int | None = Field(default=None, description="hands per round, in a game whose round counts hands (a multiple of its step; None: its default)")
    timer: int = Field(default=60, description="seconds per decision")
    round_minutes: int = 90
    pause_minutes: int = 2
    scoring: Literal["places", "percentage"] = Field(
        default="places", description="places: league points by the evening's place (scale); percentage: duplikat %")
    scale: list[float] | None = Field(default=None, max_length=service.MAX_SCALE,
                                      description="places: league points by place, first place first")
    final_top: int | None = Field(default=None, description="a final evening for the top M (None: none)")
    bots_allowed: bool = Field(default=False, description="bot accounts (token scope bot:tournament) may play "
                               "its evenings; their own table, never ranked with the members")

    def spec(self) -> service.LeagueSpec:
        return service.LeagueSpec(
            name=self.name, game=self.game, format=self.format, rounds=self.rounds, weekday=self.weekday,
            start_time=self.start_time, zone=self.zone, first_date=self.first_date, evenings=self.evenings,
            best_of=self.best_of, settings=self.settings, hands=self.hands, timer_seconds=self.timer,
            round_minutes=self.round_minutes, pause_minutes=self.pause_minutes, skipped_dates=self.skipped_dates,
            open_hours=self.open_hours, scoring=self.scoring, scale=self.scale, final_top=self.final_top,
            bots_allowed=self.bots_allowed)


class MoveIn(BaseModel):
    starts_at: datetime = Field(description="the evening's new start, with its zone (2026-12-24T19:00:00+01:00)")


class OrganizerIn(BaseModel):
    name: str = Field(max_length=64, description="the member to name an organizer of this league")


@router.get("/leagues", summary="The leagues: active and finished seasons")
def list_leagues(member: OptionalMemberDep, club: ClubDep):
    return reading.listing(club, member)


@router.post("/leagues", status_code=201, summary="Create a league (the Club's admins and organizers)")
def create(body: LeagueIn, member: MemberDep, club: ClubDep):
    league_id = service.create(club, member, body.spec())
    return reading.detail(club, league_id, member)


@router.get("/leagues/{league_id}", summary="A league: its calendar and its season table")
def get_league(league_id: int, member: OptionalMemberDep, club: ClubDep):
    return reading.detail(club, league_id, member)


@router.post("/leagues/{league_id}/register", summary="Register for the season (from the next evening)")
def register(league_id: int, member: MemberDep, club: ClubDep):
    return service.register(club, member, league_id)


@router.post("/leagues/{league_id}/unregister", summary="Leave the season (from the next evening)")
def unregister(league_id: int, member: MemberDep, club: ClubDep):
    return service.unregister(club, member, league_id)


@router.post("/leagues/{league_id}/evenings/{evening_no}/skip", summary="Skip an evening, in advance")
def skip(league_id: int, evening_no: int, member: MemberDep, club: ClubDep):
    return service.skip(club, member, league_id, evening_no, True)


@router.delete("/leagues/{league_id}/evenings/{evening_no}/skip", summary="Take an evening's skip back")
def unskip(league_id: int, evening_no: int, member: MemberDep, club: ClubDep):
    return service.skip(club, member, league_id, evening_no, False)


@router.post("/leagues/{league_id}/pause", summary="Pause the calendar: no evening is created (its organizer)")
def pause(league_id: int, member: MemberDep, club: ClubDep):
    return organizing.pause(club, member, league_id, True)


@router.post("/leagues/{league_id}/resume",
             summary="Resume the calendar: the evenings missed while paused move to the following weeks")
def resume(league_id: int, member: MemberDep, club: ClubDep):
    return organizing.pause(club, member, league_id, False)


@router.post("/leagues/{league_id}/close",
             summary="Close the season: no more evenings, one not started is cancelled (its organizer)")
def close(league_id: int, member: MemberDep, club: ClubDep):
    return organizing.close(club, member, league_id)


@router.post("/leagues/{league_id}/evenings/{evening_no}/move",
             summary="Move an evening not started (its organizers); its tournament moves with it")
def move(league_id: int, evening_no: int, body: MoveIn, member: MemberDep, club: ClubDep):
    return organizing.move(club, member, league_id, evening_no, body.starts_at)


@router.post("/leagues/{league_id}/organizers", summary="Name a member an organizer of this league (admins)")
def name_organizer(league_id: int, body: OrganizerIn, member: MemberDep, club: ClubDep):
    return organizing.set_organizer(club, member, league_id, body.name, True)


@router.delete("/leagues/{league_id}/organizers/{name}", summary="Take a league's organizer back (admins)")
def drop_organizer(league_id: int, name: str, member: MemberDep, club: ClubDep):
    return organizing.set_organizer(club, member, league_id, name, False)


@router.post("/bot/leagues/{league_id}/register",
             summary="A bot registers for the season of a league that allows bots (scope bot:tournament)")
def bot_register(league_id: int, bot: BotDep, club: ClubDep):
    bot.require("bot:tournament")
    return service.register(club, bot.member, league_id)


@router.post("/bot/leagues/{league_id}/unregister", summary="A bot leaves a league's season (scope bot:tournament)")
def bot_unregister(league_id: int, bot: BotDep, club: ClubDep):
    bot.require("bot:tournament")
    return service.unregister(club, bot.member, league_id)


@router.get("/members/{name}/leagues", summary="A member's leagues: his place and total in each season")
def member_leagues(name: str, member: OptionalMemberDep, club: ClubDep):
    return reading.of_member(club, name)
