"""The project's engine against the independent referee (tests/support/referee/).

Random legal parties from the engine's public entry point ``random_partie`` (and
``to_record``) are replayed by the referee, which must reach the engine's ``result``
exactly; and a broken copy of one engine record per settings must be refused. Every
setting here is offered: an engine that starts to refuse one fails these tests.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from app.games.simulate import random_partie
from tests.support.referee import RefereeError, referee_result

ALL_KLUB_FLAGS = {"variant": "klub", "izbor": True, "dodatni": True, "bez": ["zandar"],
                  "kralj_sesti": True, "dalje_kazna": True, "parovi": True}

OFFERED: list[tuple[str, dict[str, Any]]] = [
    ("lora", {}),
    ("lora", {"variant": "klub", "izbor": True}),
    ("lora", {"variant": "klub", "izbor": True, "dodatni": True}),
    ("lora", {"variant": "klub", "bez": ["zandar"]}),
    ("lora", {"variant": "klub", "bez": ["vise", "lora"], "izbor": True}),
    ("lora", {"variant": "klub", "kralj_sesti": True}),
    ("lora", {"variant": "klub", "dalje_kazna": True}),
    ("lora", {"variant": "klub", "parovi": True}),
    ("lora", ALL_KLUB_FLAGS),
    ("lora", {"variant": "hrvatska"}),
    ("lorum", {}),
    ("lora", {"variant": "libijska"}),
    ("lora", {"variant": "libijska", "opklade": True}),
    ("lora", {"variant": "libijska", "igraca": 3}),
    ("lora", {"variant": "libijska", "igraca": 3, "opklade": True}),
    ("lorum", {"sto_jedan": True}),
    ("lorum", {"makk": True}),
    ("lorum", {"sto_jedan": True, "makk": True}),
]
SEEDS = range(12)


def label(case: tuple[str, dict[str, Any]]) -> str:
    """A readable test id for one (game, settings) case."""
    game, settings = case
    return f"{game}-{settings}"


def engine_record(game: str, seed: int, settings: dict[str, Any]) -> dict[str, Any]:
    """A random legal partie from the engine, as a record."""
    partie = random_partie(game, seed, copy.deepcopy(settings))
    record: dict[str, Any] = partie.to_record([f"p{i}" for i in range(partie.n_seats)])
    return record


def differences(mine: dict[str, Any], engine: dict[str, Any]) -> list[str]:
    """Each place where the referee's result and the engine's differ, readably."""
    found = [f"deal {i}: referee {a} engine {b}"
             for i, (a, b) in enumerate(zip(mine["deals"], engine["deals"])) if a != b]
    if len(mine["deals"]) != len(engine["deals"]):
        found.append(f"deals: referee {len(mine['deals'])} engine {len(engine['deals'])}")
    found += [f"{key}: referee {mine.get(key)} engine {engine[key]}"
              for key in engine if key != "deals" and mine.get(key) != engine[key]]
    found += [f"{key}: only the referee has it" for key in mine if key not in engine]
    return found


@pytest.mark.parametrize("case", OFFERED, ids=label)
def test_engine_result_equals_referee(case: tuple[str, dict[str, Any], bool]) -> None:
    """For several seeds, the referee replays the engine's record to the engine's result."""
    game, settings = case
    report = []
    for seed in SEEDS:
        record = engine_record(game, seed, settings)
        assert record["settings"] == settings
        try:
            mine = referee_result(record)
        except RefereeError as error:
            report.append(f"seed {seed}: the referee refuses the engine's record: {error}")
            continue
        report += [f"seed {seed}, {line}" for line in differences(mine, record["result"])]
    assert not report, f"{game} {settings}:\n" + "\n".join(report)


# ---- breaking an engine record ------------------------------------------------------

Broken = tuple[dict[str, Any], int, int | None]  # record, deal, last action the error may name
Breaker = Callable[[dict[str, Any]], Broken | None]


def _card_plays(record: dict[str, Any], deal: int) -> list[int]:
    """Indices of the deal's actions that play a card of the player's dealt hand."""
    hands = record["deals"][deal]["hands"]
    return [i for i, (seat, word) in enumerate(record["deals"][deal]["actions"]) if word in hands[seat]]


def _longest_deal(record: dict[str, Any]) -> int:
    """The deal with the most actions (a trick deal played far, or a long layout)."""
    lengths = [len(deal["actions"]) for deal in record["deals"]]
    return lengths.index(max(lengths))


def swap_cards(record: dict[str, Any]) -> Broken | None:
    """Swap a card played mid-deal with a not yet played card of the next seat's hand."""
    deal = _longest_deal(record)
    entry = record["deals"][deal]
    plays = _card_plays(record, deal)
    index = plays[len(plays) // 2]
    seat, card = entry["actions"][index]
    other = (seat + 1) % len(entry["hands"])
    played = {word for _, word in entry["actions"][:index]}
    spare = next(c for c in entry["hands"][other] if c not in played)
    hands = entry["hands"]
    hands[seat][hands[seat].index(card)], hands[other][hands[other].index(spare)] = spare, card
    return record, deal, index


def out_of_turn(record: dict[str, Any]) -> Broken | None:
    """Give a mid-deal action to the next seat."""
    deal = _longest_deal(record)
    actions = record["deals"][deal]["actions"]
    index = len(actions) // 2
    actions[index][0] = (actions[index][0] + 1) % len(record["players"])
    return record, deal, index


def after_the_end(record: dict[str, Any]) -> Broken | None:
    """Repeat the last action of the first deal after its end."""
    actions = record["deals"][0]["actions"]
    if not actions:
        return None
    actions.append(list(actions[-1]))
    return record, 0, len(actions) - 1


def cut_short(record: dict[str, Any]) -> Broken | None:
    """Drop the last action of the first deal that has actions; another deal follows."""
    deal = next(i for i, entry in enumerate(record["deals"]) if entry["actions"])
    record["deals"][deal]["actions"].pop()
    return record, deal, len(record["deals"][deal]["actions"])


TRICK_CONTRACTS = {
    "lora": {1, 2, 3, 4, 5, 6, "vise", "manje", "dame", "herc", "zandar", "kralj", "kralj_zadnji", "babe",
             "prognoza", "kralj_herc", "sesti", "stihovi", "dvojica"},
    "lorum": {1, 2, 3, 6, "hearts", "obers", "no_tricks", "hairy_monkey", "makk"},
}


def renege(record: dict[str, Any]) -> Broken | None:
    """In a trick deal (the contract as the engine's result names it), a follower who
    followed suit plays a card of another suit he still holds instead."""
    n = len(record["players"])
    for deal, entry in enumerate(record["deals"]):
        if record["result"]["deals"][deal]["contract"] not in TRICK_CONTRACTS[record["game"]]:
            continue
        actions = entry["actions"]
        start = _card_plays(record, deal)[0]  # after the words of the deal, if any
        for index in range(start, len(actions)):
            position = (index - start) % n
            if position == 0:
                continue
            seat, card = actions[index]
            led = actions[index - position][1]
            played = {word for _, word in actions[:index]}
            off_suit = [c for c in entry["hands"][seat] if c not in played and c[1] != led[1]]
            if card[1] == led[1] and off_suit:
                actions[index][1] = off_suit[0]
                return record, deal, index
    return None


def false_dalje(record: dict[str, Any]) -> Broken | None:
    """In a layout or fast-train deal, a player who played a card says dalje instead."""
    for deal, entry in enumerate(record["deals"]):
        actions = entry["actions"]
        if any(word == "dalje" for _, word in actions):
            index = _card_plays(record, deal)[1]
            actions[index][1] = "dalje"
            return record, deal, index
    return None


def bad_word(record: dict[str, Any]) -> Broken | None:
    """A house-rule word changed to an illegal one: a contract named twice (izbor), an
    impossible forecast or bet."""
    for deal, entry in enumerate(record["deals"]):
        for index, (_, word) in enumerate(entry["actions"]):
            if word.startswith("ugovor ") and deal >= 4:
                earlier = record["deals"][deal - 4]["actions"][0][1]  # same first player
                entry["actions"][index][1] = earlier
                return record, deal, index
            if word.startswith("prognoza "):
                entry["actions"][index][1] = "prognoza 9"
                return record, deal, index
            if word.startswith("kladim ") or word == "ne kladim":
                entry["actions"][index][1] = "kladim 33"
                return record, deal, index
    return None


def extra_deal(record: dict[str, Any]) -> Broken | None:
    """One deal more than the partie has."""
    record["deals"].append(copy.deepcopy(record["deals"][-1]))
    return record, len(record["deals"]) - 1, None


BREAKERS: list[Breaker] = [swap_cards, out_of_turn, after_the_end, cut_short, renege, false_dalje,
                           bad_word, extra_deal]


@pytest.mark.parametrize("case", OFFERED, ids=label)
def test_referee_refuses_a_broken_engine_record(case: tuple[str, dict[str, Any], bool]) -> None:
    """Every applicable way of breaking one engine record is refused, at the right deal and
    no later than the broken action."""
    game, settings = case
    record = engine_record(game, 1, settings)
    referee_result(record)  # the unbroken record is accepted
    applied = []
    for breaker in BREAKERS:
        broken = breaker(copy.deepcopy(record))
        if broken is None:
            continue
        applied.append(breaker.__name__)
        bad, deal, last_action = broken
        with pytest.raises(RefereeError) as caught:
            referee_result(bad)
        error = caught.value
        assert error.deal == deal, (breaker.__name__, str(error))
        if last_action is not None:
            assert error.action is not None and error.action <= last_action, (breaker.__name__, str(error))
    assert len(applied) >= 5, applied
