"""What a finished partie does to the ratings, with no database: the one step that both
the live updates and the rebuild take, so that both give the same numbers.

:func:`outcome_of` reads a partie row into an :class:`Outcome` (or None when the partie
does not count at all); :func:`apply_outcome` moves the members' standings on and
returns one :class:`EventRow` per member seat.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.db.models import Partie
from app.games.base import GameError
from app.games.registry import descriptor
from app.ratings.method import NEW_MEMBER, Skill, bot_skill, displayed, rate


@dataclass(frozen=True)
class Outcome:
    """A finished partie as the ratings see it: who sat where and the places."""

    partie_id: int
    game: str
    finished_at: datetime
    # Per seat: the member's id, or None for a computer player.
    members: tuple[int | None, ...]
    # Per seat: the computer player's level (None for a member's seat).
    bots: tuple[str | None, ...]
    # Per seat, 1-based (shared places allowed); None if the result names no valid places.
    places: tuple[int, ...] | None
    house_rules: bool

    @property
    def rated(self) -> bool:
        """Whether the partie moves ratings (the Club's rules and valid places)."""
        return self.places is not None and not self.house_rules


@dataclass
class Standing:
    """A member's rating in one game as it stands."""

    skill: Skill
    parties: int
    updated_at: datetime
    last_partie_id: int | None


@dataclass(frozen=True)
class EventRow:
    """One member's row of ``rating_events`` for one partie."""

    partie_id: int
    member_id: int
    game: str
    place: int | None
    rated: bool
    before: Skill | None
    after: Skill | None
    rating_after: int | None
    finished_at: datetime

    def values(self) -> dict[str, Any]:
        """The row's column values."""
        return {
            "partie_id": self.partie_id, "member_id": self.member_id, "game": self.game, "place": self.place,
            "rated": self.rated,
            "mu_before": self.before.mu if self.before else None,
            "sigma_before": self.before.sigma if self.before else None,
            "mu_after": self.after.mu if self.after else None,
            "sigma_after": self.after.sigma if self.after else None,
            "rating_after": self.rating_after, "finished_at": self.finished_at,
        }


def played_by_house_rules(game: str, settings: dict[str, Any] | None) -> bool:
    """The archive's reading (app.parties.archive.played_by_house_rules): a setting named by
    the game's ``house_keys`` is present and not null."""
    try:
        keys = descriptor(game).house_keys
    except GameError:
        keys = ()
    settings = settings or {}
    return any(settings.get(key) is not None for key in keys)


def valid_places(places: Any, seats: int) -> tuple[int, ...] | None:
    """``result["places"]`` if it is one whole number from 1 to ``seats`` per seat."""
    if not isinstance(places, list) or len(places) != seats:
        return None
    if not all(isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= seats for p in places):
        return None
    return tuple(places)


def outcome_of(partie: Partie) -> Outcome | None:
    """The partie as the ratings see it; None if it does not count: not finished (an
    abandoned or running partie), an exhibition, or no member at the table."""
    if partie.status != "finished" or partie.exhibition or partie.finished_at is None:
        return None
    seats = sorted(partie.seats, key=lambda row: row.seat)
    members = tuple(row.member_id if row.kind == "member" else None for row in seats)
    if all(m is None for m in members):
        return None
    result = partie.result or {}
    return Outcome(
        partie_id=partie.id,
        game=partie.game,
        finished_at=partie.finished_at,
        members=members,
        bots=tuple(row.bot if row.kind == "bot" else None for row in seats),
        places=valid_places(result.get("places"), len(seats)),
        house_rules=played_by_house_rules(partie.game, partie.settings),
    )


def apply_outcome(outcome: Outcome, standings: MutableMapping[int, Standing]) -> list[EventRow]:
    """Rate ``outcome`` against ``standings`` (member id -> his standing in the partie's
    game; a member without one starts new), update them, and return the events.

    A member whose seat a computer player took over is rated by his seat's place: leaving
    does not spare him the partie. Computer players keep their fixed ratings.
    """
    seated = [(seat, m) for seat, m in enumerate(outcome.members) if m is not None]
    if not outcome.rated:
        return [EventRow(outcome.partie_id, m, outcome.game, outcome.places[seat] if outcome.places else None,
                         False, None, None, None, outcome.finished_at) for seat, m in seated]
    assert outcome.places is not None
    before = [
        standings[m].skill if m is not None and m in standings else NEW_MEMBER if m is not None
        else bot_skill(outcome.bots[seat])
        for seat, m in enumerate(outcome.members)
    ]
    after = rate(before, outcome.places)
    events = []
    for seat, m in seated:
        old = standings.get(m)
        standings[m] = Standing(after[seat], (old.parties if old else 0) + 1, outcome.finished_at, outcome.partie_id)
        events.append(EventRow(outcome.partie_id, m, outcome.game, outcome.places[seat], True, before[seat],
                               after[seat], displayed(after[seat]), outcome.finished_at))
    return events
