"""Who may read a table: the one rule every read of a partie goes through.

- Rulings T8/T11: while its round runs, a tournament table is open only to the members
  seated at it. Everything of it is closed to everyone else: its state, events, version,
  score sheet, record, chat, replay, analysis, clocks, its entries in profiles and
  statistics, and its place in any list. The rule reads stricter than T8's words (which
  name the tournament's players), since a spectator could pass its cards on to a player
  of another table with the same deals (docs/rulings.md, "Tournaments"). The robot
  field's table (no member seated) is closed to all. Once the round has ended, every
  table is open as any partie is.
- Fair play of bot accounts (app/parties/fairplay.py): the owner of a bot cannot watch a
  table where it plays until the partie ends.

Every HTTP route that names a partie passes :class:`TableGate` first (app/web/
visibility.py); the reads themselves (and the table's socket) ask :func:`check_may_watch`;
the lists filter with :func:`open_to`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, exists, or_, select
from sqlalchemy.orm import Session

from app.db.models import Member, Partie, PartieSeat, TournamentRound
from app.errors import Forbidden
from app.parties.lookup import seat_of

HIDDEN_CODE = "tournament_table_hidden"


class TableHidden(Forbidden):
    """403 ``tournament_table_hidden``: names the tournament and the round, so that a
    page can say which round to wait for and link to the tournament."""

    code = HIDDEN_CODE

    def __init__(self, tournament_id: int, round_no: int) -> None:
        super().__init__(f"this table of round {round_no} is hidden until the round ends",
                         tournament=tournament_id, round=round_no)


def round_running(s: Session, tournament_id: int | None, round_no: int | None) -> bool:
    if tournament_id is None:
        return False
    rnd = s.get(TournamentRound, (tournament_id, round_no))
    return rnd is not None and rnd.ended_at is None


def hidden_from(s: Session, partie: Partie, member_id: int | None) -> bool:
    """T8: a table of a running tournament round where ``member_id`` does not sit."""
    return (partie.tournament_id is not None and seat_of(partie, member_id) is None
            and round_running(s, partie.tournament_id, partie.tournament_round))


def owner_watching(partie: Partie, member_id: int | None) -> bool:
    """Whether ``member_id`` owns a bot that plays at this partie, which has not ended."""
    if member_id is None or partie.status not in ("proposed", "running"):
        return False
    return any(row.member is not None and row.member.bot_owner_id == member_id for row in partie.seats)


def check_may_watch(s: Session, partie: Partie, member_id: int | None) -> None:
    if hidden_from(s, partie, member_id):
        raise TableHidden(partie.tournament_id or 0, partie.tournament_round or 0)
    if owner_watching(partie, member_id):
        raise Forbidden("you cannot watch a table where your bot plays until it ends", code="own_bot_table")


def open_to(viewer_id: int | None) -> ColumnElement[bool]:
    """The parties a member may find in lists: all but the tables of running tournament
    rounds where he does not sit, and the running tables of his bots."""
    visible = or_(Partie.tournament_id.is_(None), round_ended_clause(),
                  *([seated_clause(viewer_id)] if viewer_id is not None else []))
    if viewer_id is None:
        return visible
    my_bots = select(Member.id).where(Member.bot_owner_id == viewer_id)
    my_bot_plays = Partie.id.in_(select(PartieSeat.partie_id).where(PartieSeat.member_id.in_(my_bots)))
    return and_(visible, or_(Partie.status.not_in(("proposed", "running")), ~my_bot_plays))


def round_ended_clause() -> ColumnElement[bool]:
    """SQL: the partie is a table of a tournament round that has ended."""
    return exists().where(and_(TournamentRound.tournament_id == Partie.tournament_id,
                               TournamentRound.round_no == Partie.tournament_round,
                               TournamentRound.ended_at.is_not(None)))


def seated_clause(member_id: int) -> ColumnElement[bool]:
    return Partie.id.in_(select(PartieSeat.partie_id).where(PartieSeat.member_id == member_id))


# --- the gate's memory ------------------------------------------------------------------

@dataclass(frozen=True)
class TableFacts:
    """What never changes once a partie has started: whose table it is."""

    tournament_id: int | None
    round_no: int | None
    members: frozenset[int]


class TableGate:
    """:func:`hidden_from` for a partie id, from memory where it can be: a partie that is
    no tournament table, or whose round has ended, stays open for good, so the gate reads
    the database only for the tables of rounds still running (the round may end on
    another instance). Bounded: past ``size`` parties it forgets them all."""

    def __init__(self, size: int = 100_000) -> None:
        self._facts: dict[int, TableFacts] = {}
        self._open: set[int] = set()
        self._size = size
        self._lock = threading.Lock()

    def known_open(self, partie_id: int) -> bool:
        return partie_id in self._open

    def facts(self, s: Session, partie_id: int) -> TableFacts | None:
        """The partie's table facts (None: no such partie)."""
        known = self._facts.get(partie_id)
        if known is not None:
            return known
        row = s.execute(select(Partie.status, Partie.tournament_id, Partie.tournament_round)
                        .where(Partie.id == partie_id)).one_or_none()
        if row is None:
            return None
        members = frozenset(m for m in s.scalars(select(PartieSeat.member_id).where(
            PartieSeat.partie_id == partie_id, PartieSeat.member_id.is_not(None))))
        facts = TableFacts(row.tournament_id, row.tournament_round, members)
        if row.status != "proposed":  # seats are fixed once it has started
            self._remember(partie_id, facts, open_=False)
        return facts

    def hidden(self, s: Session, partie_id: int) -> TableFacts | None:
        """The facts of a table hidden to all but its members now, or None if it is open."""
        if partie_id in self._open:
            return None
        facts = self.facts(s, partie_id)
        if facts is None:
            return None
        if round_running(s, facts.tournament_id, facts.round_no):
            return facts
        self._remember(partie_id, facts, open_=True)  # no tournament table, or its round has ended: for good
        return None

    def _remember(self, partie_id: int, facts: TableFacts, open_: bool) -> None:
        with self._lock:
            if len(self._facts) + len(self._open) >= self._size:
                self._facts.clear()
                self._open.clear()
            if open_:
                self._open.add(partie_id)
                self._facts.pop(partie_id, None)
            else:
                self._facts[partie_id] = facts
