"""The archive: parties per member and for the Club, score sheets, records in and out.

A record of a partie still being played must not tell anyone more than the table does:
the running deal keeps only the hand of the member asking (if he plays), the talon and
the other hands are null, and the seed never leaves the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, and_, false, not_, or_, select

from app.db.models import ImportedRecord, Member, Partie, PartieSeat
from app.errors import Invalid, NotFound
from app.games.base import GameError
from app.games.records import brief, replay
from app.games.registry import descriptors
from app.members.service import CurrentMember, check_name
from app.parties.proposals import proposal_summary
from app.parties.lookup import computer_name, get_partie, open_table, player_name, seat_of
from app.parties.visibility import check_may_watch, open_to
from app.parties.engines import game_of

if TYPE_CHECKING:
    from app.club import Club

# Imported records (POST /api/records): the body's size in bytes, how deep it nests. A
# Lora partie's record is about 17 KB and nests 6 deep (record, deals, a deal, hands, a
# hand, a card); a megabyte holds some 4,000 preferans deals.
MAX_RECORD_BYTES = 1024 * 1024
MAX_RECORD_DEPTH = 16

# "unfinished": still running, or ended early by its last member (app/parties/leaving.py).
ARCHIVE_STATUSES = {"finished": ("finished",), "unfinished": ("running", "abandoned"),
                    "all": ("finished", "running", "abandoned")}
# Whose rules a partie was played by: the Club's own, or a table's house rules.
ARCHIVE_RULES = ("club", "house")


def played_by_house_rules() -> ColumnElement[bool]:
    """True for a partie whose settings name one of its game's house rules (descriptor
    ``house_keys``); a JSON key that is absent reads as NULL in SQLite and PostgreSQL."""
    clauses = [
        and_(Partie.game == d.code, or_(*(Partie.settings[key].as_string().is_not(None) for key in d.house_keys)))
        for d in descriptors() if d.house_keys
    ]
    return or_(*clauses) if clauses else false()


def list_parties(
    club: Club, member_name: str | None, status: str = "all", limit: int = 100, game: str | None = None,
    rules: str | None = None, viewer_id: int | None = None, tournament: bool | None = None,
) -> list[dict[str, Any]]:
    """The newest parties first; ``rules``: only those played by the Club's own rules
    (``"club"``) or by house rules (``"house"``); ``tournament``: only the tables of
    tournaments (True) or only the other parties (False). A table of a tournament round
    still being played is listed only to its players (``viewer_id``; rulings T8)."""
    if status not in ARCHIVE_STATUSES:
        raise Invalid("status is finished, unfinished or all", code="invalid_status")
    if rules is not None and rules not in ARCHIVE_RULES:
        raise Invalid("rules is club or house", code="invalid_rules")
    with club.db.read() as s:
        stmt = select(Partie).where(Partie.status.in_(ARCHIVE_STATUSES[status]))
        if game is not None:
            stmt = stmt.where(Partie.game == game_of(game).code)
        if rules is not None:
            house = played_by_house_rules()
            stmt = stmt.where(house if rules == "house" else not_(house))
        if tournament is not None:
            stmt = stmt.where(Partie.tournament_id.is_not(None) if tournament else Partie.tournament_id.is_(None))
        stmt = stmt.where(open_to(viewer_id))
        member_id = None
        if member_name is not None:
            member = s.scalar(select(Member).where(Member.name_key == member_name.lower()))
            if member is None:
                raise NotFound(f"no member named {member_name!r}", code="no_such_member")
            member_id = member.id
            stmt = stmt.where(Partie.id.in_(select(PartieSeat.partie_id).where(PartieSeat.member_id == member.id)))
        parties = s.scalars(stmt.order_by(Partie.id.desc()).limit(max(1, min(limit, 500)))).all()
        out = []
        for p in parties:
            summary = proposal_summary(p, member_id)
            summary["result"] = p.result
            out.append(summary)
        return out



def score_sheet(club: Club, partie_id: int, viewer_id: int | None) -> dict[str, Any]:
    """The score sheet as the engine keeps it: its result, and the game's own paper if it
    keeps one; for a viewer who may watch the table (app/parties/visibility.py)."""
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        check_may_watch(s, partie, viewer_id)
        table = open_table(club, s, partie)
        with table.lock:
            result = table.engine.result()
            papir = game_of(partie.game).papir(table.engine)  # public: every seat's view has it
        out = {
            "partie": partie.id,
            "game": partie.game,
            "status": partie.status,
            "players": [player_name(row) for row in partie.seats],
            "version": table.version,
            "result": result,
        }
        if papir is not None:
            out["papir"] = papir
        return out


def record(club: Club, partie_id: int, member: CurrentMember | None) -> dict[str, Any]:
    """``klub-record/1`` of a partie; a running one is redacted for the member asking."""
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        check_may_watch(s, partie, member.id if member else None)
        table = open_table(club, s, partie)
        players = [player_name(row) for row in partie.seats]
        seat = seat_of(partie, member.id if member else None)
        with table.lock:
            out = table.engine.to_record(players)
            finished = table.engine.finished
    out.pop("seed", None)
    if not finished:
        _redact_running_deal(out, partie.game, seat)
    return out


def _redact_running_deal(rec: dict[str, Any], game: str, seat: int | None) -> None:
    rec["unfinished"] = True
    deals = rec.get("deals") or []
    if not deals:
        return
    running = deals[-1]
    running["hands"] = [hand if i == seat else None for i, hand in enumerate(running.get("hands") or [])]
    if "talon" in running:
        running["talon"] = None
    public_word = game_of(game).public_word
    running["actions"] = [[s, public_word(w, s == seat)] for s, w in running.get("actions", [])]
    running["redacted"] = True
    rec["redacted_deal"] = len(deals) - 1


def import_record(club: Club, member: CurrentMember, rec: Any) -> dict[str, Any]:
    """Check a record by replaying it and keep it to view; returns it with its result.

    Every malformed record is :class:`Invalid` naming the problem (and nothing is kept):
    the replay checks the format, the game, the settings, the deals and every word; here
    the Club's own limits are added: how deep the document nests, ``redacted_deal`` (the
    index of the last deal, which an export of a running partie cannot replay), and the
    players' names (the registration rule, or a computer player's "AI n").
    """
    if not isinstance(rec, dict):
        raise Invalid("a record is a JSON object", code="invalid_record")
    if not nests_at_most(rec, MAX_RECORD_DEPTH):
        raise Invalid(f"a record nests lists and objects at most {MAX_RECORD_DEPTH} deep", code="invalid_record")
    rec = dict(rec)
    redacted = rec.pop("redacted_deal", None)
    if redacted is not None:
        # An export of a running partie: its last deal cannot be replayed.
        deals = rec.get("deals")
        if not isinstance(deals, list) or not deals:
            raise Invalid("redacted_deal names a deal, but 'deals' is not a list of deals", code="invalid_record")
        last = len(deals) - 1
        if not isinstance(redacted, int) or isinstance(redacted, bool) or redacted != last:
            raise Invalid(
                f"redacted_deal is the index of the record's last deal ({last}), got {brief(redacted)}",
                code="invalid_record",
            )
        rec["deals"] = deals[:last]
    try:
        partie = replay(rec)
        rec["result"] = partie.result()
    except GameError as e:
        raise Invalid(f"the record does not replay: {e}", code="invalid_record") from None
    _check_player_names(rec["players"])
    with club.db.write() as s:
        row = ImportedRecord(member_id=member.id, game=rec["game"], players=list(rec["players"]), record=rec)
        s.add(row)
        s.flush()
        return {"id": row.id, "game": row.game, "players": row.players, "finished": partie.finished, "record": rec}


def _check_player_names(players: list[str]) -> None:
    """A record's players are named as members are (the registration rule), or are the
    Club's computer players as its exports name them ("AI 1" ... in their seats)."""
    computers = {computer_name(seat) for seat in range(len(players))}
    for seat, name in enumerate(players):
        if name in computers:
            continue
        try:
            check_name(name)
        except Invalid as e:
            raise Invalid(
                f"player {seat} ({brief(name)}): {e.message}, or a computer player's name ('AI 1')",
                code="invalid_record",
            ) from None


def nests_at_most(value: Any, depth: int) -> bool:
    """Whether lists and objects nest at most ``depth`` deep in a JSON value (without recursion)."""
    stack = [(value, 1)]
    while stack:
        v, level = stack.pop()
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        if level > depth:
            return False
        stack.extend((child, level + 1) for child in children if isinstance(child, (dict, list)))
    return True


def get_imported(club: Club, record_id: int, member: CurrentMember) -> dict[str, Any]:
    """An imported record, for the member who imported it only (the others: not found)."""
    with club.db.read() as s:
        row = s.get(ImportedRecord, record_id)
        if row is None or row.member_id != member.id:
            raise NotFound(f"there is no imported record {record_id}", code="no_such_record")
        return {"id": row.id, "game": row.game, "players": row.players, "record": row.record}


def list_imported(club: Club, member: CurrentMember) -> list[dict[str, Any]]:
    with club.db.read() as s:
        rows = s.scalars(
            select(ImportedRecord).where(ImportedRecord.member_id == member.id).order_by(ImportedRecord.id.desc())
        ).all()
        return [{"id": r.id, "game": r.game, "players": r.players} for r in rows]


