"""The reminder before an evening (rulings L10): :data:`REMIND_BEFORE` before an evening's
start, each member entered in its tournament then is told once (``evening``, a notice of
app/realtime/notices.py: a toast on his open pages, a push to the devices where he
allowed them, app/push/). A member entered later, before the start, is told then.

Once per member and evening, however many instances: the reminder's row (league,
evening, member) is inserted in the transaction that decides to tell him, under the
league's row lock (PostgreSQL; SQLite's writes are serialized), and its primary key
refuses a second one. A moved evening's rows are deleted (app/leagues/organizing.py):
its players are told the new time. Bot accounts are not told (their event stream tells
them of their rounds). The watcher (app/leagues/evenings.py) runs :func:`send_due` on the
Club's clock.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.db.database import for_update
from app.db.models import League, LeagueEvening, LeagueReminder, Member, Tournament, TournamentPlayer
from app.realtime import notices

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.leagues")
REMIND_BEFORE = timedelta(hours=1)
KIND = "evening"


def _due(club: Club) -> list[tuple[int, int]]:
    """The evenings (league, number) whose reminder time has come and whose start has not."""
    now = club.clock.now()
    with club.db.read() as s:
        return [(lid, no) for lid, no in s.execute(
            select(LeagueEvening.league_id, LeagueEvening.evening_no)
            .join(Tournament, Tournament.id == LeagueEvening.tournament_id)
            .where(Tournament.status == "registration", Tournament.current_round == 0,
                   Tournament.start_at > now, Tournament.start_at <= now + REMIND_BEFORE)
            .order_by(Tournament.start_at))]


def _claim(club: Club, league_id: int, evening_no: int) -> tuple[list[int], dict[str, Any]] | None:
    """The members to tell now, their reminders' rows written; None: nobody."""
    now = club.clock.now()
    with club.db.write() as s:
        lg = s.scalar(for_update(select(League).where(League.id == league_id), club.db))
        row = s.get(LeagueEvening, (league_id, evening_no))
        t = s.get(Tournament, row.tournament_id) if lg is not None and row is not None else None
        if t is None or t.status != "registration" or t.current_round or not now < t.start_at <= now + REMIND_BEFORE:
            return None
        entered = s.scalars(select(TournamentPlayer.member_id).join(Member, Member.id == TournamentPlayer.member_id)
                            .where(TournamentPlayer.tournament_id == t.id, TournamentPlayer.removed.is_(False),
                                   TournamentPlayer.left_round.is_(None), Member.bot_owner_id.is_(None))
                            .order_by(TournamentPlayer.joined_at))
        told = set(s.scalars(select(LeagueReminder.member_id).where(
            LeagueReminder.league_id == league_id, LeagueReminder.evening_no == evening_no)))
        members = [m for m in entered if m not in told]
        for m in members:
            s.add(LeagueReminder(league_id=league_id, evening_no=evening_no, member_id=m, sent_at=now))
        notice = {"league": league_id, "evening": evening_no, "tournament": t.id, "name": t.name, "game": t.game,
                  "starts_at": t.start_at.isoformat(),
                  "minutes": max(1, round((t.start_at - now).total_seconds() / 60))}
    return (members, notice) if members else None


def send_due(club: Club) -> int:
    """Tell the members entered in the evenings about to start, each once; how many were told."""
    count = 0
    for league_id, evening_no in _due(club):
        try:
            claimed = _claim(club, league_id, evening_no)
        except IntegrityError:  # another instance told them in the meantime
            log.info("league %s evening %s: reminded elsewhere", league_id, evening_no)
            continue
        if claimed is not None:
            members, notice = claimed
            notices.tell(club.hub, members, KIND, **notice)
            count += len(members)
    return count
