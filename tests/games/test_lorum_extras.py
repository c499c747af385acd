"""Lórum's optional contracts "101" (sto_jedan) and "makk" (rulings V13, V14, V16, V17):
the settings, the schedule, each contract's play and payments, records and invariants."""

import json
import random
import re

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from app.cli import main as cli_main
from app.games.base import IllegalAction, NotYourTurn, RecordError, SettingsError
from app.games.cards import CARD_NAMES, names_of
from app.games.lorum import LorumPartie
from app.games.lorum.contracts import LorumContract, contract_named, order_of
from app.games.lorum.deals import (
    DominoDeal,
    FastTrainDeal,
    KvartDeal,
    MakkDeal,
    StoJedanDeal,
)
from app.games.records import load_record, replay, replayed_record
from app.games.simulate import random_partie
from app.games.tricks.deal import TrickDeal
from tests.support.lora import cards, play, play_randomly, suit
from tests.support.lorum import (
    BOTH,
    FAST_HANDS,
    FAST_STOCK,
    MAKK,
    STO_JEDAN,
    SUITS,
    THREE_PAYERS,
    at,
)
from tests.support.paths import EXAMPLES

EXAMPLE = EXAMPLES / "house-rules" / "lorum-101-makk-101.json"
CARD_TOKEN = re.compile(r'"([789TJQKA][SDHC])"')
EVERY_SETTINGS = [{}, STO_JEDAN, MAKK, BOTH]
BASE_CODES = ["hearts", "obers", "no_tricks", "kvart", "fast_train", "hairy_monkey"]
VALUES = dict(zip("789TJQKA", (0, 0, 0, 10, 2, 3, 4, 11)))


def last(partie):
    assert partie.deal.ended
    return partie.result()["deals"][-1]


def deal_view(partie, seat=None):
    return partie.view(seat)["deal"]


# -- the Club's example record ---------------------------------------------------------------

def test_the_example_record_replays_to_its_result_exactly():
    record = load_record(EXAMPLE)
    partie = replay(record)
    result = partie.result()
    assert set(result) == set(record["result"])
    for key, value in record["result"].items():
        assert result[key] == value, key
    assert replayed_record(record)["result"] == record["result"]
    assert partie.to_record(record["players"]) == record  # hands, stock and actions as written


# -- settings (V17) ----------------------------------------------------------------------------

def test_settings_are_typed_flags_and_false_is_dropped():
    norm = LorumPartie.normalize_settings
    assert norm(None) == {} and norm({}) == {}
    assert norm({"sto_jedan": False, "makk": False}) == {}
    assert norm({"makk": True, "sto_jedan": False}) == MAKK
    assert norm({"makk": True, "sto_jedan": True, "timer": 30}) == {**BOTH, "timer": 30}
    assert norm({"timer": 60}) == {"timer": 60}
    assert norm({"timer": None}) == {}


@pytest.mark.parametrize("settings, message", [
    ({"sto_jedan": 1}, "sto_jedan is true or false"),
    ({"makk": "true"}, "makk is true or false"),
    ({"makk": None}, "makk is true or false"),
    ({"variant": "klub"}, "Lórum has no setting variant"),  # a Lora table's settings are no Lórum's
    ({"izbor": False}, "Lórum has no setting izbor"),  # refused even when false
    ({"igraca": 4}, "Lórum has no setting igraca"),
    ({"domino": True}, "Lórum has no setting domino"),
    ({"timer": 5}, "timer must be"),
    ({"makk": True, "timer": "60"}, "timer must be"),
    (["makk"], "settings must be an object"),
])
def test_other_settings_are_refused_with_a_clear_message(settings, message):
    with pytest.raises(SettingsError, match=message):
        LorumPartie.normalize_settings(settings)


def test_a_record_with_refused_settings_names_them():
    record = {**load_record(EXAMPLE), "settings": {"sto_jedan": "yes"}}
    with pytest.raises(RecordError, match="settings: sto_jedan is true or false"):
        replay(record)


def test_false_flags_are_the_clubs_lorum_with_contract_numbers():
    partie = random_partie("lorum", 3, {"sto_jedan": False, "makk": False})
    assert partie.settings == {}
    assert [d["contract"] for d in partie.result()["deals"]] == [1, 2, 3, 4, 5, 6, 7] * 4
    assert partie.to_record(["a", "b", "c", "d"])["settings"] == {}


def test_the_live_timer_stays_out_of_the_record():
    partie = random_partie("lorum", 4, {**MAKK, "timer": 30})
    assert partie.settings == {**MAKK, "timer": 30}
    assert partie.to_record(["a", "b", "c", "d"])["settings"] == MAKK


# -- the schedule --------------------------------------------------------------------------------

@pytest.mark.parametrize("settings, extras", [
    ({}, []), (STO_JEDAN, ["sto_jedan"]), (MAKK, ["makk"]), (BOTH, ["sto_jedan", "makk"]),
])
def test_each_dealer_plays_the_extras_after_hairy_monkey_and_before_domino(settings, extras):
    per_dealer = [*BASE_CODES, *extras, "domino"]
    assert [c.code for c in order_of(settings)] == per_dealer
    assert [contract_named(code) for code in per_dealer] == list(order_of(settings))
    partie = LorumPartie.new(settings, seed=11)
    rng = random.Random(5)
    dealers, firsts, shown = [], [], []
    while not partie.finished:
        view = deal_view(partie)
        dealers.append(view["dealer"])
        firsts.append(view["first"])
        shown.append(view["contract"])
        play_randomly(partie, rng)
    n = len(per_dealer)
    assert len(partie.deals) == partie.n_deals == 4 * n == {0: 28, 1: 32, 2: 36}[len(extras)]
    assert dealers == [k // n for k in range(4 * n)]
    assert firsts == [(k // n + 1) % 4 for k in range(4 * n)]
    contracts = [d["contract"] for d in partie.result()["deals"]]
    assert contracts == shown == (list(range(1, 8)) * 4 if not settings else per_dealer * 4)
    # The bank goes to each dealer's last deal, Domino: it is empty after each dealer's round.
    banks = partie.bank_deltas
    for dealer in range(4):
        assert sum(banks[dealer * n : (dealer + 1) * n]) == 0


def test_a_101_deal_is_dealt_four_cards_each_and_the_rest_is_the_stock():
    partie = LorumPartie.new(STO_JEDAN, seed=9)
    rng = random.Random(1)
    while partie.deal_index < 6:
        play_randomly(partie, rng)
    deal = partie.deal
    assert isinstance(deal, StoJedanDeal) and deal.first == 1
    assert [h.bit_count() for h in deal.hands] == [4, 4, 4, 4] and len(deal.stock) == 16
    assert sum(deal.hands) | sum(1 << c for c in deal.stock) == (1 << 32) - 1
    entry = partie.to_record(["a", "b", "c", "d"])["deals"][6]
    assert entry["stock"] == [CARD_NAMES[c] for c in deal.stock] and "stock" not in partie.to_record(
        ["a", "b", "c", "d"])["deals"][5]


# -- 101 (V13) ------------------------------------------------------------------------------------

# Seat 1 leads; each seat holds its suit's 7 8 9 J, the stock the T Q K A of each suit.
LOW_HANDS = [cards("7C 8C 9C JC"), cards("7S 8S 9S JS"), cards("7D 8D 9D JD"), cards("7H 8H 9H JH")]
HIGH_STOCK = cards("TS TD TH TC QS QD QH QC KS KD KH KC AS AD AH AC")


def test_101_draws_the_top_card_of_the_stock_in_turn_order():
    partie = at(6, LOW_HANDS, HIGH_STOCK)
    assert partie.seats_to_act() == [1] and partie.legal_actions(1) == LOW_HANDS[1]
    view = deal_view(partie, 1)
    assert view["total"] == 0 and view["pile"] == [] and view["stock_size"] == 16
    play(partie, "7S")
    assert deal_view(partie, 1)["hand"] == ["8S", "9S", "TS", "JS"]  # drew TS, the top card
    play(partie, "7D", "7H", "7C")
    assert [names_of(h) for h in partie.deal.hands] == [
        ["8C", "9C", "TC", "JC"], ["8S", "9S", "TS", "JS"], ["8D", "9D", "TD", "JD"], ["8H", "9H", "TH", "JH"]]
    play(partie, "8S")
    assert deal_view(partie, 1)["hand"] == ["9S", "TS", "JS", "QS"]  # the fifth card of the stock
    assert deal_view(partie)["stock_size"] == 11
    assert deal_view(partie)["pile"] == [[1, "7S"], [2, "7D"], [3, "7H"], [0, "7C"], [1, "8S"]]
    # Draws are not words: the log holds only the cards played.
    assert partie.actions[-1] == [(1, "7S"), (2, "7D"), (3, "7H"), (0, "7C"), (1, "8S")]


def test_101_no_draw_once_the_stock_is_empty_and_the_deal_ends_past_101():
    partie = at(6, LOW_HANDS, HIGH_STOCK)
    for r in "789J":
        play(partie, r + "S", r + "D", r + "H", r + "C")
    deal = partie.deal
    assert deal.stock_size == 0 and deal.total == 8 and [h.bit_count() for h in deal.hands] == [4, 4, 4, 4]
    assert names_of(deal.hands[1]) == ["TS", "QS", "KS", "AS"]
    play(partie, "AS")
    assert deal.hands[1].bit_count() == 3 and deal_view(partie)["total"] == 19  # no draw
    play(partie, "AD", "AH", "AC", "TS", "TD", "TH", "TC", "KS", "KD")
    assert deal_view(partie)["total"] == 100 and not deal.ended
    play(partie, "QH")  # 103: seat 3 pays 10 into the bank
    assert deal.ended and deal.total == 103
    assert last(partie) == {"contract": "sto_jedan", "transfers": [0, 0, 0, -10], "bank": 10}
    assert [h.bit_count() for h in deal.hands] == [2, 1, 1, 1]


def test_101_exactly_101_ends_the_deal_at_once_without_a_draw():
    partie = at(6, FAST_HANDS, FAST_STOCK, settings=STO_JEDAN)
    play(partie, "AS", "AD", "AH", "AC", "TS", "TD", "TH", "TC")
    assert partie.deal.total == 84 and partie.deal.stock_size == 8
    play(partie, "JS", "JD", "JH", "JC", "QS", "QD")
    assert partie.deal.total == 98 and not partie.deal.ended
    stock_before = partie.deal.stock_size
    play(partie, "QH")  # 101
    deal = partie.deal
    assert deal.ended and deal.total == 101 and deal.stock_size == stock_before == 2
    assert names_of(deal.hands[3]) == ["7H", "8H", "9H"]  # three cards: no draw after the 101st point
    assert last(partie) == {"contract": "sto_jedan", "transfers": [0, 0, 0, -10], "bank": 10}
    assert partie.bank == sum(partie.bank_deltas) and partie.needs_deal and partie.seats_to_act() == []


def test_101_card_values_make_the_running_total():
    partie = at(6, LOW_HANDS, HIGH_STOCK, settings=STO_JEDAN)
    expected = 0
    rng = random.Random(3)
    while not partie.deal.ended:
        (seat,) = partie.seats_to_act()
        word = rng.choice(partie.legal_actions(seat))
        partie.apply(seat, word)
        expected += VALUES[word[0]]
        view = deal_view(partie, seat)
        assert view["total"] == expected
        assert view["pile"][-1] == [seat, word]
    assert expected >= 101 and expected - VALUES[word[0]] < 101


def test_101_refuses_dalje_a_card_not_in_hand_and_a_word_out_of_turn():
    partie = at(6, LOW_HANDS, HIGH_STOCK)
    version = partie.version
    with pytest.raises(IllegalAction, match="not in seat 1's hand"):
        partie.apply(1, "TS")  # the stock's top card, not drawn yet
    with pytest.raises(NotYourTurn):
        partie.apply(2, "7D")
    with pytest.raises(IllegalAction):
        partie.apply(1, "dalje")
    assert partie.version == version and deal_view(partie)["pile"] == [] and partie.deal.stock_size == 16


def test_101_each_seat_sees_only_his_own_hand_and_never_the_stock():
    partie = at(6, LOW_HANDS, HIGH_STOCK)
    rng = random.Random(8)
    while not partie.deal.ended:
        deal = partie.deal
        stock_left = {CARD_NAMES[c] for c in deal.stock[deal.drawn :]}
        for viewer in (None, 0, 1, 2, 3):
            view = partie.view(viewer)
            # (the earlier deal's end names its own played cards: tests/games/test_deal_ends.py)
            shown = set(CARD_TOKEN.findall(json.dumps({k: v for k, v in view.items() if k != "deal_ends"})))
            assert not shown & stock_left
            for other in range(4):
                if other != viewer:
                    assert not shown & set(names_of(deal.hands[other]))
            if viewer is not None:
                assert view["deal"]["hand"] == names_of(deal.hands[viewer])
            else:
                assert "hand" not in view["deal"]
            assert view["deal"]["stock_size"] == len(stock_left)
        (seat,) = partie.seats_to_act()
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))


# -- makk (V14, V16) ------------------------------------------------------------------------------


def test_makk_one_player_pays_for_two_reasons_and_opposite_jack_of_clubs():
    # Seat 1 leads diamonds and wins all eight: K herc and the last trick are his (20), and he
    # takes J tref, so seat 3 opposite him pays 10.
    partie = at(6, SUITS, settings=MAKK)
    assert isinstance(partie.deal, MakkDeal)
    for r in "789TJQKA":
        play(partie, r + "D", r + "H", r + "C", r + "S")
    assert last(partie) == {"contract": "makk", "transfers": [0, -20, 0, -10], "bank": 30}


def test_makk_three_payers_and_all_eight_tricks_after_the_cards_are_taken():
    partie = at(7, THREE_PAYERS)  # both extras: makk is deal 7
    assert partie.deal.contract is LorumContract.MAKK
    play(partie, "7H", "AH", "JC", "7S")  # seat 2 takes J tref
    play(partie, "KH", "7C", "8S", "8D")  # seat 2 takes K herc
    assert not partie.deal.ended  # V16: makk plays on after both are taken
    play(partie, "7D", "8C", "9S", "9D")  # seat 1 wins and leads the rest
    for r, h, c in zip("TJQKA", ["8H", "9H", "TH", "JH", "QH"], ["9C", "TC", "QC", "KC", "AC"]):
        play(partie, r + "D", h, c, r + "S")
    deal = partie.deal
    assert deal.ended and len(deal.tricks) == 8 and deal.tricks[-1][2] == 1
    # K herc: seat 2; the last trick: seat 1; opposite the J tref taker (seat 2): seat 0.
    assert last(partie) == {"contract": "makk", "transfers": [-10, -10, -10, 0], "bank": 30}
    view = deal_view(partie)
    assert view["penalty_cards"][2] == ["KH", "JC"]


def test_makk_the_last_trick_and_opposite_the_jack_on_one_seat():
    # Seat 3 takes J tref in the first trick, seat 2 K herc, seat 1 (opposite seat 3) the last trick.
    hands = [suit("S"), cards("7C 8D 9D TD JD QD KD AD"), cards("7D 8H 9H TH JH QH KH AH"),
             cards("8C 9C TC JC QC KC AC 7H")]
    partie = at(6, hands, settings=MAKK)
    play(partie, "7C", "8H", "JC", "7S")  # seat 3 wins with J tref
    play(partie, "7H", "8S", "8D", "KH")  # seat 3 leads 7H; seat 2's K herc wins
    play(partie, "7D", "8C", "9S", "9D")  # seat 2 leads 7D: seat 1 wins
    for r, h, c in zip("TJQKA", ["9H", "TH", "JH", "QH", "AH"], ["9C", "TC", "QC", "KC", "AC"]):
        play(partie, r + "D", h, c, r + "S")
    deal = partie.deal
    assert len(deal.tricks) == 8
    assert deal.payers() == [2, 1, 1]
    assert last(partie) == {"contract": "makk", "transfers": [0, -20, -10, 0], "bank": 30}


def test_makk_one_player_pays_for_all_three_reasons():
    # Seat 1 leads 7C and seat 3 wins it with J tref; seat 3 leads 7D, seat 1 wins and leads
    # diamonds to the end, seat 2 throwing K herc on one: seat 1 pays 30.
    hands = [suit("S"), cards("7C 8D 9D TD JD QD KD AD"), suit("H"), cards("7D 8C 9C TC JC QC KC AC")]
    partie = at(6, hands, settings=MAKK)
    play(partie, "7C", "7H", "JC", "7S")
    play(partie, "7D", "8S", "8D", "8H")
    for r, h, c in zip("9TJQKA", ["KH", "9H", "TH", "JH", "QH", "AH"], ["8C", "9C", "TC", "QC", "KC", "AC"]):
        play(partie, r + "D", h, c, r + "S")
    assert last(partie) == {"contract": "makk", "transfers": [0, -30, 0, 0], "bank": 30}


# -- records --------------------------------------------------------------------------------------

def _example_with(change):
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    change(record)
    return record


def test_a_101_card_not_in_hand_names_the_deal_and_the_action():
    def change(record):
        record["deals"][6]["actions"][2] = [3, "AH"]  # AH is deep in the stock
    with pytest.raises(RecordError, match=r"deal 6, action 2: seat 3 'AH': AH is not in seat 3's hand") as e:
        replay(_example_with(change))
    assert (e.value.deal_index, e.value.action_index) == (6, 2)


def test_a_reordered_stock_fails_at_the_first_card_not_drawn():
    def change(record):
        stock = record["deals"][6]["stock"]
        stock[0], stock[-1] = stock[-1], stock[0]  # seat 1 now draws TH, not 9D
    record = _example_with(change)
    first_use = next(a for a, (s, w) in enumerate(record["deals"][6]["actions"]) if w == "9D")
    with pytest.raises(RecordError, match="9D is not in seat 1's hand") as e:
        replay(record)
    assert (e.value.deal_index, e.value.action_index) == (6, first_use)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["stock"].pop(), "stock: expected 16 cards"),
    (lambda d: d["stock"].__setitem__(0, d["stock"][1]), "appears twice"),
    (lambda d: d["stock"].__setitem__(0, d["hands"][0][0]), "dealt twice"),
    (lambda d: d.pop("stock"), "needs its stock"),
    (lambda d: d["hands"][0].append(d["stock"].pop()), "expected 4 cards"),
])
def test_a_wrong_stock_or_hand_names_the_101_deal(change, message):
    record = _example_with(lambda r: change(r["deals"][6]))
    with pytest.raises(RecordError, match=message) as e:
        replay(record)
    assert e.value.deal_index == 6


def test_a_stock_on_another_deal_is_refused():
    record = _example_with(lambda r: r["deals"][7].__setitem__("stock", []))
    with pytest.raises(RecordError, match="no stock") as e:
        replay(record)
    assert e.value.deal_index == 7


def test_the_example_without_settings_is_refused_at_the_101_deal():
    record = _example_with(lambda r: r.pop("settings"))
    with pytest.raises(RecordError) as e:
        replay(record)
    assert e.value.deal_index == 6  # the Club's Lórum plays Domino here, with 8 cards each


@pytest.mark.parametrize("settings", EVERY_SETTINGS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_parties_finish_and_replay_from_their_records(settings, seed):
    partie = random_partie("lorum", seed, settings)
    assert partie.finished
    result = partie.result()
    assert len(result["deals"]) == 4 * len(order_of(settings)) and result["bank"] == 0
    record = json.loads(json.dumps(partie.to_record(["a", "b", "c", "d"])))
    assert replayed_record(record)["result"] == result
    assert replay(record).to_record(["a", "b", "c", "d"]) == record


def test_the_command_line_prints_a_record_that_replays(tmp_path, capsys):
    assert cli_main(["random-partie", "lorum", "--seed", "7", "--settings", json.dumps(BOTH)]) == 0
    out = capsys.readouterr().out
    record = json.loads(out)
    assert record["settings"] == BOTH and len(record["deals"]) == 36
    path = tmp_path / "lorum.json"
    path.write_text(out, encoding="utf-8")
    assert cli_main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == record["result"]


# -- invariants (hypothesis) ----------------------------------------------------------------------

def played_mask(deal):
    """The cards out of the hands (and out of 101's stock) so far."""
    if isinstance(deal, TrickDeal):
        m = sum(deal.taken)
        for _, c in deal.trick:
            m |= 1 << c
        return m
    if isinstance(deal, DominoDeal):
        return sum(1 << c for row in deal.rows for c in row)
    if isinstance(deal, KvartDeal):
        return deal.played
    if isinstance(deal, StoJedanDeal):
        return sum(1 << c for _, c in deal.discards) | sum(1 << c for c in deal.stock[deal.drawn :])
    assert isinstance(deal, FastTrainDeal)
    return sum(1 << c for _, c in deal.train)


def check_cards_and_views(partie):
    deal = partie.deal
    held = sum(h.bit_count() for h in deal.hands)
    out = played_mask(deal)
    assert held + out.bit_count() == 32 and sum(deal.hands) | out == (1 << 32) - 1
    hidden_stock = set()
    if isinstance(deal, StoJedanDeal):
        hidden_stock = {CARD_NAMES[c] for c in deal.stock[deal.drawn :]}
    for viewer in (None, 0, 1, 2, 3):
        view = partie.view(viewer)
        view["deal"].pop("next_card", None)  # Kvart's next card is public (docs/rulings.md)
        view.pop("deal_ends", None)  # an earlier deal's played cards (tests/games/test_deal_ends.py)
        shown = set(CARD_TOKEN.findall(json.dumps(view)))
        assert not shown & hidden_stock
        for other in range(4):
            if other != viewer:
                assert not shown & set(names_of(deal.hands[other]))


@hsettings(max_examples=20, deadline=None)
@given(settings=st.sampled_from(EVERY_SETTINGS), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_random_play_conserves_cards_and_chips_and_hides_hands(settings, seed, play_seed):
    partie = LorumPartie.new(settings, seed=seed)
    rng = random.Random(play_seed)
    step = 0
    while not partie.finished:
        (seat,) = partie.seats_to_act()
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))
        step += 1
        if step % 7 == 0 and not partie.deal.ended:
            check_cards_and_views(partie)
    result = partie.result()
    for d in result["deals"]:
        assert sum(d["transfers"]) + d["bank"] == 0
    assert result["totals"] == [sum(d["transfers"][s] for d in result["deals"]) for s in range(4)]
    assert result["bank"] == sum(d["bank"] for d in result["deals"]) == 0
    for d in result["deals"]:
        if d["contract"] == "sto_jedan":
            assert d["bank"] == 10 and sorted(d["transfers"]) == [-10, 0, 0, 0]
        elif d["contract"] == "makk":
            assert d["bank"] == 30 and all(t in (0, -10, -20, -30) for t in d["transfers"])
    record = json.loads(json.dumps(partie.to_record(["a", "b", "c", "d"])))
    assert replay(record).result() == result
