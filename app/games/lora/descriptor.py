"""Lora as the rest of the Club sees it (:mod:`app.games.descriptor`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.descriptor import (
    FLAG,
    SUBSET,
    Choice,
    SettingField,
    Text,
    public_part,
    rules_pages,
    texts,
)
from app.games.tricks.descriptor import REPLAY_KEYS, trick_game
from app.games.lora.help import contract_help
from app.games.lora.partie import LoraPartie
from app.games.lora.tournament import LORA_TOURNAMENT
from app.games.lora.variants import HRVATSKA, KLUB, KLUB_CODES, LIBIJSKA

CONTRACTS = texts(
    ("Što više", "Most tricks"), ("Što manje", "Fewest tricks"), ("Dame", "Queens"), ("Herc", "Hearts"),
    ("Žandar tref", "Jack of clubs"), ("K herc i 8. štih", "King of hearts and the last trick"), ("Lora", "Lora"),
)
# Every contract code of the house rules (the Serbian options' and Croatian Lora's).
CONTRACT_NAMES = {
    **dict(zip(KLUB_CODES, CONTRACTS)),
    "kralj_sesti": Text("K herc i 6. štih", "King of hearts and the 6th trick"),
    "kralj_zadnji": Text("Kralj herc i zadnji štih", "King of hearts and the last trick"),
    "babe": Text("Babe", "Queens"),
    "prognoza": Text("Prognoza", "Prediction"),
    "slepi": Text("Slepi", "Blind"),
    "kralj_herc": Text("Kralj herc", "King of hearts"),
    "sesti": Text("Šesti štih", "The 6th trick"),
    "sesti3": Text("Osmi štih", "The 8th trick"),
    "stihovi": Text("Štihovi", "Tricks"),
    "dvojica": Text("Dvojica", "Two players"),
}


def contract_key(code: str, settings: Mapping[str, Any]) -> str:
    """The key a code is named by in a partie with these settings, as
    static/js/games/lora-sheet.js's S.contractKey: ``kralj`` with kralj_sesti counts the
    6th trick; Libyan ``sesti`` of three players (ten tricks) is the 8th."""
    if code == "kralj" and settings.get("kralj_sesti"):
        return "kralj_sesti"
    if code == "sesti" and settings.get("igraca") == 3:
        return "sesti3"
    return code


HOUSE = ("variant", KLUB)  # the Serbian table options belong to the klub house rules
LIBIJSKA_TABLE = ("variant", LIBIJSKA)


def _option(key: str, sr: str, en: str, hint_sr: str, hint_en: str) -> SettingField:
    return SettingField(key, Text(sr, en), kind=FLAG, hint=Text(hint_sr, hint_en), when=HOUSE)


# The proposal form: the Club's Lora (settings {}), house rules with the Serbian table
# options (rulings V1-V8), or Croatian Lora (V9).
SETTINGS = (
    SettingField("variant", Text("Pravila", "Rules"), choices=(
        Choice("", Text("Klub", "The Club's"), Text("pravila Kluba: 7 ugovora, 28 deljenja",
                                                     "the Club's rules: 7 contracts, 28 deals")),
        Choice(KLUB, Text("Kućna pravila", "House rules"), Text("srpske opcije stola, ispod",
                                                                 "the Serbian table options below")),
        Choice(HRVATSKA, Text("Hrvatska lora", "Croatian Lora"),
               Text("8 ugovora, 32 deljenja; pozitivni poeni su dobri, pobeđuje najviši zbir",
                    "8 contracts, 32 deals; positive points are good, the highest total wins")),
        Choice(LIBIJSKA, Text("Libijska lora", "Libyan Lora"),
               Text("8 ugovora, 32 deljenja (24 sa tri igrača); pobeđuje najmanji zbir",
                    "8 contracts, 32 deals (24 with three players); the lowest total wins")),
    )),
    SettingField("igraca", Text("Igrača", "Players"), when=LIBIJSKA_TABLE, seats=True, choices=(
        Choice(4, Text("4 igrača", "4 players")),
        Choice(3, Text("3 igrača", "3 players"),
               Text("po 10 karata i talon od dve karte, 24 deljenja", "10 cards each and a kitty of two, 24 deals")),
    )),
    SettingField("opklade", Text("Opklade", "Bets"), kind=FLAG, when=LIBIJSKA_TABLE,
                 hint=Text("pre prve karte svako može da se kladi na svoj ishod; kontra i rekontra",
                           "before the first card each may bet on his own outcome; kontra and rekontra")),
    _option("izbor", "Izbor ugovora", "Contract choice",
            "prvi igrač bira ugovor koji još nije birao; deljenje ide dalje posle svakog deljenja",
            "the first player names a contract he has not chosen yet; the deal passes every deal"),
    _option("dodatni", "Dodatna deljenja", "Extra deals",
            "uz izbor: još četiri deljenja, svaki igrač bira bilo koji ugovor",
            "with the choice: four more deals, each player names any contract"),
    SettingField("bez", Text("Mala lora, bez", "Mala Lora, without"), kind=SUBSET, when=HOUSE,
                 choices=tuple(Choice(code, name) for code, name in zip(KLUB_CODES, CONTRACTS)),
                 hint=Text("ugovori koji se ne igraju", "contracts left out")),
    _option("kralj_sesti", "K herc i 6. štih", "King of hearts and the 6th trick",
            "umesto poslednjeg štiha broji se šesti", "the 6th trick counts instead of the last"),
    _option("dalje_kazna", "Dalje se plaća", "A dalje costs",
            "u Lori svako dalje +1", "in Lora every dalje +1"),
    _option("parovi", "Parovi u žandaru", "Partners in Jack of clubs",
            "uzimalac žandara +6, njegov partner preko puta +2",
            "the taker of J♣ +6, his partner across +2"),
)

DESCRIPTOR = trick_game(
    code="lora", engine=LoraPartie, rules=rules_pages("lora"), house_keys=("variant",),
    name=Text("Lora", "Lora"),
    tagline=Text("4 igrača, 28 deljenja (libijska i sa 3)", "4 players, 28 deals (Libyan also with 3)"),
    rules_title=Text("Pravila lore", "Rules of Lora"),
    contracts=CONTRACTS, contract_names=CONTRACT_NAMES, contract_key=contract_key, settings=SETTINGS,
    quick_start=Text("Lora protiv tri računara", "Lora against three computer players"), quick_suits="♠♥",
    replay_table=public_part("deal", REPLAY_KEYS), contract_help=contract_help, tournament=LORA_TOURNAMENT,
)
