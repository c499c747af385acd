"""An open otpis (or fall offer) shows what accepting it writes on the papir, before the
answers (issue 23, item 2): the preview is the engine's, and accepting writes exactly it."""

import json
import random

from app.games.preferans import PreferansPartie
from tests.support.preferans import all_pass, new, prolaz, say, zovem_fall


def preview(p, seat=None):
    offer = json.loads(json.dumps(p.view(seat)))["offer"]
    return offer and offer["if_accepted"]


def test_otpis_preview_is_what_the_acceptance_writes():
    p = new({"bule": 30, "refe": 2})
    prolaz(p, 1, "tref")  # [30, 20, 30], sum 80 = 3 x 26 + 2: the two largest fall by 27
    before = p.result()
    assert preview(p) is None  # no offer open
    say(p, "0:otpis")
    shown = preview(p, 1)
    assert shown == preview(p, 2) == preview(p, 0) == preview(p, None)  # public, the same for all
    assert shown["bule"] == [-27, -26, -27] and shown["bule_after"] == [3, -6, 3]
    assert shown["supe"] == [[0, 0, 0]] * 3 and shown["ends"] is True
    say(p, "1:prihvatam")
    assert preview(p, 2) == shown  # one answer in: the consequence has not changed
    say(p, "2:prihvatam")
    after = p.result()
    assert after["finished"] and after["bule"] == shown["bule_after"]
    assert [a - b for a, b in zip(after["bule"], before["bule"])] == shown["bule"]
    assert after["supe"] == before["supe"]  # an otpis writes no supe
    assert after["results"] == shown["results"] and after["places"] == shown["places"]
    assert p.papir()["lines"][-1] == {"kind": "otpis", "after_deal": 0, "shares": [27, 26, 27]}


def test_refused_otpis_changes_nothing_and_its_preview_goes():
    p = new({"bule": 30, "refe": 2})
    prolaz(p, 1, "herc")
    all_pass(p)
    before = p.result()
    say(p, "2:otpis")
    assert preview(p)["bule_after"] == [2, -5, 3]  # the tie for the extra point, by order
    say(p, "0:odbijam")
    assert preview(p) is None and p.result() == before


def test_fall_offer_preview_moves_the_fall_and_its_supe():
    p = zovem_fall()  # the caller (0) fell: v 8, he wrote 2 x 8 against the declarer (1)
    before = p.result()
    say(p, "2:preuzimam pad")
    shown = preview(p, 0)
    assert shown["bule"] == [-8, 0, 8] and shown["ends"] is False and shown["places"] is None
    assert shown["supe"] == [[0, -16, 0], [0, 0, 0], [0, 16, 0]]
    say(p, "0:prihvatam")
    after = p.result()
    assert after["bule"] == shown["bule_after"] == [60, 52, 68]
    assert after["supe"] == [[before["supe"][i][j] + shown["supe"][i][j] for j in range(3)] for i in range(3)]
    assert after["results"] == shown["results"]


def test_random_parties_write_what_each_accepted_offer_showed():
    """Random play with many offers: every accepted otpis or fall offer writes its preview."""
    checked = 0
    for seed in range(12):
        p = PreferansPartie.new({"bule": 30, "refe": 1}, seed=f"preview-{seed}")
        rng = random.Random(seed)
        shown = before = None
        lines = 0  # the papir's lines when the offer opened
        while not p.finished:
            if p.side_offer is None and shown is not None:
                if p.papir()["lines"][-1]["kind"] in ("otpis", "odlazak u bulu", "vracen pad") and len(p.papir()["lines"]) > lines:
                    after = p.result()
                    assert after["bule"] == shown["bule_after"]
                    assert [a - b for a, b in zip(after["bule"], before["bule"])] == shown["bule"]
                    assert after["supe"] == [[before["supe"][i][j] + shown["supe"][i][j] for j in range(3)] for i in range(3)]
                    assert after["results"] == shown["results"]
                    if shown["ends"]:
                        assert after["finished"] and after["places"] == shown["places"]
                    checked += 1
                shown = None
            seats = p.seats_to_act()
            side = [s for s in range(3) if {"otpis", "preuzimam pad", "vracam pad"} & set(p.legal_actions(s))]
            if side and rng.random() < 0.3:
                seat = rng.choice(side)
                word = rng.choice([w for w in p.legal_actions(seat) if w in ("otpis", "preuzimam pad", "vracam pad")])
            else:
                seat = rng.choice(seats)
                legal = [w for w in p.legal_actions(seat) if w not in PreferansPartie.optional_words] or p.legal_actions(seat)
                word = rng.choice(legal)
            opening = p.side_offer is None and word in ("otpis", "preuzimam pad", "vracam pad")
            if opening:
                before, lines = p.result(), len(p.papir()["lines"])
            p.apply(seat, word)
            if opening:
                shown = preview(p)
        if shown is not None:  # the partie ended with the offer's acceptance
            after = p.result()
            assert after["bule"] == shown["bule_after"] and after["places"] == shown["places"]
            checked += 1
    assert checked >= 5, checked
