"""A league's organizers run it: its creator, the members an admin names for it, and the
Club's admins (rulings L6-L8). They pause the calendar, resume it, move one evening by
hand, or close the season; an admin names the league's organizers.

Paused, the calendar creates no evening (one created already runs as any tournament).
Resumed, the dates of the evenings that would have started during the pause become
skipped dates: the season keeps its N evenings, the missed ones moved to the following
weeks (the evenings not created yet lose their moves by hand, L8). Moved, an evening not
started keeps its number and its place between its neighbours; its tournament, if the
calendar created it already, moves with it. Closed, the season is over: no more
evenings, an evening created and not started is cancelled, and the table of the
evenings played stays as it is.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.db.models import League, LeagueEvening, LeagueOrganizer, LeagueReminder, Member, Tournament
from app.errors import Conflict, Forbidden, Invalid, NotFound
from app.members.service import CurrentMember
from app.zones import zone

from app.leagues import calendar, evenings
from app.leagues.service import _locked

if TYPE_CHECKING:
    from app.club import Club

MAX_ORGANIZERS = 20


def may_run(s: Session, lg: League, member: CurrentMember | None) -> bool:
    """Whether a member runs this league (its creator, an organizer named for it, an admin)."""
    if member is None or member.role == "bot":
        return False
    if member.is_admin or lg.organizer_id == member.id:
        return True
    return s.get(LeagueOrganizer, (lg.id, member.id)) is not None


def _organizer(s: Session, lg: League, member: CurrentMember) -> None:
    if not may_run(s, lg, member):
        raise Forbidden("only the league's organizers (or an admin) run a league", code="not_the_organizer")


def _open(lg: League) -> None:
    if lg.status not in ("active", "paused"):
        raise Conflict("this season is over", code="season_over")


def _created(s: Session, lg: League) -> int:
    return s.scalar(select(func.count()).select_from(LeagueEvening).where(LeagueEvening.league_id == lg.id)) or 0


def pause(club: Club, member: CurrentMember, league_id: int, paused: bool) -> dict[str, Any]:
    with club.db.write() as s:
        lg = _locked(club, s, league_id)
        _organizer(s, lg, member)
        _open(lg)
        if paused == (lg.status == "paused"):
            raise Conflict("the league is paused already" if paused else "the league is not paused",
                           code="already_paused" if paused else "not_paused")
        if not paused:
            now = club.clock.now()
            created = _created(s, lg)
            # L8: the evenings not created yet follow the calendar again
            lg.moves = {k: v for k, v in (lg.moves or {}).items() if int(k) <= created}
            missed = set(lg.skipped_dates or [])
            while True:  # the next evening not created would have started: its date is skipped
                starts = calendar.league_starts(lg)
                if created >= len(starts) or starts[created] > now:
                    break
                missed.add(starts[created].astimezone(zone(lg.zone)).date().isoformat())
                lg.skipped_dates = sorted(missed)
        lg.status = "paused" if paused else "active"
        skipped = list(lg.skipped_dates or [])
    if not paused:
        evenings.run_due(club)
    return {"status": "paused" if paused else "active", "skipped_dates": skipped}


def close(club: Club, member: CurrentMember, league_id: int) -> dict[str, Any]:
    cancelled = []
    with club.db.write() as s:
        lg = _locked(club, s, league_id)
        _organizer(s, lg, member)
        _open(lg)
        now = club.clock.now()
        waiting = s.scalars(select(Tournament).join(LeagueEvening, LeagueEvening.tournament_id == Tournament.id)
                            .where(LeagueEvening.league_id == lg.id, Tournament.current_round == 0,
                                   Tournament.status.in_(("registration", "paused"))))
        for t in waiting:
            t.status, t.next_round_at, t.finished_at = "cancelled", None, now
            cancelled.append(t.id)
        lg.status, lg.finished_at = "closed", now
    for tid in cancelled:
        evenings.tell_changed(club, tid)
    return {"status": "closed", "cancelled": cancelled}


def move(club: Club, member: CurrentMember, league_id: int, evening_no: int, starts_at: datetime) -> dict[str, Any]:
    """Move an evening not started to another instant (L7): after the evening before it
    and before the one after it, not in the past; its tournament, created already, moves
    with it; the reminders told of the old time are sent again for the new one."""
    if starts_at.tzinfo is None:
        raise Invalid("the new start needs its time zone (e.g. 2026-12-24T19:00:00+01:00)", code="invalid_start")
    starts_at = starts_at.astimezone(timezone.utc).replace(microsecond=0)
    with club.db.write() as s:
        lg = _locked(club, s, league_id)
        _organizer(s, lg, member)
        _open(lg)
        starts = calendar.league_starts(lg)
        if not 1 <= evening_no <= len(starts):
            raise NotFound(f"this season has evenings 1 to {len(starts)}", code="no_such_evening")
        row = s.get(LeagueEvening, (lg.id, evening_no))
        t = s.get(Tournament, row.tournament_id) if row is not None else None
        if t is not None and (t.current_round > 0 or t.status not in ("registration", "paused")):
            raise Conflict(f"evening {evening_no} has started already", code="evening_started")
        now = club.clock.now()
        if starts_at < now + timedelta(minutes=1):
            raise Invalid("the new start is in the past", code="invalid_start")
        before = starts[evening_no - 2] if evening_no > 1 else None
        after = starts[evening_no] if evening_no < len(starts) else None
        if (before is not None and starts_at <= before) or (after is not None and starts_at >= after):
            raise Invalid("an evening moves between the evening before it and the one after it",
                          code="invalid_move")
        moves = dict(lg.moves or {})
        if starts_at == calendar.calendar_starts(lg)[evening_no - 1]:
            moves.pop(str(evening_no), None)  # back at its calendar's time
        else:
            moves[str(evening_no)] = starts_at.isoformat()
        lg.moves = moves
        if t is not None:
            row.starts_at = t.start_at = starts_at
            if t.status == "registration":
                t.next_round_at = starts_at
        s.execute(delete(LeagueReminder).where(LeagueReminder.league_id == lg.id,
                                               LeagueReminder.evening_no == evening_no))
        tournament_id = t.id if t is not None else None
    if tournament_id is not None:
        evenings.tell_changed(club, tournament_id)
    else:
        evenings.run_due(club)  # moved into its registration's window: created now
    return {"evening": evening_no, "starts_at": starts_at.isoformat(), "tournament": tournament_id}


def set_organizer(club: Club, member: CurrentMember, league_id: int, name: str, named: bool) -> dict[str, Any]:
    """An admin names a member an organizer of this league (or takes it back)."""
    if not member.is_admin:
        raise Forbidden("only an admin names a league's organizers", code="not_an_admin")
    with club.db.write() as s:
        lg = _locked(club, s, league_id)
        target = s.scalar(select(Member).where(Member.name_key == str(name).strip().lower()))
        if target is None:
            raise NotFound(f"no member named {name!r}", code="no_such_member")
        if target.bot_owner_id is not None:
            raise Conflict(f"{target.name} is a bot account", code="is_a_bot")
        row = s.get(LeagueOrganizer, (lg.id, target.id))
        if named and row is not None:
            raise Conflict(f"{target.name} organizes this league already", code="already_organizer")
        if not named and row is None:
            raise Conflict(f"{target.name} is not named an organizer of this league", code="not_an_organizer_here")
        if named:
            count = s.scalar(select(func.count()).select_from(LeagueOrganizer)
                             .where(LeagueOrganizer.league_id == lg.id)) or 0
            if count >= MAX_ORGANIZERS:
                raise Conflict(f"a league has at most {MAX_ORGANIZERS} named organizers", code="too_many_organizers")
            s.add(LeagueOrganizer(league_id=lg.id, member_id=target.id))
        else:
            s.delete(row)
        return {"name": target.name, "organizer": named}


def organizers(s: Session, lg: League) -> list[str]:
    """The league's organizers by name: its creator first, then those named for it."""
    named = s.scalars(select(Member.name).join(LeagueOrganizer, LeagueOrganizer.member_id == Member.id)
                      .where(LeagueOrganizer.league_id == lg.id).order_by(Member.name_key))
    creator = s.scalar(select(Member.name).where(Member.id == lg.organizer_id))
    return [n for n in [creator, *named] if n is not None]
