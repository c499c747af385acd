"""Leagues as the API reads them: the listing, a league with its calendar and its season
table (recomputed from the evenings' final standings, app/leagues/season.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from app.db.models import League, LeagueMember, LeagueSkip, Member
from app.errors import NotFound
from app.members.service import CurrentMember
from app.zones import zone

from app.leagues import calendar, evenings, organizing, season
from app.leagues.service import next_open

if TYPE_CHECKING:
    from app.club import Club


def summary(lg: League) -> dict[str, Any]:
    return {
        "id": lg.id, "name": lg.name, "game": lg.game, "settings": lg.settings, "format": lg.format,
        "rounds": lg.rounds, "hands": lg.hands, "timer": lg.timer_seconds, "round_minutes": lg.round_minutes,
        "pause_minutes": lg.pause_minutes, "weekday": lg.weekday, "start_time": lg.start_time, "zone": lg.zone,
        "first_date": lg.first_date.isoformat(), "evenings": lg.evenings, "skipped_dates": list(lg.skipped_dates or []),
        "open_hours": lg.open_hours, "scoring": lg.scoring, "scale": lg.scale, "best_of": lg.best_of,
        "final_top": lg.final_top, "bots_allowed": bool(lg.bots_allowed), "moves": dict(lg.moves or {}),
        "status": lg.status,
        "finished_at": lg.finished_at.isoformat() if lg.finished_at else None,
    }


def listing(club: Club, member: CurrentMember | None) -> dict[str, list[dict[str, Any]]]:
    """Upcoming (no evening started yet), running and finished seasons; each with its next
    evening not started (number and start) and whether the reader is registered."""
    out: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
    with club.db.read() as s:
        rows = list(s.scalars(select(League).order_by(League.first_date.desc(), League.id.desc()).limit(200)))
        mine = set()
        if member is not None:
            mine = set(s.scalars(select(LeagueMember.league_id).where(
                LeagueMember.member_id == member.id, LeagueMember.until_evening.is_(None))))
        for lg in rows:
            first_open, _ = next_open(s, lg)
            upcoming = first_open <= lg.evenings
            item = {**summary(lg), "mine": lg.id in mine, "next_evening": first_open if upcoming else None,
                    "next_starts_at": calendar.league_starts(lg)[first_open - 1].isoformat() if upcoming else None}
            kind = "finished" if lg.status in ("finished", "closed") else "upcoming" if first_open == 1 else "running"
            out[kind].append(item)
    return out


def season_table(club: Club, league_id: int) -> list[season.SeasonRow]:
    with club.db.read() as s:
        lg = s.get(League, league_id)
        if lg is None:
            raise NotFound(f"there is no league {league_id}", code="no_such_league")
        return evenings.season_rows(s, lg, evenings.evenings_of(s, lg.id))


def detail(club: Club, league_id: int, member: CurrentMember | None) -> dict[str, Any]:
    with club.db.read() as s:
        lg = s.get(League, league_id)
        if lg is None:
            raise NotFound(f"there is no league {league_id}", code="no_such_league")
        by_evening = evenings.evenings_of(s, lg.id)
        ended = [no for no, t in by_evening.items() if t.status == "finished" and no <= lg.evenings]
        tables = {}
        for bots in (False, True):
            rows = evenings.season_rows(s, lg, by_evening, bots=bots)
            before = {r.player: r.rank for r in evenings.season_rows(s, lg, by_evening, before_last=True, bots=bots)
                      if r.points} if len(ended) >= 2 else {}
            tables[bots] = rows, before
        players = [r.player for rows, _ in tables.values() for r in rows]
        names = dict(s.execute(select(Member.id, Member.name).where(Member.id.in_(players))).all())
        organizers = organizing.organizers(s, lg)
        runs = organizing.may_run(s, lg, member)
        first_open, _ = next_open(s, lg)
        me = s.get(LeagueMember, (lg.id, member.id)) if member is not None else None
        skips = set(s.scalars(select(LeagueSkip.evening_no).where(
            LeagueSkip.league_id == lg.id, LeagueSkip.member_id == member.id))) if member is not None else set()
        data = summary(lg)
    local = zone(lg.zone)
    days = []
    for no, starts_at in enumerate(calendar.league_starts(lg), start=1):
        t = by_evening.get(no)
        days.append({
            "evening": no, "date": starts_at.astimezone(local).date().isoformat(), "starts_at": starts_at.isoformat(),
            "tournament": t.id if t is not None else None,
            "status": t.status if t is not None else "scheduled",
            "final": no > lg.evenings,
            "moved": str(no) in (lg.moves or {}),
            "skipped": no in skips,
            "entered": bool(me is not None and no <= lg.evenings and me.from_evening <= no
                            and (me.until_evening is None or no < me.until_evening) and no not in skips),
        })
    data["calendar"] = days
    data["next_evening"] = first_open if first_open <= lg.evenings else None
    data["registered"] = me is not None and me.until_evening is None
    data["from_evening"] = me.from_evening if me is not None else None
    data["organizers"] = organizers
    data["may_run"] = runs
    data["table"] = _rows(tables[False], names, lg.evenings)
    data["bots_table"] = _rows(tables[True], names, lg.evenings)  # L9: never ranked with the members
    return data


def _rows(table: tuple[list[season.SeasonRow], dict[int, int]], names: dict[int, str],
          count: int) -> list[dict[str, Any]]:
    rows, before = table
    return [{
        "rank": r.rank, "player": r.player, "name": names.get(r.player, "?"), "total": r.total,
        "played": len(r.points), "counted": r.counted,
        "evenings": [{"evening": no, "points": r.points.get(no), "place": r.places.get(no),
                      "counted": no in r.counted} for no in range(1, count + 1)],
        "tiebreak": r.tiebreak, "head_to_head": r.head_to_head,
        # places gained (+) or lost (-) with the last evening; None: no table before it had him
        "movement": before[r.player] - r.rank if r.player in before else None,
    } for r in rows]


def of_member(club: Club, name: str) -> dict[str, Any]:
    """A member's leagues (registered for the season at some time), each with his place
    and total in its season table, the newest first (his profile's leagues)."""
    with club.db.read() as s:
        member = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
        if member is None:
            raise NotFound(f"no member named {name!r}", code="no_such_member")
        leagues = s.scalars(select(League).join(LeagueMember, LeagueMember.league_id == League.id)
                            .where(LeagueMember.member_id == member.id)
                            .order_by(League.first_date.desc(), League.id.desc()).limit(50)).all()
        out = []
        for lg in leagues:
            rows = evenings.season_rows(s, lg, evenings.evenings_of(s, lg.id), bots=member.bot_owner_id is not None)
            mine = next((r for r in rows if r.player == member.id), None)
            out.append({"id": lg.id, "name": lg.name, "game": lg.game, "status": lg.status,
                        "rank": mine.rank if mine is not None and mine.points else None,
                        "total": mine.total if mine is not None else 0.0,
                        "played": len(mine.points) if mine is not None else 0, "of": len(rows)})
        return {"name": member.name, "leagues": out}
