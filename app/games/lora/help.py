"""Each contract of Lora's tables in one line, and where the rules page explains it
(issue 23, item 3): the table shows the hint under the contract's name and its rules
link opens the section (``/rules/lora#<anchor>``).

:func:`contract_help` gives, for a partie's settings, each contract as the views name it
(the Club's number as a string, or the house rules' code) -> (hint, anchor).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.descriptor import Text
from app.games.lora.variants import HRVATSKA, KLUB, KLUB_CODES, LIBIJSKA

CLUB = {
    "vise": Text("−1 za svaki uzet štih", "−1 for each trick taken"),
    "manje": Text("+1 za svaki uzet štih", "+1 for each trick taken"),
    "dame": Text("+2 za svaku uzetu damu; kraj kad je uzeta četvrta", "+2 for each queen taken; ends with the fourth"),
    "herc": Text("+1 za svaki uzet herc; svih 8 herčeva: −8", "+1 for each heart taken; all 8 hearts: −8"),
    "zandar": Text("+8 onome ko uzme J♣", "+8 to whoever takes the J♣"),
    "kralj": Text("+4 za K♥, +4 za poslednji štih", "+4 for the K♥, +4 for the last trick"),
    "lora": Text("slaganje: prvi bez karata −8, ostali +1 po karti", "the layout: first out −8, the others +1 a card"),
}
CLUB_ANCHORS = {code: f"ugovor-{code}" for code in KLUB_CODES}
# The Serbian table options change two contracts (rulings V5, V7, V8).
KRALJ_SESTI = Text("+4 za K♥, +4 za 6. štih", "+4 for the K♥, +4 for the 6th trick")
DALJE_KAZNA = Text("slaganje: prvi bez karata −8, ostali +1 po karti i +1 po dalje",
                   "the layout: first out −8, the others +1 a card and +1 a dalje")
PAROVI = Text("uzimalac J♣ +6, njegov partner preko puta +2", "the J♣ taker +6, his partner across +2")

HRVATSKA_HELP = {
    "vise": Text("+1 po štihu", "+1 a trick"),
    "manje": Text("−1 po štihu", "−1 a trick"),
    "kralj_zadnji": Text("K♥ i poslednji štih: različiti igrači −4 svakom, isti +8",
                         "K♥ and the last trick: different players −4 each, the same +8"),
    "babe": Text("−2 po dami; sve četiri: +8", "−2 a queen; all four: +8"),
    "herc": Text("−1 po hercu; svih osam: +8", "−1 a heart; all eight: +8"),
    "lora": Text("slaganje: prvi bez karata +8, ostali −1 po karti i po dalje",
                 "the layout: first out +8, the others −1 a card and a dalje"),
    "prognoza": Text("reci broj štihova: tačno +4, inače −4", "say your tricks: exactly +4, otherwise −4"),
    "slepi": Text("karte okrenute, odozgo: +1 po štihu", "cards face down, from the top: +1 a trick"),
}


def libijska_help(n: int) -> dict[str, Text]:
    three = n == 3
    tricks = 32 // n
    return {
        "herc": Text("+1 za svaki herc; svih osam: −8", "+1 for each heart; all eight: −8"),
        "kralj_herc": Text("+8 onome ko uzme K♥", "+8 to whoever takes the K♥"),
        "dame": Text("+2 za svaku damu; sve četiri: −8", "+2 for each queen; all four: −8"),
        "zandar": Text("+8 igraču posle onoga ko uzme J♣", "+8 to the player after whoever takes the J♣"),
        "sesti": Text(f"+8 onome ko uzme {'osmi' if three else 'šesti'} štih; tada je kraj",
                      f"+8 to whoever takes the {'8th' if three else '6th'} trick; then it ends"),
        "stihovi": Text(f"+1 za svaki štih; svih {tricks}: −{tricks}", f"+1 for each trick; all {tricks}: −{tricks}"),
        "dvojica": Text(f"čim dva igrača imaju po {4 if three else 3} štiha, ostali +{8 if three else 4}; inače poništeno",
                        f"once two players have {4 if three else 3} tricks each, the others +{8 if three else 4}; "
                        "otherwise void"),
        "lora": Text("slaganje: prvi bez karata 0, ostali +1 po karti i +2 po dalje; duplira se na rang prve karte",
                     "the layout: first out 0, the others +1 a card and +2 a dalje; doubled on the first card's rank"),
    }


def contract_help(settings: Mapping[str, Any]) -> dict[str, tuple[Text, str]]:
    """Each contract of a partie with these settings: its hint and the rules' anchor."""
    variant = settings.get("variant")
    if variant == HRVATSKA:
        # Više and Manje share one item of the rules.
        return {code: (text, "h-vise" if code == "manje" else f"h-{code}") for code, text in HRVATSKA_HELP.items()}
    if variant == LIBIJSKA:
        return {code: (text, f"l-{code}") for code, text in libijska_help(int(settings.get("igraca") or 4)).items()}
    club = dict(CLUB)
    if variant == KLUB:
        if settings.get("kralj_sesti"):
            club["kralj"] = KRALJ_SESTI
        if settings.get("dalje_kazna"):
            club["lora"] = DALJE_KAZNA
        if settings.get("parovi"):
            club["zandar"] = PAROVI
        return {code: (club[code], CLUB_ANCHORS[code]) for code in KLUB_CODES}
    # The Club's own Lora names its contracts by number.
    return {str(i): (club[code], CLUB_ANCHORS[code]) for i, code in enumerate(KLUB_CODES, 1)}


__all__ = ["contract_help"]
