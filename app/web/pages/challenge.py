"""A bot's profile page challenges it (issue 39): the form ("Izazovi", its route in
app/web/pages/profiles.py), and what became of the member's challenge (waiting for the
bot, accepted: its table, declined with the bot's reason). The challenge is the bot API's
(``app.bots.online.challenge``: a proposal that invites the bot, the Club's computer
players at the other seats); its errors are worded as the pages word every error code
(``error_text``)."""

from __future__ import annotations

from typing import Any

from app.bots import online
from app.errors import ClubError
from app.games.registry import descriptors
from app.members.service import CurrentMember
from app.parties import proposals


def page_part(club, member: CurrentMember, name: str, challenge_id: str | None = None,
              error: str | None = None) -> dict[str, Any]:
    """The profile page's challenge context: ``bot`` (None: not a bot, or the member's own),
    ``challenge`` (the member's challenge ``?challenge=N`` of this bot: its seat's answer and
    reason, the partie's status), ``challenge_error`` (a code)."""
    bot = online.bot_card(club, name)
    if bot is None or bot["owner"].lower() == member.name.lower():
        return {"bot": None, "challenge": None, "challenge_error": error}
    out: dict[str, Any] = {"bot": bot, "challenge": None, "challenge_error": error,
                           "challenge_games": [g.code for g in descriptors()]}
    if challenge_id and challenge_id.isdigit():
        try:
            summary = proposals.get_summary(club, int(challenge_id), member)
        except ClubError:
            summary = None
        seat = next((s for s in (summary or {}).get("seats", []) if (s.get("name") or "").lower() == bot["name"].lower()),
                    None)
        if summary and seat and summary.get("proposer", "").lower() == member.name.lower():
            out["challenge"] = {"id": summary["id"], "game": summary["game"], "status": summary["status"],
                                "answer": seat.get("answer"), "reason": seat.get("decline_reason")}
    return out


def make(club, member: CurrentMember, name: str, game: str | None) -> int:
    """Challenge the bot ``name`` to a partie of ``game`` (its default settings, no timer):
    the proposal's id. 404 ``no_such_bot``, 409 ``bot_offline``, 422 for an unknown game."""
    made = online.challenge(club, member, name, game or descriptors()[0].code, {}, None, None)
    return made["id"]
