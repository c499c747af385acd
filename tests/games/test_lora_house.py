"""Lora's house rules (rulings V1-V9, V17): settings, schedule, each option and each
Croatian contract, the example records, refusals, and invariants over random settings."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from app.games.base import IllegalAction, RecordError, SettingsError
from app.games.cards import CARD_NAMES
from app.games.lora import LoraPartie
from app.games.records import replay, replayed_record
from app.games.simulate import random_partie
from tests.support import paths
from tests.support.lora import partie_at, play_randomly, suit
from tests.support.paths import ROOT

HOUSE = paths.EXAMPLES / "house-rules"
EXAMPLES = sorted(HOUSE.glob("lora-*.json"))
HRV = {"variant": "hrvatska"}
# Each seat holds one whole suit: the first player (seat 1, diamonds) leads and wins every trick.
SUIT_HANDS = [suit("S"), suit("D"), suit("H"), suit("C")]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def at_deal(settings: dict, k: int, hands: list[list[str]], seed: int = 0) -> LoraPartie:
    """A partie with these settings whose deals before ``k`` were played randomly and
    whose deal ``k`` has just been dealt with ``hands``."""
    return partie_at(k, hands, seed, settings=settings)


def finish(partie: LoraPartie, seed: int = 1) -> list[int]:
    """Play the current deal to its end with random legal words; its points."""
    k = partie.deal_index
    play_randomly(partie, random.Random(seed))
    return partie.result()["deals"][k]["points"]


# -- the examples --------------------------------------------------------------


def test_the_house_examples_are_there():
    assert [p.name for p in EXAMPLES] == [
        "lora-hrvatska-101.json", "lora-izbor-dodatni-101.json", "lora-libijska-opklade-101.json",
        "lora-libijska3-opklade-101.json", "lora-mala-kralj6-101.json"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_house_examples_replay_to_their_result(path):
    record = load(path)
    assert replayed_record(record)["result"] == record["result"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_house_examples_export_as_read(path):
    record = load(path)
    assert replay(record).to_record(record["players"]) == record


# -- settings ------------------------------------------------------------------


@pytest.mark.parametrize("bad, message", [
    ({"variant": "klub", "dodatni": True}, "needs izbor"),
    ({"variant": "hrvatska", "izbor": False}, "another variant"),
    ({"variant": "klub", "igraca": 4}, "another variant"),
    ({"variant": "klub", "opklade": False}, "another variant"),
    ({"variant": "klub", "izbor": 1}, "true or false"),
    ({"variant": "klub", "bez": ["vise", "manje", "dame", "herc", "zandar", "kralj", "lora"]}, "all seven"),
    ({"variant": "klub", "bez": ["babe"]}, "not babe"),
    ({"variant": "klub", "bez": "zandar"}, "list"),
    ({"variant": "klub", "bez": ["lora", "lora"]}, "twice"),
    ({"variant": "srpska"}, "variant"),
    ({"variant": "libijska", "izbor": True}, "another variant"),
    ({"variant": "libijska", "igraca": 5}, "3 or 4"),
    ({"variant": "libijska", "igraca": True}, "3 or 4"),
    ({"variant": "libijska", "opklade": "yes"}, "true or false"),
    ({"variant": "klub", "sto_jedan": True}, "no setting sto_jedan"),
])
def test_settings_that_do_not_belong_together_are_refused(bad, message):
    with pytest.raises(SettingsError, match=message):
        LoraPartie.normalize_settings(bad)


def test_settings_normalize_to_the_options_that_are_on():
    norm = LoraPartie.normalize_settings
    assert norm({}) == {} and norm({"timer": 30}) == {"timer": 30}
    assert norm({"izbor": True, "parovi": False, "bez": []}) == {"variant": "klub", "izbor": True}
    assert norm({"variant": "klub", "bez": ["lora", "zandar"]}) == {"variant": "klub", "bez": ["zandar", "lora"]}
    for s in ({"variant": "hrvatska"}, {"variant": "klub", "izbor": True, "dodatni": True, "timer": 60}):
        assert norm(norm(s)) == norm(s)


def test_the_timer_is_not_part_of_a_house_record():
    partie = random_partie("lora", 1, {"variant": "hrvatska", "timer": 30})
    assert partie.to_record(list("abcd"))["settings"] == HRV


# -- the schedule (V1-V3, V5) ---------------------------------------------------


def test_mala_lora_deals_the_remaining_contracts_per_dealer():
    partie = random_partie("lora", 2, {"variant": "klub", "bez": ["zandar", "dame"]})
    deals = partie.result()["deals"]
    assert len(deals) == 20
    assert [d["contract"] for d in deals[:5]] == ["vise", "manje", "herc", "kralj", "lora"]
    assert [d.first for d in partie.deals[::5]] == [1, 2, 3, 0]


def test_izbor_offers_each_contract_once_per_first_player_and_the_deal_passes():
    partie = LoraPartie.new({"variant": "klub", "izbor": True}, seed=5)
    assert partie.legal_actions(1) == [f"ugovor {c}" for c in ("vise", "manje", "dame", "herc", "zandar", "kralj", "lora")]
    view = partie.view(1)["deal"]
    assert view["choosing"] and view["contract"] is None and len(view["choices"]) == 7
    assert partie.view(2)["deal"]["choices"] == [] and partie.legal_actions(2) == []
    with pytest.raises(IllegalAction, match="chooses the contract"):
        partie.apply(1, partie.view(1)["deal"]["hand"][0])
    partie.apply(1, "ugovor zandar")
    assert partie.view(0)["deal"]["contract"] == "zandar"
    rng = random.Random(3)
    for k in range(4):
        assert partie.deals[k].first == (k + 1) % 4 and partie.view(None)["deal"]["dealer"] == k % 4
        if k:
            seat = partie.deals[k].first
            partie.apply(seat, rng.choice(partie.legal_actions(seat)))
        play_randomly(partie, rng)
    assert "ugovor zandar" not in partie.legal_actions(1)
    with pytest.raises(IllegalAction, match="one of"):
        partie.apply(1, "ugovor zandar")


def test_izbor_last_choice_is_still_said_and_dodatni_chooses_any_contract():
    settings = {"variant": "klub", "izbor": True, "dodatni": True, "bez": ["lora"]}
    partie = LoraPartie.new(settings, seed=9)
    rng = random.Random(9)
    while partie.deal_index < 24:
        seat = partie.seats_to_act()[0]
        if partie.deal_index >= 20 and partie.legal_actions(seat)[0].startswith("ugovor"):
            assert len(partie.legal_actions(seat)) == 1  # the last contract is still said
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))
    assert partie.deals[24].first == 1
    assert len(partie.legal_actions(1)) == 6  # dodatni: any contract not left out
    play_randomly(partie, rng)
    while not partie.finished:
        play_randomly(partie, rng)
    chosen = [d["contract"] for d in partie.result()["deals"]]
    assert len(chosen) == 28
    for seat in range(4):
        base = sorted(c for k, c in enumerate(chosen[:24]) if (k + 1) % 4 == seat)
        assert base == sorted(["vise", "manje", "dame", "herc", "zandar", "kralj"])


# -- the Club's contracts under options (V4, V6, V7) ----------------------------


def test_kralj_sesti_ends_when_the_king_and_the_sixth_trick_are_decided():
    record = load(HOUSE / "lora-mala-kralj6-101.json")
    for k in (4, 10, 16, 22):
        assert record["result"]["deals"][k]["contract"] == "kralj"
        assert len(record["deals"][k]["actions"]) == 24
    partie = at_deal({"variant": "klub", "kralj_sesti": True}, 5, SUIT_HANDS)
    assert finish(partie) == [0, 8, 0, 0]  # seat 1 takes every trick and K herc
    tricks = partie.deals[5].tricks
    assert len(tricks) == 6 or (len(tricks) > 6 and "KH" in [CARD_NAMES[c] for _, c in tricks[-1][1]])


def test_parovi_gives_the_partner_of_the_jack_taker_two():
    partie = at_deal({"variant": "klub", "parovi": True}, 4, SUIT_HANDS)
    assert finish(partie) == [0, 6, 0, 2]


# Seat 1 holds the sevens and eights: after 7D the others say dalje until an eight opens a nine.
LAYOUT_HANDS = [["KS", "AS", "KD", "AD", "KH", "AH", "KC", "AC"], ["7S", "8S", "7D", "8D", "7H", "8H", "7C", "8C"],
                ["9S", "TS", "9D", "TD", "9H", "TH", "9C", "TC"], ["JS", "QS", "JD", "QD", "JH", "QH", "JC", "QC"]]


def layout_points(settings: dict, k: int, seed: int) -> tuple[list[int], list[int], list[int], int]:
    """(points, dalje per seat, cards left per seat, the first out) of a layout deal that
    opens with four rounds of forced dalje and goes on randomly."""
    partie = at_deal(settings, k, LAYOUT_HANDS)
    for card in ("7D", "7S", "7H", "7C"):
        partie.apply(1, card)
        for seat in (2, 3, 0):
            assert partie.legal_actions(seat) == ["dalje"]
            partie.apply(seat, "dalje")
    points = finish(partie, seed)
    deal = partie.deals[k]
    actions = partie.actions[k]
    passes = [sum(1 for s, w in actions if s == seat and w == "dalje") for seat in range(4)]
    left = [h.bit_count() for h in deal.hands]
    return points, passes, left, actions[-1][0]


@pytest.mark.parametrize("seed", range(4))
def test_dalje_kazna_counts_every_dalje_the_first_outs_too(seed):
    points, passes, left, out = layout_points({"variant": "klub", "dalje_kazna": True}, 6, seed)
    assert points == [-8 + passes[s] if s == out else left[s] + passes[s] for s in range(4)]
    assert min(passes[s] for s in range(4) if s != 1) >= 4
    record = load(HOUSE / "lora-mala-kralj6-101.json")
    deal = record["deals"][17]
    own = sum(1 for s, w in deal["actions"] if s == 2 and w == "dalje")
    assert record["result"]["deals"][17]["points"][2] == -8 + own and own == 1


# -- Croatian Lora (V8, V9) -----------------------------------------------------


@pytest.mark.parametrize("k, points", [
    (0, [0, 8, 0, 0]),  # vise: +1 a trick
    (1, [0, -8, 0, 0]),  # manje: -1 a trick
    (2, [0, 8, 0, 0]),  # kralj_zadnji: K herc and the last trick to one player
    (3, [0, 8, 0, 0]),  # babe: all four queens
    (4, [0, 8, 0, 0]),  # herc: all eight hearts
    (7, [0, 8, 0, 0]),  # slepi: +1 a trick
])
def test_croatian_contracts_all_to_one_player(k, points):
    partie = at_deal(HRV, k, SUIT_HANDS)
    assert finish(partie) == points


def test_babe_and_herc_end_when_their_cards_are_taken():
    for k, rank in ((3, "Q"), (4, None)):
        partie = at_deal(HRV, k, SUIT_HANDS)
        finish(partie)
        last = [CARD_NAMES[c] for _, c in partie.deals[k].tricks[-1][1]]
        assert any(c[0] == rank or (rank is None and c[1] == "H") for c in last)  # ends with the last one taken
    record = load(HOUSE / "lora-hrvatska-101.json")
    assert len(record["deals"][3]["actions"]) == 24 and len(record["deals"][4]["actions"]) == 28


def test_croatian_points_from_the_example():
    deals = load(HOUSE / "lora-hrvatska-101.json")["result"]["deals"]
    assert [d["contract"] for d in deals[:8]] == ["vise", "manje", "kralj_zadnji", "babe", "herc", "lora",
                                                  "prognoza", "slepi"]
    assert deals[2]["points"] == [-4, 0, -4, 0]  # K herc and the last trick to two players
    assert deals[3]["points"] == [-2, -2, -4, 0]  # -2 a queen
    assert deals[5]["points"] == [-5, -2, -4, 8]  # lora: +8 out, -1 a card and a dalje


@pytest.mark.parametrize("seed", range(4))
def test_croatian_lora_first_out_gets_exactly_eight(seed):
    points, passes, left, out = layout_points(HRV, 5, seed)
    assert points == [8 if s == out else -left[s] - passes[s] for s in range(4)]


def test_prognoza_is_said_by_each_before_the_first_card():
    partie = at_deal(HRV, 6, SUIT_HANDS)
    assert partie.legal_actions(1) == [f"prognoza {n}" for n in range(9)]
    with pytest.raises(IllegalAction, match="first says prognoza"):
        partie.apply(1, "7D")
    for seat, n in ((1, 8), (2, 0), (3, 1)):
        partie.apply(seat, f"prognoza {n}")
        assert partie.view(0)["deal"]["predictions"][seat] == n
    with pytest.raises(IllegalAction):
        partie.apply(0, "prognoza 9")
    partie.apply(0, "prognoza 0")
    assert partie.legal_actions(1) == suit("D")
    assert finish(partie) == [4, 4, 4, -4]


def test_slepi_plays_the_top_card_without_following_suit_and_shows_only_the_count():
    order = [["AS", "7D", "QH", "8C", "9S", "TS", "JS", "QS"], ["KS", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
             ["7S", "8S", "7H", "8H", "9H", "TH", "JH", "KH"], ["AH", "7C", "9C", "TC", "JC", "QC", "KC", "AC"]]
    partie = at_deal(HRV, 7, order)
    assert partie.legal_actions(1) == ["KS"]
    view = partie.view(1)["deal"]
    assert view["hand"] == [] and view["blind"] and view["hand_sizes"] == [8, 8, 8, 8]
    with pytest.raises(IllegalAction, match="top card"):
        partie.apply(1, "8D")
    for seat, card in ((1, "KS"), (2, "7S"), (3, "AH"), (0, "AS")):
        assert partie.legal_actions(seat) == [card]
        partie.apply(seat, card)  # AH does not follow pik: no duty in slepi
    assert partie.deals[7].tricks[0][2] == 0  # the highest pik wins
    assert partie.to_record(list("abcd"))["deals"][7]["hands"] == order  # the order they are turned


def test_croatian_places_highest_total_first_ties_fewer_negative_deals():
    from app.games.lora.standings import places_highest_first
    deals = [[5, -1, 0, 0], [0, 4, 3, 3]]
    assert places_highest_first([5, 3, 3, 3], deals) == [1, 4, 2, 2]


# -- records and the command line -----------------------------------------------


def test_a_record_breaking_a_house_rule_is_refused_with_its_position():
    record = load(HOUSE / "lora-izbor-dodatni-101.json")
    bad = copy.deepcopy(record)
    bad["deals"][4]["actions"][0] = [1, "ugovor zandar"]  # seat 1 chose zandar in deal 0
    with pytest.raises(RecordError, match="deal 4, action 0: .*one of"):
        replay(bad)
    hrv = load(HOUSE / "lora-hrvatska-101.json")
    bad = copy.deepcopy(hrv)
    bad["deals"][7]["actions"][0] = [1, bad["deals"][7]["hands"][1][1]]
    with pytest.raises(RecordError, match="deal 7, action 0: .*top card"):
        replay(bad)
    bad = copy.deepcopy(hrv)
    bad["deals"][6]["actions"][3] = [0, "prognoza 11"]
    with pytest.raises(RecordError, match="deal 6, action 3"):
        replay(bad)
    bad = copy.deepcopy(hrv)
    bad["settings"] = {"variant": "hrvatska", "parovi": True}
    with pytest.raises(RecordError, match="settings: .*another variant"):
        replay(bad)


@pytest.mark.parametrize("settings", [
    HRV, {"variant": "klub", "izbor": True}, {"variant": "klub", "izbor": True, "dodatni": True},
    {"variant": "klub", "bez": ["zandar"]}, {"variant": "klub", "kralj_sesti": True},
    {"variant": "klub", "dalje_kazna": True}, {"variant": "klub", "parovi": True},
])
def test_random_partie_command_for_every_option(settings, tmp_path):
    out = subprocess.run([sys.executable, "-m", "app", "random-partie", "lora", "--seed", "3", "--settings",
                          json.dumps(settings)], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    record = json.loads(out)
    assert record["settings"] == settings
    path = tmp_path / "r.json"
    path.write_text(out)
    shown = subprocess.run([sys.executable, "-m", "app", "replay", str(path)], cwd=ROOT, capture_output=True,
                           text=True)
    assert shown.returncode == 0, shown.stderr
    assert replayed_record(record)["result"] == record["result"]


# -- invariants over random settings --------------------------------------------

KLUB_CODES = ["vise", "manje", "dame", "herc", "zandar", "kralj", "lora"]


@st.composite
def house_settings(draw):
    if draw(st.booleans()):
        return dict(HRV)
    out: dict = {"variant": "klub"}
    for flag in ("izbor", "kralj_sesti", "dalje_kazna", "parovi"):
        if draw(st.booleans()):
            out[flag] = True
    if out.get("izbor") and draw(st.booleans()):
        out["dodatni"] = True
    bez = draw(st.lists(st.sampled_from(KLUB_CODES), unique=True, max_size=6))
    if bez:
        out["bez"] = [c for c in KLUB_CODES if c in bez]
    return out


def _strings(value, out):
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    return out


@hsettings(max_examples=20, deadline=None)
@given(settings=house_settings(), seed=st.integers(0, 2**32))
def test_random_house_parties_keep_every_invariant(settings, seed):
    partie = LoraPartie.new(settings, seed=seed)
    rng = random.Random(seed)
    n = len(CARD_NAMES)
    while not partie.finished:
        deal = partie.deal
        assert deal is not None
        on_table = sum(1 << c for _, c in getattr(deal, "trick", []))
        taken = sum(getattr(deal, "taken", [0]))
        rows = sum(1 << c for row in getattr(deal, "rows", []) for c in row)
        assert (sum(deal.hands) | on_table | taken | rows).bit_count() == n  # cards conserved
        assert sum(h.bit_count() for h in deal.hands) + on_table.bit_count() + taken.bit_count() \
            + rows.bit_count() == n
        if rng.random() < 0.2:  # no card of another hand in any view
            for seat in (0, 1, 2, 3, None):
                seen = _strings(partie.view(seat), set())
                hidden = [c for o in range(4) if o != seat for c in range(n) if (deal.hands[o] >> c) & 1]
                assert not seen & {CARD_NAMES[c] for c in hidden}
        seat = partie.seats_to_act()[0]
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))
    result = partie.result()
    assert len(result["deals"]) == partie.n_deals
    assert result["totals"] == [sum(d["points"][s] for d in result["deals"]) for s in range(4)]
    sign = -1 if settings.get("variant") == "hrvatska" else 1
    for a in range(4):
        for b in range(4):
            if sign * result["totals"][a] < sign * result["totals"][b]:
                assert result["places"][a] < result["places"][b]
            if result["totals"][a] == result["totals"][b]:
                bad_a = sum(1 for d in result["deals"] if sign * d["points"][a] > 0)
                bad_b = sum(1 for d in result["deals"] if sign * d["points"][b] > 0)
                assert (result["places"][a] == result["places"][b]) == (bad_a == bad_b)
    assert replayed_record(json.loads(json.dumps(partie.to_record(list("abcd")))))["result"] == result


def test_the_replay_shows_blind_hands_face_up():
    """A slepi deal's own views hold no cards; the archive's replay shows every hand."""
    from app.web.pages.replay import replay_deal

    record = json.loads((HOUSE / "lora-hrvatska-101.json").read_text())
    slepi = next(k for k, deal in enumerate(record["deals"]) if k % 8 == 7)
    shown = replay_deal(record, slepi)
    assert shown["steps"][0]["table"]["blind"] is True
    dealt = sorted(sum(record["deals"][slepi]["hands"], []))
    assert sorted(sum(shown["steps"][0]["hands"], [])) == dealt


def test_a_chosen_contract_keeps_its_deals_slot():
    partie = random_partie("lora", 4, {"variant": "klub", "izbor": True, "dodatni": True})
    assert partie.view(0)["slots"] == list(range(32))
