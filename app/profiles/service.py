"""A member's profile: his rating in each game with its history, statistics from his
finished parties, his recent parties, and how he fared against another member.

Everything comes from the stored parties: ``Partie.result`` (places, totals, deals,
results) and, for a game that keeps a papir, the papir's lines replayed from the action
log (:mod:`app.parties.papers`); the ratings from :mod:`app.ratings.service`.
Exhibitions do not count (no member plays them).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload, undefer

from app.tournaments.reading import tournaments_of
from app.db.models import Member, Partie, PartieSeat
from app.errors import Invalid, NotFound
from app.games.registry import descriptor, descriptors
from app.parties.lookup import bot_name, player_name, seat_of
from app.parties.papers import papir_lines
from app.parties.visibility import open_to
from app.ratings.service import current_ratings, rating_history

if TYPE_CHECKING:
    from app.club import Club

RECENT = 10  # recent parties listed
TOGETHER = 10  # parties together listed in a head-to-head
TOP_CONTRACTS = 3


def profile(club: Club, name: str, vs: str | None = None, viewer_id: int | None = None) -> dict[str, Any]:
    """The profile of member ``name`` (404 ``no_such_member``) as ``viewer_id`` may see
    it: no table of a running tournament round where the viewer does not sit (rulings
    T11), in the lists or in the statistics; ``vs``: another member's name for the
    head-to-head."""
    with club.db.read() as s:
        member = _member(s, name)
        other = _member(s, vs) if vs else None
        if other is not None and other.id == member.id:
            raise Invalid("choose another member to compare with", code="same_member")
        finished = _parties(s, member.id, ("finished",), viewer_id)
        stats = _statistics(club, s, member.id, finished)
        recent = [_recent(p, member.id) for p in _parties(s, member.id, ("finished", "running"), viewer_id, RECENT)]
        h2h = _head_to_head(member, other, finished) if other is not None else None
        out_member = {"name": member.name, "member_since": _iso(member.created_at)}
    ratings = current_ratings(club.db, member.id)
    games = []
    for game in descriptors():
        rating, played = ratings.get(game.code), stats.get(game.code)
        if rating is None and played is None:
            continue
        history = rating_history(club.db, member.id, game.code) if rating is not None else []
        games.append({
            "game": game.code,
            "rating": rating,
            "history": [{**h, "finished_at": _iso(h["finished_at"])} for h in history],
            **(played or _no_statistics()),
        })
    return {**out_member, "games": games, "recent": recent, "head_to_head": h2h,
            "tournaments": tournaments_of(club, member.id)}


def _member(s: Session, name: str) -> Member:
    member = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
    if member is None:
        raise NotFound(f"there is no member named {name!r}", code="no_such_member")
    return member


def _parties(s: Session, member_id: int, statuses: tuple[str, ...], viewer_id: int | None,
             limit: int | None = None) -> list[Partie]:
    """The member's parties that the viewer may see (not exhibitions), the newest first,
    with results and seats."""
    stmt = (
        select(Partie)
        .where(Partie.status.in_(statuses), Partie.exhibition.is_(False), open_to(viewer_id),
               Partie.id.in_(select(PartieSeat.partie_id).where(PartieSeat.member_id == member_id)))
        .options(undefer(Partie.result), selectinload(Partie.seats))
        .order_by(Partie.id.desc())
    )
    if limit is not None:
        stmt = stmt.limit(limit)
    return list(s.scalars(stmt))


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def _places(partie: Partie) -> list[int]:
    places = (partie.result or {}).get("places")
    return list(places) if isinstance(places, list) and len(places) == len(partie.seats) else []


def _no_statistics() -> dict[str, Any]:
    return {"parties": 0, "places": [], "deals": 0, "mean_points_per_deal": None, "mean_result": None, "papir": None}


def _statistics(club: Club, s: Session, member_id: int, parties: list[Partie]) -> dict[str, dict[str, Any]]:
    """Per game: parties played, how often each place (``places[0]``: first places),
    the mean points per deal (games whose result lists deals and totals), the mean
    result per partie (games whose result has ``results``) and, for a game with a papir,
    the hands he declared (its descriptor's ``declared_hands``)."""
    by_game: dict[str, list[Partie]] = {}
    for p in parties:
        by_game.setdefault(p.game, []).append(p)
    out = {}
    for game, played in by_game.items():
        places: Counter[int] = Counter()
        deals = points = 0
        results: list[float] = []
        papir: dict[str, Any] | None = None
        contracts: Counter[str] = Counter()
        seats = 0
        for p in played:
            seat = seat_of(p, member_id)
            if seat is None:
                continue
            seats = max(seats, len(p.seats))
            result = p.result or {}
            if place := (_places(p) or [None] * len(p.seats))[seat]:
                places[place] += 1
            if isinstance(result.get("deals"), list) and isinstance(result.get("totals"), list):
                deals += len(result["deals"])
                points += result["totals"][seat]
            if isinstance(result.get("results"), list):
                results.append(result["results"][seat])
            lines = papir_lines(club, s, p)
            if lines is not None:
                papir = papir or {"hands_declared": 0, "made": 0, "fell": 0}
                for made, contract in descriptor(game).declared_hands(lines, seat):
                    papir["hands_declared"] += 1
                    papir["made" if made else "fell"] += 1
                    if contract:
                        contracts[contract] += 1
        if papir is not None:
            papir["contracts"] = [{"contract": c, "hands": n} for c, n in contracts.most_common(TOP_CONTRACTS)]
        out[game] = {
            "parties": len(played),
            "places": [places.get(i, 0) for i in range(1, max([seats, *places]) + 1)],
            "deals": deals,
            "mean_points_per_deal": round(points / deals, 2) if deals else None,
            "mean_result": round(sum(results) / len(results), 1) if results else None,
            "papir": papir,
        }
    return out


def _recent(p: Partie, member_id: int) -> dict[str, Any]:
    seat = seat_of(p, member_id)
    places = _places(p) if p.status == "finished" else []
    return {
        "id": p.id,
        "game": p.game,
        "status": p.status,
        "finished_at": _iso(p.finished_at),
        "started_at": _iso(p.started_at),
        "players": [{"name": player_name(row), "computer": row.member_id is None, "bot_name": bot_name(row)}
                    for row in p.seats],
        "place": places[seat] if places and seat is not None else None,
    }


def _head_to_head(member: Member, other: Member, finished: list[Partie]) -> dict[str, Any]:
    """The finished parties both played: how often each placed above the other."""
    total = Counter[str]()
    games: dict[str, Counter[str]] = {}
    together = []
    for p in finished:
        a, b = seat_of(p, member.id), seat_of(p, other.id)
        places = _places(p)
        if a is None or b is None or not places:
            continue
        outcome = "higher" if places[a] < places[b] else "lower" if places[a] > places[b] else "equal"
        for counter in (total, games.setdefault(p.game, Counter())):
            counter["parties"] += 1
            counter[outcome] += 1
        if len(together) < TOGETHER:
            together.append({"id": p.id, "game": p.game, "finished_at": _iso(p.finished_at),
                             "place": places[a], "other_place": places[b]})

    def counts(c: Counter[str]) -> dict[str, int]:
        return {k: c.get(k, 0) for k in ("parties", "higher", "lower", "equal")}

    return {
        "other": other.name,
        **counts(total),
        "games": [{"game": g.code, **counts(games[g.code])} for g in descriptors() if g.code in games],
        "parties_together": together,
    }
