"""JSON the Club's screens need beyond the REST API of the server: the replay of a partie.

- ``GET /ui/api/parties/{id}/replay?deal=k``: every step of deal k with all hands face up
  (for the archive's hand-by-hand viewer). It replays the partie's ``klub-record/1`` with
  the engines; a running partie's deal in play is not shown (its record is redacted).
- ``GET /ui/api/parties/{id}/shown/{k}``: the whole deal of an ended preferans hand
  (section 4: shown to everyone once the hand is over), for the table's "previous hand".
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from app.errors import Invalid
from app.games.registry import engine_class
from app.parties import archive
from app.web.deps import ClubDep, MemberDep

router = APIRouter(prefix="/ui/api", tags=["ui"], include_in_schema=False)

LORA_KEYS = ("index", "contract", "contract_title", "dealer", "first", "turn", "ended", "points", "trick",
             "trick_counts", "penalty_cards", "rows", "start_rank",
             # Lórum (issue 8): the bank, Kvart's chains, the Fast train, Domino's passes
             "bank", "chain", "chains", "next_card", "train", "next_rank", "passes")
PREF_KEYS = ("phase", "deal_index", "dealer", "first_bidder", "turn", "bid", "bid_holder", "declarer", "contract",
             "talon", "follow", "in_play", "trick", "trick_counts", "end", "words")


def _public(game: str, engine) -> dict[str, Any]:
    view = engine.view(None)
    if game in ("lora", "lorum"):
        deal = view.get("deal") or {}
        return {k: deal.get(k) for k in LORA_KEYS}
    hand = view.get("hand") or {}
    out = {k: hand.get(k) for k in PREF_KEYS}
    out["offer"] = view.get("offer")
    po = hand.get("ponuda")
    out["ponuda"] = {"word": po["word"]} if po else None
    return out


def _hands(game: str, engine) -> list[list[str]]:
    out = []
    for s in range(engine.n_seats):
        v = engine.view(s)
        part = v.get("deal") if game in ("lora", "lorum") else v.get("hand")
        part = part or {}
        out.append(list(part.get("cards") or part.get("hand") or []))
    return out


def replay_deal(record: dict[str, Any], k: int | None) -> dict[str, Any]:
    game = record["game"]
    deals = list(record.get("deals") or [])
    if record.get("redacted_deal") is not None:
        deals = deals[: record["redacted_deal"]]
    n = len(deals)
    base = {"game": game, "players": record.get("players"), "deals": n, "settings": record.get("settings")}
    if n == 0:
        return {**base, "deal": None, "steps": []}
    k = n - 1 if k is None else k
    if not 0 <= k < n:
        raise Invalid(f"the record has deals 0 to {n - 1}", code="no_such_deal")
    engine = engine_class(game).new(record.get("settings") or {})
    for d in deals[:k]:
        engine.start_deal(d["hands"], d.get("talon"))
        for seat, word in d["actions"]:
            engine.apply(seat, word)
    d = deals[k]
    engine.start_deal(d["hands"], d.get("talon"))
    steps = [{"action": None, "hands": _hands(game, engine), "table": _public(game, engine)}]
    for seat, word in d["actions"]:
        engine.apply(seat, word)
        steps.append({"action": [seat, word], "hands": _hands(game, engine), "table": _public(game, engine)})
    result = engine.result()
    return {**base, "deal": k, "dealt": {"hands": d["hands"], "talon": d.get("talon")}, "steps": steps,
            "result": result, "papir": engine.papir() if game == "preferans" else None}


@router.get("/parties/{partie_id}/replay")
async def replay(partie_id: int, member: MemberDep, club: ClubDep, deal: int | None = None):
    record = await run_in_threadpool(archive.record, club, partie_id, member)
    return await run_in_threadpool(replay_deal, record, deal)


def shown_deal(club, partie_id: int, deal_index: int) -> dict[str, Any]:
    """The whole deal of an ended preferans hand, face up (public once the hand is over)."""
    from app.errors import ClubError
    from app.games.base import GameError
    from app.tables.service import get_partie, open_table

    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        table = open_table(club, s, partie)
    with table.lock:
        engine = table.engine
        if not hasattr(engine, "shown_deal"):
            raise ClubError("only preferans shows ended deals", code="not_preferans", status=404)
        try:
            return engine.shown_deal(deal_index)
        except GameError as e:
            raise ClubError(str(e), code="deal_not_ended", status=404) from None


@router.get("/parties/{partie_id}/shown/{deal_index}")
async def shown(partie_id: int, deal_index: int, member: MemberDep, club: ClubDep):
    return await run_in_threadpool(shown_deal, club, partie_id, deal_index)
