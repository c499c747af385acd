"""The independent referee (tests/support/referee/) replays the Club's example records to their
stored ``result``, key by key, and refuses broken copies of them.

The referee was written from the rule texts only (rulings.md L1-L4 and V1-V17,
lora.sr.md, lora-variants.fa.md, lorum-hu.ru.md, record-format.md). Where the texts left
a choice, this is the reading taken; "confirmed" means the examples replay only with it
(each alternative reading was tried and makes an example fail):

- slepi (V9): "the top card" is the first card of the hand as the record lists it
  (confirmed: lora-hrvatska).
- 3-player libijska lora (V11): the kitty's place is after seat dealer-1 and before the
  dealer, who then acts twice in a row; an empty kitty still takes its turn with
  ``kitty dalje`` (confirmed: lora-libijska3).
- 3-player herc (V11, V17): kitty hearts count for the winner of the last trick, so with
  a heart in the kitty every trick is played ("the last heart" is only taken with the
  last trick); without one the deal ends when the 8th heart is taken (confirmed:
  lora-libijska3). Kitty queens count for nobody, so dame ends when the queens outside
  the kitty are taken and nobody can take "all four" (text only; no example has a queen
  in the kitty).
- 3-player sesti counts the 8th trick and ends after it (confirmed: lora-libijska3).
- Void deals (V10, V11, V15): a void deal repeats the same dealer and contract; the
  third void in a row is itself the entry with the dealer's +8 (and ``void``), then the
  next contract follows (confirmed: both libijska examples).
- Bets (V12): after all the ``kladim``/``ne kladim`` words, bet by bet in speaking
  order, the opponents from the seat after the bettor answer until the first
  ``kontra``, then the bettor answers it (confirmed: both libijska examples). The lora
  double of V10 also doubles the bets (text only: no example lora deal is doubled).
- kralj_sesti (V4): the deal ends after the 6th trick if K♥ is taken by then, else when
  K♥ is taken (confirmed: lora-mala-kralj6).
- Lórum obers: Q♣ 1, Q♠ 2, Q♦ 3, Q♥ 4 - the Russian text's suit replacement (acorns =
  clubs, leaves = spades, bells = diamonds); any other mapping fails (confirmed:
  lorum-101-makk).
- Lórum Domino (V17): the winner's own ``dalje`` chips go into the bank and come back
  with it, so his transfer is the bank before the deal plus what the others paid; each
  deal's ``bank`` is the bank's change and ``result.bank`` the final bank (confirmed:
  lorum-101-makk).
- Lórum kvart: the holder of the next card of the chain must lay it (even twice in a
  row); a chain is closed after 4 cards or when its next card is already out; whoever
  laid its last card starts the next one (confirmed: lorum-101-makk).
- Places (text only; no example has equal totals): Club and libijska L4 / V10, hrvatska
  V9 (fewer deals with negative points first), Lórum "равенство — ничья" read as a
  shared place; a deal counts by its final points, bets and the void +8 included (V17).
- A record whose last deal stops before its end is an unfinished partie: that deal is
  not scored (text only: record-format.md allows unfinished parties, says nothing
  more); a deal that stops early with another deal after it is refused.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import EXAMPLES
from tests.support.referee import RefereeError, referee_result
from tests.support.referee.places import lorum_places, penalty_places, reward_places

FILES = sorted((EXAMPLES / "house-rules").glob("*.json")) + [EXAMPLES / f"lora-{n}.json" for n in (7, 8)]


def load(path: Path) -> dict[str, Any]:
    """One example record."""
    with path.open(encoding="utf-8") as handle:
        record: dict[str, Any] = json.load(handle)
    return record


def test_all_examples_are_listed() -> None:
    """The six house-rules examples and the two Club Lora examples are all replayed."""
    assert len(FILES) == 8
    assert all(path.exists() for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_example_replays_to_its_result(path: Path) -> None:
    """The referee's result equals the stored one: same keys, every deal, totals, places."""
    record = load(path)
    expected = record["result"]
    actual = referee_result(record)
    assert sorted(actual) == sorted(expected)
    assert len(actual["deals"]) == len(expected["deals"])
    for index, (mine, theirs) in enumerate(zip(actual["deals"], expected["deals"])):
        assert mine == theirs, f"deal {index}"
    for key in expected:
        assert actual[key] == expected[key], key


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_result_is_ignored_on_replay(path: Path) -> None:
    """The stored result plays no part: a record with a wrong result replays the same."""
    record = load(path)
    expected = record["result"]
    record["result"] = {"totals": [0] * len(record["players"])}
    assert referee_result(record) == expected


# ---- broken copies of the examples are refused --------------------------------------

def card_play(record: dict[str, Any], deal: int, min_index: int = 1) -> int:
    """The index of the first action from ``min_index`` on that plays a card of the
    player's own dealt hand."""
    hands = record["deals"][deal]["hands"]
    for index, (seat, word) in enumerate(record["deals"][deal]["actions"]):
        if index >= min_index and word in hands[seat]:
            return index
    raise AssertionError("no card play")


def refused(record: dict[str, Any]) -> RefereeError:
    """The referee's error for a record it must refuse."""
    with pytest.raises(RefereeError) as caught:
        referee_result(record)
    return caught.value


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_swapped_cards_are_refused(path: Path) -> None:
    """A card swapped into another hand mid-deal: its play is refused at that action."""
    record = load(path)
    deal = 2
    actions = record["deals"][deal]["actions"]
    index = card_play(record, deal, min_index=len(actions) // 2)
    seat, card = actions[index]
    hands = record["deals"][deal]["hands"]
    other = (seat + 1) % len(hands)
    played = {word for _, word in actions[:index]}
    spare = next(c for c in hands[other] if c not in played)
    hands[seat][hands[seat].index(card)], hands[other][hands[other].index(spare)] = spare, card
    error = refused(record)
    assert error.deal == deal and error.action is not None and error.action <= index


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_action_out_of_turn_is_refused(path: Path) -> None:
    """An action said by the wrong seat is refused at that action."""
    record = load(path)
    deal = 3
    actions = record["deals"][deal]["actions"]
    index = len(actions) // 2
    actions[index][0] = (actions[index][0] + 1) % len(record["players"])
    error = refused(record)
    assert (error.deal, error.action) == (deal, index)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_action_after_the_deal_ended_is_refused(path: Path) -> None:
    """Repeating a deal's last action after it: refused as an action after the end."""
    record = load(path)
    deal = next(i for i, d in enumerate(record["deals"]) if d["actions"])
    actions = record["deals"][deal]["actions"]
    actions.append(list(actions[-1]))
    error = refused(record)
    assert (error.deal, error.action) == (deal, len(actions) - 1)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_deal_cut_short_is_refused(path: Path) -> None:
    """A deal without its last action, followed by another deal: refused."""
    record = load(path)
    deal = next(i for i, d in enumerate(record["deals"]) if d["actions"])
    record["deals"][deal]["actions"].pop()
    assert refused(record).deal == deal


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_extra_deal_is_refused(path: Path) -> None:
    """One deal more than the partie has: refused."""
    record = load(path)
    record["deals"].append(copy.deepcopy(record["deals"][-1]))
    assert refused(record).deal == len(record["deals"]) - 1


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_deal_that_is_no_permutation_is_refused(path: Path) -> None:
    """A card dealt twice: refused before any action."""
    record = load(path)
    hands = record["deals"][0]["hands"]
    hands[0][0] = hands[1][0]
    error = refused(record)
    assert (error.deal, error.action) == (0, None)


def test_unfinished_last_deal_is_not_scored() -> None:
    """A record cut in the middle of its last deal is an unfinished partie."""
    record = load(EXAMPLES / "lora-7.json")
    expected = record["result"]
    del record["deals"][10:]
    record["deals"][-1]["actions"] = record["deals"][-1]["actions"][:5]
    result = referee_result(record)
    assert result["deals"] == expected["deals"][:9]
    assert result["totals"] == [sum(d["points"][s] for d in expected["deals"][:9]) for s in range(4)]


def first_word(record: dict[str, Any], prefix: str) -> tuple[int, int]:
    """(deal, action) of the first action whose word starts with ``prefix``."""
    for deal, entry in enumerate(record["deals"]):
        for index, (_, word) in enumerate(entry["actions"]):
            if word.startswith(prefix):
                return deal, index
    raise AssertionError(prefix)


@pytest.mark.parametrize(("name", "prefix", "bad_word"), [
    ("lora-izbor-dodatni-101", "ugovor", "ugovor trefovi"),
    ("lora-hrvatska-101", "prognoza", "prognoza 9"),
    ("lora-libijska-opklade-101", "kladim", "kladim 03"),
    ("lora-libijska-opklade-101", "rekontra", "kontra"),
    ("lora-libijska3-opklade-101", "kitty", "dalje"),
    ("lora-libijska3-opklade-101", "kladim", "kladim 11"),
])
def test_illegal_word_is_refused(name: str, prefix: str, bad_word: str) -> None:
    """A house-rule word changed to one the rulings do not allow: refused at it."""
    record = load(EXAMPLES / "house-rules" / f"{name}.json")
    deal, index = first_word(record, prefix)
    record["deals"][deal]["actions"][index][1] = bad_word
    assert (refused(record).deal, refused(record).action) == (deal, index)


def test_contract_chosen_twice_is_refused() -> None:
    """izbor: a seat naming a contract he has already chosen (V2) is refused."""
    record = load(EXAMPLES / "house-rules" / "lora-izbor-dodatni-101.json")
    deals = record["deals"]
    # Seat 1 is first player in deals 0, 4, 8, ...: deal 4 repeats his choice of deal 0.
    assert deals[0]["actions"][0] == [1, "ugovor zandar"]
    deals[4]["actions"][0][1] = "ugovor zandar"
    assert (refused(record).deal, refused(record).action) == (4, 0)


def test_dalje_with_a_playable_card_is_refused() -> None:
    """Lora: a player who has a playable card may not say dalje (L3)."""
    record = load(EXAMPLES / "lora-7.json")
    deal = 6  # the first contract 7
    index = card_play(record, deal, min_index=1)
    record["deals"][deal]["actions"][index][1] = "dalje"
    assert (refused(record).deal, refused(record).action) == (deal, index)


def test_kitty_void_deal_with_actions_is_refused() -> None:
    """3-player libijska: a deal the kitty voids has no actions (V15)."""
    record = load(EXAMPLES / "house-rules" / "lora-libijska3-opklade-101.json")
    assert record["deals"][1]["actions"] == [] and "KH" in record["deals"][1]["kitty"]
    record["deals"][1]["actions"] = copy.deepcopy(record["deals"][2]["actions"][:1])
    assert (refused(record).deal, refused(record).action) == (1, 0)


def test_kvart_card_out_of_chain_is_refused() -> None:
    """Lórum kvart: the holder of the chain's next card must lay exactly that card."""
    record = load(EXAMPLES / "house-rules" / "lorum-101-makk-101.json")
    deal = 3  # kvart
    seat, card = record["deals"][deal]["actions"][1]  # the second card of the first chain
    other = next(c for c in record["deals"][deal]["hands"][seat] if c != card)
    record["deals"][deal]["actions"][1][1] = other
    assert (refused(record).deal, refused(record).action) == (deal, 1)


@pytest.mark.parametrize("settings", [
    {"variant": "hrvatska", "izbor": True},
    {"variant": "klub", "igraca": 3},
    {"variant": "klub", "dodatni": True},
    {"variant": "klub", "bez": list(("vise", "manje", "dame", "herc", "zandar", "kralj", "lora"))},
    {"variant": "klub", "izbor": 1},
    {"variant": "libijska", "igraca": 5},
    {"variant": "libijska", "opklade": False, "parovi": False},
    {"variant": "pariska"},
])
def test_refused_settings(settings: dict[str, Any]) -> None:
    """Settings the rulings refuse (V17): foreign or mistyped options, impossible values."""
    record = load(EXAMPLES / "lora-7.json")
    record["settings"] = settings
    assert refused(record).deal is None


def test_tie_rules() -> None:
    """Places: L4 for the Club and libijska, V9 for hrvatska, a draw shares in Lórum."""
    deals = [[1, 0, 2, -3], [0, 2, 0, -2], [0, 0, -1, 1]]
    # totals 1, 2, 1, -4: seats 0 and 2 tie; seat 0 had 1 positive deal, seat 2 one too.
    assert penalty_places([1, 2, 1, -4], deals) == [2, 4, 2, 1]
    # seat 0 with one positive deal ranks before seat 1 with two.
    assert penalty_places([3, 3, 0, 0], [[3, 1, 0, 0], [0, 2, 0, 0]]) == [3, 4, 1, 1]
    # hrvatska: highest first; equal totals: fewer negative deals first.
    assert reward_places([2, 2, 5, -9], [[4, 1, 5, -9], [-2, 1, 0, 0]]) == [3, 2, 1, 4]
    assert lorum_places([10, -5, 10, -15]) == [1, 3, 1, 4]
