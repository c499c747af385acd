"""A table socket's notices that waited are handled together: of their ``seats`` notices
only the last reads the seats (each would read the same seats anew), in its place; every
other notice keeps its order."""

from app.tables.ws import _one_seats_read


def test_only_the_last_seats_notice_of_a_batch_reads_and_the_rest_keep_their_order():
    batch = [("partie:1", {"kind": "seats"}), ("partie:1", {"kind": "advance", "version": 3}),
             ("sessions", {"kind": "ended", "sessions": ["s"]}), ("partie:1", {"kind": "seats"}),
             ("partie:1", {"kind": "chat", "message": {}})]
    assert _one_seats_read(batch) == batch[1:]
    assert _one_seats_read(batch[:1]) == batch[:1]
    no_seats = [batch[1], batch[4]]
    assert _one_seats_read(no_seats) == no_seats
