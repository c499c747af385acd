"""A league's organizer (its creator, or an admin) pauses the calendar, resumes it, or
closes the season (rulings L6).

Paused, the calendar creates no evening (one created already runs as any tournament).
Resumed, the dates of the evenings that would have started during the pause become
skipped dates: the season keeps its N evenings, the missed ones moved to the following
weeks. Closed, the season is over: no more evenings, an evening created and not started
is cancelled, and the table of the evenings played stays as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from app.db.models import LeagueEvening, Tournament
from app.errors import Conflict, Forbidden
from app.members.service import CurrentMember
from app.zones import zone

from app.leagues import calendar, evenings
from app.leagues.service import _locked

if TYPE_CHECKING:
    from app.club import Club


def _organizer(lg, member: CurrentMember) -> None:
    if not (member.is_admin or lg.organizer_id == member.id):
        raise Forbidden("only its organizer (or an admin) runs a league", code="not_the_organizer")


def pause(club: Club, member: CurrentMember, league_id: int, paused: bool) -> dict[str, Any]:
    with club.db.write() as s:
        lg = _locked(club, s, league_id)
        _organizer(lg, member)
        if lg.status not in ("active", "paused"):
            raise Conflict("this season is over", code="season_over")
        if paused == (lg.status == "paused"):
            raise Conflict("the league is paused already" if paused else "the league is not paused",
                           code="already_paused" if paused else "not_paused")
        if not paused:
            now = club.clock.now()
            created = s.scalar(select(func.count()).select_from(LeagueEvening)
                               .where(LeagueEvening.league_id == lg.id)) or 0
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
        _organizer(lg, member)
        if lg.status not in ("active", "paused"):
            raise Conflict("this season is over", code="season_over")
        now = club.clock.now()
        waiting = s.scalars(select(Tournament).join(LeagueEvening, LeagueEvening.tournament_id == Tournament.id)
                            .where(LeagueEvening.league_id == lg.id, Tournament.current_round == 0,
                                   Tournament.status.in_(("registration", "paused"))))
        for t in waiting:
            t.status, t.next_round_at, t.finished_at = "cancelled", None, now
            cancelled.append(t.id)
        lg.status, lg.finished_at = "closed", now
    return {"status": "closed", "cancelled": cancelled}
