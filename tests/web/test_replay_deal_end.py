"""The archive's replay of a deal ends with why it ended (issue 23, item 2): the replay's
``deal_end`` is the table's deal end of that deal (the engine that played the partie
live, seeded, said the same), also for a Libyan deal voided at once by its kitty."""

import random

from app.games.registry import engine_class
from app.web.pages.replay import replay_deal
from tests.support.club import play_out


def played(game: str, settings: dict, seed: str):
    engine, _ = play_out(game, engine_class(game).normalize_settings(settings), seed, random.Random(seed))
    return engine, engine.to_record([f"p{i}" for i in range(engine.n_seats)])


def test_makk_and_101_deal_ends_in_the_replay_are_the_tables():
    engine, record = played("lorum", {"makk": True, "sto_jedan": True}, "replay-end-1")
    contracts = [d["contract"] for d in record["result"]["deals"]]
    for code in ("makk", "sto_jedan", "hearts"):
        k = contracts.index(code)
        end = replay_deal(record, k)["deal_end"]
        assert end == engine.deal_end(k), code
    makk = replay_deal(record, contracts.index("makk"))["deal_end"]
    assert [r["code"] for r in makk["reasons"]] == ["makk_king", "makk_last_trick", "makk_opposite_jack"]
    sto = replay_deal(record, contracts.index("sto_jedan"))["deal_end"]
    assert sto["pile"][-1][1] == sto["reasons"][0]["card"] and sto["total"] >= 101


def test_a_kitty_void_deal_replays_to_its_card():
    settings = {"variant": "libijska", "igraca": 3}
    for i in range(20):
        engine, record = played("lora", settings, f"replay-void-{i}")
        voided = [k for k, d in enumerate(record["deals"]) if engine.voids[k] and not d["actions"]]
        if voided:
            k = voided[0]
            replay = replay_deal(record, k)
            assert len(replay["steps"]) == 1  # voided as it was dealt: its start is its end
            assert replay["deal_end"] == engine.deal_end(k)
            assert replay["deal_end"]["reasons"][0]["code"] == "void_kitty"
            return
    raise AssertionError("no partie with a kitty void deal")


def test_preferans_replay_has_no_deal_end():
    _, record = played("preferans", {"bule": 30}, "replay-end-p")
    assert replay_deal(record, 0)["deal_end"] is None
