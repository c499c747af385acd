"""Proposing a partie, answering invitations, and starting it when every seat is filled.

The proposer sits at seat 0 and deals first. Each other seat is a named member (who
must accept; a bot account is named as a member), an open seat (any member may take
it), a bot-open seat (any bot account may take it, app/bots/) or a computer player. An
exhibition partie has computer players only and is watched, not played. Fair play: a
bot never sits with its owner, nor with another bot of his (app/parties/fairplay.py).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from app import zones
from app.db.database import for_update
from app.db.models import Member, Partie, PartieSeat
from app.errors import Conflict, Forbidden, Invalid, NotFound
from app.ai import DEFAULT_LEVEL
from app.parties.fairplay import check_together
from app.games.base import TIMER_RANGE, SettingsError, is_live_timer
from app.games.descriptor import GameDescriptor
from app.members.service import CurrentMember
from app.parties.engines import game_of
from app.parties import slow
from app.parties.clocks import clock_of
from app.parties.slow_frames import my_clock
from app.parties.lookup import open_table, seats_info
from app.realtime import notices
from app.parties.visibility import open_to

if TYPE_CHECKING:
    from app.club import Club

# A notice to members (app/realtime/notices.py): whom, its kind, what else it says.
Tell = tuple[Sequence[int | None], str, dict[str, Any]]


# Seats anyone may take: members take "open" ones, bot accounts "bot_open" ones.
OPEN_KINDS = ("open", "bot_open")


@dataclass(frozen=True)
class SeatSpec:
    kind: str  # member, open, bot_open, bot
    name: str | None = None
    bot: str | None = None


def _check_settings(game: GameDescriptor, settings: dict[str, Any] | None) -> dict[str, Any]:
    try:
        return game.normalize_settings(dict(settings or {}))
    except SettingsError as e:
        raise Invalid(str(e), code="invalid_settings") from None


def _check_timer(timer: int | None) -> int | None:
    if not timer:
        return None
    if not is_live_timer(timer) and timer not in slow.SLOW_TIMERS:  # or a slow timer (app/parties/slow.py)
        raise Invalid(
            f"the timer is off, {TIMER_RANGE[0]} to {TIMER_RANGE[1]} seconds per decision, or a slow timer of "
            f"{', '.join(str(t) for t in slow.SLOW_TIMERS)} seconds (1, 3, 12 or 24 hours or 3 days)",
            code="invalid_timer",
        )
    return timer


def _bot_name(club: Club, game: GameDescriptor, name: str | None) -> str:
    levels = ("random", *game.bot_levels)
    name = name or club.settings.default_bot or DEFAULT_LEVEL
    if name not in levels:
        raise Invalid(f"the computer players of {game.code} are {', '.join(levels)}", code="invalid_bot")
    return name


def propose(
    club: Club,
    member: CurrentMember,
    game: str,
    settings: dict[str, Any] | None,
    timer: int | None,
    seats: list[SeatSpec],
    exhibition: bool = False,
    *,
    rematch_of: int | None = None,
    bank: int | None = None,
    weekends_off: bool = False,
    weekend_zone: str | None = None,
) -> int:
    """A new proposal; ``rematch_of``: the finished partie it is the revanš of (told to
    the invited members, app/parties/rematch.py). A slow timer (an hour or more per
    decision) may have a time bank per player (``bank`` seconds, whole hours; None: twice
    the decision time) and leave weekends out (app/parties/slow.py): those of ``weekend_zone``
    (an IANA name: the proposer's; None: UTC)."""
    descriptor = game_of(game)
    settings = _check_settings(descriptor, settings)
    timer = _check_timer(timer)
    bank, weekends_off = slow.check_slow_options(timer or 0, bank, weekends_off)
    weekend_zone = zones.zone_named(weekend_zone) if weekends_off and weekend_zone else None
    n = descriptor.seats_for(settings)
    if exhibition:
        seats = seats or [SeatSpec("bot")] * n
        if len(seats) != n or any(spec.kind != "bot" for spec in seats):
            raise Invalid(f"an exhibition has {n} computer players", code="invalid_seats")
    elif len(seats) != n - 1:
        raise Invalid(f"{game} has {n} seats: name the {n - 1} beside yours", code="invalid_seats")
    with club.db.write() as s:
        if not exhibition:
            clock_of(timer).check_cap(club, s, member.id, member.name)
        rows: list[PartieSeat] = []
        if not exhibition:
            rows.append(PartieSeat(seat=0, kind="member", member_id=member.id, answer="accepted"))
        taken = {member.id} if not exhibition else set()
        for spec in seats:
            seat = len(rows)
            if spec.kind == "bot":
                rows.append(PartieSeat(seat=seat, kind="bot", bot=_bot_name(club, descriptor, spec.bot), answer="accepted"))
            elif spec.kind in OPEN_KINDS:
                rows.append(PartieSeat(seat=seat, kind=spec.kind))
            elif spec.kind == "member":
                invited = s.scalar(select(Member).where(Member.name_key == str(spec.name or "").lower()))
                if invited is None or invited.disabled:
                    raise Invalid(f"no member named {spec.name!r}", code="no_such_member")
                if invited.id in taken:
                    raise Invalid(f"{invited.name} cannot sit at two seats", code="invalid_seats")
                taken.add(invited.id)
                rows.append(PartieSeat(seat=seat, kind="member", member_id=invited.id, answer="invited"))
            else:
                raise Invalid("a seat is 'member', 'open', 'bot_open' or 'bot'", code="invalid_seats")
        check_together(s, [row.member_id for row in rows])
        partie = Partie(
            game=game,
            settings=settings,
            timer_seconds=timer,
            bank_seconds=bank,
            weekends_off=weekends_off,
            weekend_zone=weekend_zone,
            exhibition=exhibition,
            proposer_id=member.id,
            status="proposed",
            seats=rows,
        )
        s.add(partie)
        s.flush()
        started = _start_if_ready(partie, club.clock.now())
        partie_id = partie.id
        invited = [row.member_id for row in rows if row.answer == "invited"]
    about = {"by": member.name, "game": game, **({"rematch_of": rematch_of} if rematch_of is not None else {})}
    tells: list[Tell] = [(invited, "invited", about)]
    if started:  # computer players only: my table may wait for me
        tells.append(([member.id], "answered", about))
    _announce(club, partie_id, started, tells)
    return partie_id


def _start_if_ready(partie: Partie, now: datetime) -> bool:
    if partie.status != "proposed":
        return False
    if any(seat.kind in OPEN_KINDS or seat.answer != "accepted" for seat in partie.seats):
        return False
    partie.status = "running"
    partie.seed = secrets.token_hex(16)
    partie.started_at = now
    partie.version = 0
    clock_of(partie.timer_seconds).start(partie, now)  # the players' clocks start with the partie
    return True


def _announce(club: Club, partie_id: int, started: bool, tells: Sequence[Tell] = ()) -> None:
    club.notify_partie(partie_id, {"kind": "seats"})
    club.hub.publish(notices.LOBBY_CHANNEL, {"kind": "proposals", "partie": partie_id})
    for member_ids, kind, about in tells:
        notices.tell(club.hub, member_ids, kind, partie=partie_id, **about)
    if started:
        club.poke_bots(partie_id)


def _answered(partie: Partie, member: CurrentMember, kind: str, started: bool) -> list[Tell]:
    """Who hears of a member's answer or seat: the proposer; once the partie starts,
    every other member at the table (the proposer included) hears that instead."""
    about = {"by": member.name, "game": partie.game}
    mine: Tell = ([member.id], "answered", about)  # his own other pages count again
    if started:
        return [([row.member_id for row in partie.seats if row.member_id != member.id], "started", about), mine]
    return [([partie.proposer_id], kind, about), mine]


def _locked_proposal(club: Club, s, partie_id: int) -> Partie:
    partie = s.scalar(for_update(select(Partie).where(Partie.id == partie_id), club.db, of=Partie))
    if partie is None:
        raise NotFound(f"there is no partie {partie_id}", code="no_such_partie")
    if partie.status != "proposed":
        raise Conflict("this proposal is no longer open", code="not_proposed")
    return partie


def answer(club: Club, member: CurrentMember, partie_id: int, accept: bool) -> dict[str, Any]:
    with club.db.write() as s:
        partie = _locked_proposal(club, s, partie_id)
        seat = next((row for row in partie.seats if row.member_id == member.id and row.kind == "member"), None)
        if seat is None or seat.seat == 0:
            raise Forbidden("you are not invited to this partie", code="not_invited")
        if accept and seat.answer != "accepted":
            clock_of(partie.timer_seconds).check_cap(club, s, member.id, member.name)
        seat.answer = "accepted" if accept else "declined"
        started = accept and _start_if_ready(partie, club.clock.now())
        out = proposal_summary(partie, member.id)
        tells = _answered(partie, member, "accepted" if accept else "declined", started)
    _announce(club, partie_id, started, tells)
    return out


def join(club: Club, member: CurrentMember, partie_id: int, seat_no: int | None = None) -> dict[str, Any]:
    """Take an open seat (the first one unless ``seat_no`` is given); a bot account takes
    a bot-open seat."""
    kind = "bot_open" if member.role == "bot" else "open"
    with club.db.write() as s:
        partie = _locked_proposal(club, s, partie_id)
        if any(row.member_id == member.id for row in partie.seats):
            raise Conflict("you already have a seat at this partie", code="already_seated")
        open_seats = [row for row in partie.seats if row.kind == kind and row.member_id is None]
        if seat_no is not None:
            open_seats = [row for row in open_seats if row.seat == seat_no]
        if not open_seats:
            raise Conflict("no open seat to take", code="no_open_seat")
        clock_of(partie.timer_seconds).check_cap(club, s, member.id, member.name)
        row = open_seats[0]
        check_together(s, [*(r.member_id for r in partie.seats), member.id])
        row.member_id = member.id
        row.answer = "accepted"
        row.kind = "member"
        started = _start_if_ready(partie, club.clock.now())
        out = proposal_summary(partie, member.id)
        tells = _answered(partie, member, "joined", started)
    _announce(club, partie_id, started, tells)
    return out


def withdraw(club: Club, member: CurrentMember, partie_id: int) -> None:
    with club.db.write() as s:
        partie = _locked_proposal(club, s, partie_id)
        if partie.proposer_id != member.id:
            raise Forbidden("only the proposer may withdraw a proposal", code="not_proposer")
        partie.status = "withdrawn"
        named = [row.member_id for row in partie.seats if row.member_id != member.id]
    _announce(club, partie_id, False, [(named, "withdrawn", {"by": member.name, "game": partie.game})])


def set_seat(club: Club, member: CurrentMember, partie_id: int, seat_no: int, spec: SeatSpec) -> dict[str, Any]:
    """The proposer fills a seat again (e.g. after a decline)."""
    with club.db.write() as s:
        partie = _locked_proposal(club, s, partie_id)
        if partie.proposer_id != member.id:
            raise Forbidden("only the proposer may change the seats", code="not_proposer")
        if not 1 <= seat_no < len(partie.seats):
            raise Invalid(f"there is no seat {seat_no} to change", code="invalid_seats")
        row = partie.seats[seat_no]
        before = row.member_id
        row.member_id, row.bot, row.answer = None, None, None
        if spec.kind == "bot":
            row.kind, row.bot, row.answer = "bot", _bot_name(club, game_of(partie.game), spec.bot), "accepted"
        elif spec.kind in OPEN_KINDS:
            row.kind = spec.kind
        elif spec.kind == "member":
            invited = s.scalar(select(Member).where(Member.name_key == str(spec.name or "").lower()))
            if invited is None or invited.disabled:
                raise Invalid(f"no member named {spec.name!r}", code="no_such_member")
            if any(other.member_id == invited.id for other in partie.seats if other.seat != seat_no):
                raise Invalid(f"{invited.name} already has a seat", code="invalid_seats")
            check_together(s, [*(r.member_id for r in partie.seats if r.seat != seat_no), invited.id])
            row.kind, row.member_id, row.answer = "member", invited.id, "invited"
        else:
            raise Invalid("a seat is 'member', 'open', 'bot_open' or 'bot'", code="invalid_seats")
        started = _start_if_ready(partie, club.clock.now())
        out = proposal_summary(partie, member.id)
        about = {"by": member.name, "game": partie.game}
        tells: list[Tell] = []
        if before is not None and before != row.member_id:
            tells.append(([before], "withdrawn", about))
        if row.answer == "invited" and row.member_id != before:
            tells.append(([row.member_id], "invited", about))
        if started:
            tells.append(([r.member_id for r in partie.seats if r.member_id != member.id], "started", about))
    _announce(club, partie_id, started, tells)
    return out


def proposal_summary(partie: Partie, member_id: int | None = None) -> dict[str, Any]:
    my_seat = next((row.seat for row in partie.seats if member_id is not None and row.member_id == member_id), None)
    return {
        "id": partie.id,
        "game": partie.game,
        "settings": partie.settings,
        "timer": partie.timer_seconds,
        # a slow partie (app/parties/slow.py): each player's time bank, weekends left out
        "slow": clock_of(partie.timer_seconds).slow,
        "bank": partie.bank_seconds,
        "weekends_off": bool(partie.weekends_off),
        "weekend_zone": partie.weekend_zone if partie.weekends_off else None,  # None: UTC
        "status": partie.status,
        "exhibition": partie.exhibition,
        "proposer": partie.proposer.name if partie.proposer else None,
        "seats": seats_info(partie),
        "my_seat": my_seat,
        "version": partie.version,
        "created_at": partie.created_at.isoformat() if partie.created_at else None,
        "started_at": partie.started_at.isoformat() if partie.started_at else None,
        "finished_at": partie.finished_at.isoformat() if partie.finished_at else None,
        # a table of a tournament round (app/tournaments/), or None
        "tournament": ({"id": partie.tournament_id, "round": partie.tournament_round, "table": partie.table_no}
                       if partie.tournament_id is not None else None),
    }


def get_summary(club: Club, partie_id: int, member: CurrentMember | None) -> dict[str, Any]:
    with club.db.read() as s:
        partie = s.get(Partie, partie_id)
        if partie is None:
            raise NotFound(f"there is no partie {partie_id}", code="no_such_partie")
        return proposal_summary(partie, member.id if member else None)


def lobby(club: Club, member: CurrentMember) -> dict[str, list[dict[str, Any]]]:
    """What the lobby shows a member of the proposals and running parties.

    Each proposal is under one heading, as this member sees it: ``mine`` (he proposed
    it), ``invitations`` (he is invited and has not answered), ``accepted`` (he accepted
    or took a seat and waits for the other players), ``open`` (a seat he may take); one
    he declined is not listed. Then ``playing`` (his tables) and ``running`` (to watch).
    """
    with club.db.read() as s:
        proposed = s.scalars(select(Partie).where(Partie.status == "proposed").order_by(Partie.id)).all()
        mine_running = s.scalars(
            select(Partie)
            .join(PartieSeat)
            # a seat he left for good (a computer player took it) is no table of his; one the
            # others voted away in a slow partie is, he may take it back (app/tables/presence.py)
            .where(Partie.status == "running", PartieSeat.member_id == member.id,
                   PartieSeat.taken_over.is_(False) | PartieSeat.reclaimable.is_(True))
            .order_by(Partie.id)
        ).all()
        watchable = s.scalars(
            select(Partie).where(Partie.status == "running", open_to(member.id)).order_by(Partie.id.desc()).limit(50)
        ).all()
        invited, accepted, open_, own = [], [], [], []
        for p in proposed:
            summary = proposal_summary(p, member.id)
            answer = next((r.answer for r in p.seats if r.member_id == member.id), None)
            if p.proposer_id == member.id:
                own.append(summary)
            elif answer == "invited":
                invited.append(summary)
            elif answer == "accepted":
                accepted.append(summary)
            elif answer is None and any(r.kind == "open" for r in p.seats):
                open_.append(summary)
        playing = []
        now = club.clock.now()
        for p in mine_running:
            summary = proposal_summary(p, member.id)
            table = open_table(club, s, p)
            mine = p.seats[summary["my_seat"]]
            with table.lock:  # (a seat a computer player took over is not waiting for me)
                summary["your_turn"] = summary["my_seat"] in table.latest.to_act and not mine.taken_over
            if summary["slow"]:  # my clock there: what is left of my time (decision, bank, vacation)
                summary["my_clock"] = my_clock(club, s, p, summary["my_seat"], member.id, now)
            playing.append(summary)
        # The live tables first; then the slow ones, those waiting for me first, the least time left first.
        playing.sort(key=lambda x: (x["slow"], not x["your_turn"],
                                    (x.get("my_clock") or {}).get("left", 0) if x["slow"] else 0, x["id"]))
        return {
            "invitations": invited,
            "open": open_,
            "mine": own,
            "accepted": accepted,
            "playing": playing,
            # the slow tables where it is my turn
            "slow_waiting": sum(1 for x in playing if x["slow"] and x["your_turn"]),
            "running": [proposal_summary(p, member.id) for p in watchable],
        }


