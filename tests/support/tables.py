"""The word path of a Club built by hand (the word writer's and the events' tests): parties of
computer players started, and the next word of a seat to act."""

from __future__ import annotations

from app.club import Club
from app.members.service import CurrentMember, register
from app.parties.lookup import get_partie, open_table
from app.parties.proposals import SeatSpec, propose
from app.tables.service import start_word_writer
from app.tables.words import Word


def club_with_parties(settings, n: int) -> tuple[Club, list[int]]:
    club = Club.from_settings(settings)
    start_word_writer(club)
    member = register(club.db, "ana", "klupska-lozinka-7")
    me = CurrentMember(member.id, member.name, member.role, "-")
    # Four computer seats that no runner plays: the test says their words.
    pids = [propose(club, me, "lora", {}, None, [SeatSpec("bot")] * 4, exhibition=True) for _ in range(n)]
    return club, pids


def next_word(club: Club, pid: int, version: int, action_id: str | None = None) -> Word:
    with club.db.read() as s:
        table = open_table(club, s, get_partie(s, pid))
    with table.lock:
        seat = table.engine.seats_to_act()[0]
        word = table.engine.legal_actions(seat)[0]
    return Word(pid, seat, word, version, action_id, None, "bot")
