"""A table socket's notices that waited are handled together: their ``seats`` notices
become one, in the last one's place (every change of presence they tell when each tells
its own, else one read of the seats); every other notice keeps its order."""

from app.tables.ws import _one_seats_read


def told(seat: int, away: bool, version: int) -> tuple[str, dict]:
    return ("partie:1", {"kind": "seats", "presence": [{"seat": seat, "away": away, "seats_version": version}]})


def test_seats_notices_without_their_changes_become_one_read_in_the_last_ones_place():
    batch = [("partie:1", {"kind": "seats"}), ("partie:1", {"kind": "advance", "version": 3}),
             ("sessions", {"kind": "ended", "sessions": ["s"]}), ("partie:1", {"kind": "seats"}),
             ("partie:1", {"kind": "chat", "message": {}})]
    assert _one_seats_read(batch) == batch[1:]
    assert _one_seats_read(batch[:1]) == batch[:1]
    no_seats = [batch[1], batch[4]]
    assert _one_seats_read(no_seats) == no_seats


def test_told_changes_of_presence_are_kept_all_in_one_notice():
    advance = ("partie:1", {"kind": "advance", "version": 3})
    merged = _one_seats_read([told(1, False, 5), advance, told(2, False, 4)])
    assert merged == [advance, ("partie:1", {"kind": "seats", "presence": [
        {"seat": 1, "away": False, "seats_version": 5}, {"seat": 2, "away": False, "seats_version": 4}]})]


def test_one_notice_without_its_change_makes_the_batch_read_the_seats():
    # a change that was not told (a vote, a takeover...) may be newer than every told one
    batch = [told(1, True, 7), ("partie:1", {"kind": "seats"}), told(1, False, 8)]
    assert _one_seats_read(batch) == [("partie:1", {"kind": "seats"})]
