"""The rounds of a tournament: started, overdue, ended; durable and started once.

:func:`advance` is the one step: it looks at a tournament under its row's lock and does
what is due now: ends the running round when all its tables have finished (its results
kept, T4/T5), hands the seats of a round past its deadline to the computer players (T3),
starts the next round when its time has come (T2 seeds, T6 seating), or ends the
tournament with its final standings. It is idempotent and reads everything from the
database, so a restarted server (or another instance) picks up where one left off; the
round's row has a unique key, so two instances never start the same round twice.

It runs when a tournament partie ends (:func:`on_partie_finished`), when an organizer
acts, and from :func:`watch_tournaments`, the Club's clock loop (tests move that clock).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from fastapi.concurrency import run_in_threadpool
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.database import for_update
from app.members.references import levels_of
from app.db.models import Member, Partie, PartieSeat, Rating, Tournament, TournamentRound
from app.games.descriptor import GameDescriptor
from app.parties.events import PartieFinished
from app.realtime import notices
from app.tables.service import apply_word
from app.tables.words import DEADLINE, StaleVersion
from app.parties.engines import game_of
from app.tournaments import results as res
from app.tournaments import withdrawal
from app.tournaments.secret import round_seed
from app.tournaments.seating import Table
from app.tournaments.seating_first import first_round
from app.tournaments.seating_next import next_round
from app.watchers import watch

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.tournaments")

ROBOT_LEVEL = "majstor"  # T4, T6: the computer players of a tournament
DONE = ("finished", "abandoned")


def channel(tournament_id: int) -> str:
    """The hub channel of a tournament's page (standings, rounds)."""
    return f"{notices.TOURNAMENT_PREFIX}{tournament_id}"


@dataclass
class _After:
    """What a step tells once its transaction has committed."""

    # (partie, member ids, whether a computer player sits at it, the members to act first)
    started: list[tuple[int, list[int | None], bool, set[int]]] = field(default_factory=list)
    overdue: list[int] = field(default_factory=list)  # parties whose seats went to the computer
    deadline_words: list[tuple[int, str]] = field(default_factory=list)
    round_no: int = 0
    name: str = ""
    game: str = ""
    changed: bool = False
    ended: bool = False


def active_players(t: Tournament, round_no: int) -> list[int]:
    """Who plays round ``round_no``: registered for it and not withdrawn or removed (T7)."""
    return [
        p.member_id for p in t.players
        if not p.removed and p.joined_round <= round_no and (p.left_round is None or p.left_round > round_no)
    ]


def ended_rounds(s: Session, tournament_id: int) -> list[tuple[int, list[dict[str, Any]]]]:
    rows = s.scalars(
        select(TournamentRound)
        .where(TournamentRound.tournament_id == tournament_id, TournamentRound.ended_at.is_not(None))
        .order_by(TournamentRound.round_no)
    )
    return [(r.round_no, list(r.results or [])) for r in rows]


def round_tables(s: Session, tournament_id: int, round_no: int) -> list[Partie]:
    return list(s.scalars(
        select(Partie).where(Partie.tournament_id == tournament_id, Partie.tournament_round == round_no)
        .order_by(Partie.table_no)
    ))


def _history(s: Session, tournament_id: int, before: int) -> list[list[Table]]:
    """The earlier rounds' tables as the seating sees them (the robot field's left out)."""
    parties = s.scalars(
        select(Partie).where(Partie.tournament_id == tournament_id, Partie.tournament_round < before,
                             Partie.table_no != res.ROBOT_TABLE)
        .order_by(Partie.tournament_round, Partie.table_no)
    )
    rounds: dict[int, list[Table]] = {}
    for p in parties:
        rounds.setdefault(p.tournament_round or 0, []).append(
            Table(tuple(row.member_id for row in p.seats)))  # a reference's seat keeps its account
    return [rounds[r] for r in sorted(rounds)]


def _seat(t: Tournament, game: GameDescriptor, s: Session, round_no: int) -> list[Table]:
    size = game.seats_for(t.settings)
    players = active_players(t, round_no)
    if round_no == 1:
        ratings = None
        if t.seeding == "rating":
            rows = s.execute(select(Rating.member_id, Rating.rating).where(
                Rating.game == t.game, Rating.member_id.in_(players)))
            ratings = {m: float(r) for m, r in rows}
            ratings.update({m: 0.0 for m in players if m not in ratings})
        return first_round(players, size, t.secret, ratings)
    order = res.order_for_seating(res.standings(t, game, ended_rounds(s, t.id)), players)
    return next_round(order, size, _history(s, t.id, round_no), rounds_left=t.rounds - round_no + 1)


def round_settings(t: Tournament, game: GameDescriptor) -> dict[str, Any]:
    rules = game.tournament
    assert rules is not None, f"{game.code} has no tournaments"  # service.create refuses such a game
    return game.normalize_settings(rules.round_settings(t.settings, t.hands))


def _start_round(s: Session, t: Tournament, game: GameDescriptor, now: datetime, after: _After) -> None:
    round_no = t.current_round + 1
    tables = _seat(t, game, s, round_no)
    seed = round_seed(t.secret, t.id, round_no)
    settings = round_settings(t, game)
    s.add(TournamentRound(tournament_id=t.id, round_no=round_no, started_at=now,
                          deadline_at=now + timedelta(minutes=t.round_minutes)))
    s.flush()  # the unique key: another instance that started this round wins here
    size = game.seats_for(t.settings)
    numbered = list(enumerate(tables, start=1))
    if t.robot_field:
        numbered.append((res.ROBOT_TABLE, Table((None,) * size)))
    # The Club's computer players entered as players (the bot ladder's references,
    # app/members/references.py): a computer seat of their level that keeps their account.
    members = [m for _, table in numbered for m in table.seats if m is not None]
    references = levels_of(s, members)
    # A person is away until he opens his table (his socket marks him there, app/tables/
    # presence.py): his table-mates may hand his seat to the computer player as at any live
    # table rather than wait his timer at each decision. Bot accounts play over the API.
    bot_accounts = set(s.scalars(select(Member.id).where(Member.id.in_(members), Member.bot_owner_id.is_not(None))))
    parties = []
    for table_no, table in numbered:
        seats = [
            PartieSeat(seat=i, kind="bot", bot=references[m], member_id=m, answer="accepted") if m in references
            else PartieSeat(seat=i, kind="member", member_id=m, answer="accepted", away=m not in bot_accounts)
            if m is not None
            else PartieSeat(seat=i, kind="bot", bot=ROBOT_LEVEL, answer="accepted")
            for i, m in enumerate(table.seats)
        ]
        partie = Partie(
            game=t.game, settings=settings, timer_seconds=t.timer_seconds, status="running", seed=seed,
            exhibition=table_no == res.ROBOT_TABLE, proposer_id=t.organizer_id, started_at=now, version=0,
            tournament_id=t.id, tournament_round=round_no, table_no=table_no, seats=seats,
        )
        s.add(partie)
        parties.append((partie, table))
    s.flush()  # every table in one go: a hundred tables are a few statements, not two hundred
    first = game.engine.new(settings, seed=seed).seats_to_act()  # every table deals the same (T2)
    for partie, table in parties:
        computer = any(seat.kind == "bot" for seat in partie.seats)
        to_act = {m for i, m in enumerate(table.seats) if i in first and m is not None}
        after.started.append((partie.id, list(table.seats), computer, to_act))
    t.current_round = round_no
    after.name, after.game = t.name, t.game
    t.status = "running"
    t.next_round_at = None
    after.round_no = round_no
    after.changed = True


def _end_round(club: Club, s: Session, t: Tournament, game: GameDescriptor, rnd: TournamentRound,
               parties: list[Partie], now: datetime, after: _After) -> None:
    rnd.results = [res.table_results(club, s, p, game, t.place_points) for p in parties if p.status == "finished"]
    rnd.ended_at = now
    after.changed = True
    if rnd.round_no >= t.rounds:
        final = res.standings(t, game, ended_rounds(s, t.id))
        t.standings = [standing_row(st) for st in final]
        t.status = "finished"
        t.finished_at = now
        t.next_round_at = None
        after.ended = True
    elif t.status != "paused":
        t.next_round_at = now + timedelta(minutes=t.pause_minutes)


def standing_row(st) -> dict[str, Any]:
    return {"player": st.player, "rank": st.rank, "score": st.score, "played": st.played,
            "tiebreaks": list(st.tiebreaks), "ranked": st.ranked, "withdrawn": st.withdrawn}


def _overdue(t: Tournament, game: GameDescriptor, rnd: TournamentRound, parties: list[Partie],
             after: _After) -> None:
    """T3: past the deadline every decision is the computer player's; a game that ends its
    round early (preferans, P13) hears its deadline word."""
    rnd.overdue = True
    for p in parties:
        if p.status != "running":
            continue
        for row in p.seats:
            if row.kind == "member" and not row.taken_over:
                row.taken_over = True
        after.overdue.append(p.id)
        if game.deadline_word:
            after.deadline_words.append((p.id, game.deadline_word))
    after.changed = True


def _step(club: Club, s: Session, tournament_id: int, after: _After) -> None:
    t = s.scalar(for_update(select(Tournament).where(Tournament.id == tournament_id), club.db))
    if t is None or t.status in ("finished", "cancelled"):
        return
    game = game_of(t.game)
    now = club.clock.now()
    rnd = None
    if t.current_round:
        rnd = s.get(TournamentRound, (t.id, t.current_round))
    if rnd is not None and rnd.ended_at is None:
        parties = round_tables(s, t.id, rnd.round_no)
        if all(p.status in DONE for p in parties):
            _end_round(club, s, t, game, rnd, parties, now, after)
        elif now >= rnd.deadline_at and not rnd.overdue:
            _overdue(t, game, rnd, parties, after)
        if rnd.ended_at is None:
            return
    if t.status == "finished" or t.status == "paused":
        return
    if t.next_round_at is not None and now >= t.next_round_at and t.current_round < t.rounds:
        size = game.seats_for(t.settings)
        if t.current_round == 0 and len(active_players(t, 1)) < size:
            t.status = "cancelled"  # too few players to seat one table
            t.next_round_at = None
            t.finished_at = now
            after.changed = True
            return
        _start_round(s, t, game, now, after)


def advance(club: Club, tournament_id: int) -> bool:
    """Do what is due now for one tournament (see the module's text); True if it changed."""
    after = _After()
    try:
        with club.db.write() as s:
            _step(club, s, tournament_id, after)
    except IntegrityError:
        log.info("round of tournament %s already started elsewhere", tournament_id)
        return False
    _tell(club, tournament_id, after)
    return after.changed


def _tell(club: Club, tournament_id: int, after: _After) -> None:
    for partie_id, word in after.deadline_words:
        _say_deadline(club, partie_id, word)
    for partie_id in after.overdue:
        club.notify_partie(partie_id, {"kind": "seats"})
        club.poke_bots(partie_id)
    with club.hub.batch():  # a round's notices (hundreds) are one message to the other instances
        for partie_id, members, _, to_act in after.started:
            # ``turn``: his seat is to act first (his notices socket counts it without reading)
            about = {"tournament": tournament_id, "round": after.round_no, "partie": partie_id,
                     "name": after.name, "game": after.game}
            notices.tell(club.hub, [m for m in members if m not in to_act], "round", turn=False, **about)
            notices.tell(club.hub, to_act, "round", turn=True, **about)
        if after.changed:
            club.hub.publish(channel(tournament_id), {"kind": "tournament", "tournament": tournament_id})
            club.hub.publish(notices.LOBBY_CHANNEL, {"kind": "tournaments", "tournament": tournament_id})
    for partie_id, _, computer, _ in after.started:
        if computer:  # a table of members only waits for them (their timers are the deadline watcher's)
            club.poke_bots(partie_id)


def _say_deadline(club: Club, partie_id: int, word: str, attempts: int = 20) -> None:
    """The deadline word, at the table's version of the moment (the computer players may
    be moving it on meanwhile: a stale version is tried again)."""
    for _ in range(attempts):
        with club.db.read() as s:
            partie = s.get(Partie, partie_id)
            if partie is None or partie.status != "running":
                return
            version = partie.version
        try:
            apply_word(club, partie_id, 0, word, version, None, None, DEADLINE)
            return
        except StaleVersion:
            continue
        except Exception:
            log.exception("the deadline word of partie %s", partie_id)
            return


def due_tournaments(club: Club) -> list[int]:
    """Tournaments that may have something to do now."""
    now = club.clock.now()
    with club.db.read() as s:
        starting = s.scalars(select(Tournament.id).where(
            Tournament.status.in_(("registration", "running")), Tournament.next_round_at <= now))
        overdue = s.scalars(
            select(TournamentRound.tournament_id).where(
                TournamentRound.ended_at.is_(None), TournamentRound.overdue.is_(False),
                TournamentRound.deadline_at <= now))
        return sorted(set(starting) | set(overdue))


def unfinished_rounds(club: Club) -> list[int]:
    with club.db.read() as s:
        return sorted(set(s.scalars(select(TournamentRound.tournament_id).where(TournamentRound.ended_at.is_(None)))))


def subscribe(club: Club) -> None:
    """A tournament partie that ends may end its round; a member who leaves his table
    withdraws (T10, app/tournaments/withdrawal.py)."""
    def on_finished(notice: PartieFinished) -> None:
        with club.db.read() as s:
            tournament_id = s.scalar(select(Partie.tournament_id).where(Partie.id == notice.partie_id))
        if tournament_id is not None:
            advance(club, tournament_id)

    club.finished.subscribe(on_finished)
    withdrawal.subscribe(club)


async def watch_tournaments(club: Club) -> None:
    """Start rounds on time and apply round deadlines, on the Club's clock; at start, also
    look at every round still running (its last partie may have ended while the server
    was down)."""
    first = True

    async def look() -> None:
        nonlocal first
        ids = await run_in_threadpool(due_tournaments, club)
        if first:
            ids = sorted(set(ids) | set(await run_in_threadpool(unfinished_rounds, club)))
            first = False
        for tournament_id in ids:
            await run_in_threadpool(advance, club, tournament_id)

    await watch(club.clock, club.settings.deadline_poll_seconds, look, log, "tournament watcher failed")
