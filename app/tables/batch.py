"""The database side of a batch of words (app/tables/service.py): its parties' rows and
named actions read once, its writes sent together, with statements built once per size
(SQLAlchemy compiles each once per dialect, app/db/prepared.py): the hot path of every table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, insert, or_, select, update

from app.db.models import Action, Partie, PartieSeat
from app.db.prepared import Prepared
from app.tables.words import Word

_PARTIES = Partie.__table__
_SEATS = PartieSeat.__table__
_ACTIONS = Action.__table__
# The statements of a batch of words, built once per size (SQLAlchemy compiles each once
# per dialect, app/db/prepared.py): the hot path of every table.
_ACTION_COLUMNS = ("partie_id", "seq", "seat", "word", "client_action_id", "member_id", "source", "created_at")
_INSERT_ACTION_P = Prepared(insert(_ACTIONS).values({k: bindparam(k) for k in _ACTION_COLUMNS}))
_STATEMENTS: dict[tuple, Prepared] = {}


def _parties_rows(n: int, lock: bool) -> Prepared:
    """The rows of ``n`` parties (``p0``..), one per seat (id, version, status, timer, seat,
    kind, taken_over), in the order of the parties' ids: the order their rows are locked."""
    key = ("parties", n, lock)
    prepared = _STATEMENTS.get(key)
    if prepared is None:
        stmt = (
            select(
                _PARTIES.c.id, _PARTIES.c.version, _PARTIES.c.status, _PARTIES.c.timer_seconds,
                _SEATS.c.seat, _SEATS.c.kind, _SEATS.c.taken_over,
            )
            .select_from(_PARTIES.outerjoin(_SEATS, _SEATS.c.partie_id == _PARTIES.c.id))
            .where(_PARTIES.c.id.in_([bindparam(f"p{i}") for i in range(n)]))
            .order_by(_PARTIES.c.id, _SEATS.c.seat)
        )
        prepared = _STATEMENTS[key] = Prepared(stmt.with_for_update(of=_PARTIES) if lock else stmt)
    return prepared


def _actions_of_ids(n: int) -> Prepared:
    """The actions of ``n`` (partie ``p{i}``, client action id ``a{i}``) pairs."""
    key = ("ids", n)
    prepared = _STATEMENTS.get(key)
    if prepared is None:
        c = _ACTIONS.c
        stmt = select(c.partie_id, c.client_action_id, c.seq, c.seat, c.word).where(
            or_(*(and_(c.partie_id == bindparam(f"p{i}"), c.client_action_id == bindparam(f"a{i}")) for i in range(n)))
        )
        prepared = _STATEMENTS[key] = Prepared(stmt)
    return prepared


def _update_partie(columns: tuple[str, ...]) -> Prepared:
    """The partie's UPDATE setting ``columns`` (a word sets 2 to 5 of them)."""
    key = ("update", columns)
    prepared = _STATEMENTS.get(key)
    if prepared is None:
        stmt = update(_PARTIES).where(_PARTIES.c.id == bindparam("pid")).values({c: bindparam(c) for c in columns})
        prepared = _STATEMENTS[key] = Prepared(stmt)
    return prepared


@dataclass
class PartieRow:
    """A partie's row as the batch leaves it."""

    version: int
    status: str
    timer_seconds: int | None
    seats: list[tuple[int, str, bool]]  # (seat, kind, taken_over) in seat order


class Batch:
    """The database side of a batch of words in its transaction: its parties' rows (locked
    in id order on PostgreSQL) and the actions its ids name, read once for all its words;
    its writes (the actions, the parties' new versions) sent together before the commit.
    So a batch costs a handful of round trips however many words it has."""

    def __init__(self, conn, jobs: list[Word]):
        self.conn = conn
        self.inserts: list[dict[str, Any]] = []
        self.updates: dict[int, dict[str, Any]] = {}  # partie id -> the columns its words set
        pids = sorted({job.partie_id for job in jobs})
        rows = _parties_rows(len(pids), lock=conn.dialect.name != "sqlite").rows(
            conn, {f"p{i}": pid for i, pid in enumerate(pids)}
        )
        self.parties: dict[int, PartieRow] = {}
        for pid, version, status, timer_seconds, seat, kind, taken_over in rows:
            row = self.parties.get(pid)
            if row is None:
                row = self.parties[pid] = PartieRow(version, status, timer_seconds, [])
            if seat is not None:
                row.seats.append((seat, kind, taken_over))
        named = list({(job.partie_id, job.action_id) for job in jobs if job.action_id is not None})
        self.action_ids: dict[tuple[int, str], tuple[int, int, str]] = {}
        if named:
            params = {}
            for i, (pid, aid) in enumerate(named):
                params[f"p{i}"], params[f"a{i}"] = pid, aid
            for pid, aid, seq, seat, word in _actions_of_ids(len(named)).rows(conn, params):
                self.action_ids[(pid, aid)] = (seq, seat, word)

    def update(self, partie_id: int, values: dict[str, Any]) -> None:
        self.updates.setdefault(partie_id, {"pid": partie_id}).update(values)

    def flush(self) -> None:
        """Send the writes held so far (before the commit, and before anything reads the
        database through the ORM in the middle of the batch)."""
        _INSERT_ACTION_P.run_many(self.conn, self.inserts)
        by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for values in self.updates.values():
            by_columns.setdefault(tuple(k for k in values if k != "pid"), []).append(values)
        for columns, params in by_columns.items():
            _update_partie(columns).run_many(self.conn, params)
        self.inserts, self.updates = [], {}
