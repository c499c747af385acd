"""JSON the Club's screens need beyond the REST API of the server: the replay of a partie.

- ``GET /ui/api/parties/{id}/replay?deal=k``: every step of deal k with all hands face up
  (for the archive's hand-by-hand viewer), and the result (and papir) after deal k for the
  sheet beside it, and why deal k ended (``deal_end``: the table's deal-end reasons, for
  the games that give them). It replays the partie's ``klub-record/1`` with the engines; a running
  partie's deal in play is not shown (its record is redacted).
- ``GET /ui/api/parties/{id}/shown/{k}``: the whole of an ended deal, for the games whose
  rules show it to everyone once it is over (the table's "previous hand").
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from app.deps import ClubDep, MemberDep
from app.errors import ClubError, Invalid
from app.games.base import GameError
from app.games.records import deal_pile
from app.games.registry import descriptor
from app.parties import archive
from app.parties.lookup import get_partie, open_table
from app.parties.visibility import check_may_watch

router = APIRouter(prefix="/ui/api", tags=["ui"], include_in_schema=False)


def replay_deal(record: dict[str, Any], k: int | None) -> dict[str, Any]:
    game = descriptor(record["game"])
    deals = list(record.get("deals") or [])
    if record.get("redacted_deal") is not None:
        deals = deals[: record["redacted_deal"]]
    n = len(deals)
    base = {"game": game.code, "players": record.get("players"), "deals": n, "settings": record.get("settings")}
    if n == 0:
        return {**base, "deal": None, "steps": []}
    k = n - 1 if k is None else k
    if not 0 <= k < n:
        raise Invalid(f"the record has deals 0 to {n - 1}", code="no_such_deal")
    engine = game.engine.new(record.get("settings") or {})
    for d in deals[:k]:
        engine.start_deal(d["hands"], deal_pile(engine, d))
        for seat, word in d["actions"]:
            engine.apply(seat, word)
    d = deals[k]
    pile_key = engine.pile_key
    engine.start_deal(d["hands"], deal_pile(engine, d))

    def step(action: list | None) -> dict[str, Any]:
        return {"action": action, "hands": game.replay_hands(engine), "table": game.replay_table(engine)}

    steps = [step(None)]
    for seat, word in d["actions"]:
        engine.apply(seat, word)
        steps.append(step([seat, word]))
    # Why deal k ended as it did, as the table said it (the games whose views carry
    # ``deal_ends``): shown at the replay's last step. None for the other games.
    end = next((e for e in engine.view(None).get("deal_ends") or [] if e.get("index") == k), None)
    # The sheet beside the replay: the partie as it stood at the end of deal k.
    return {**base, "deal": k, "dealt": {"hands": d["hands"], "talon": d.get("talon"), **({pile_key: d.get(pile_key)} if pile_key else {})}, "steps": steps,
            "result": engine.result(), "papir": game.papir(engine), "finished": engine.finished, "deal_end": end}


@router.get("/parties/{partie_id}/replay")
async def replay(partie_id: int, member: MemberDep, club: ClubDep, deal: int | None = None):
    record = await run_in_threadpool(archive.record, club, partie_id, member)
    return await run_in_threadpool(replay_deal, record, deal)


def shown_deal(club, partie_id: int, deal_index: int, member_id: int | None) -> dict[str, Any]:
    """The whole of an ended deal, face up (public once it is over, where the rules say so)."""
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        check_may_watch(s, partie, member_id)
        table = open_table(club, s, partie)
    game = descriptor(partie.game)
    if not game.shows_deals:
        raise ClubError(f"{game.name('en')} does not show ended deals", code="no_shown_deals", status=404)
    with table.lock:
        try:
            return game.shown_deal(table.engine, deal_index)  # type: ignore[return-value]
        except GameError as e:
            raise ClubError(str(e), code="deal_not_ended", status=404) from None


@router.get("/parties/{partie_id}/shown/{deal_index}")
async def shown(partie_id: int, deal_index: int, member: MemberDep, club: ClubDep):
    return await run_in_threadpool(shown_deal, club, partie_id, deal_index, member.id)
