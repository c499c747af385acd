"""Preferans as the rest of the Club sees it (:mod:`app.games.descriptor`)."""

from __future__ import annotations

from typing import Any

from app.games.descriptor import GameDescriptor, SettingField, Text, hands_in_views, public_part, rules_pages, texts
from app.games.preferans.help import contract_help
from app.games.preferans.papir import declared_hands
from app.games.preferans.partie import PreferansPartie
from app.games.preferans.problems import PREFERANS_PROBLEMS
from app.games.preferans.tournament import PREFERANS_TOURNAMENT
from app.games.preferans.texts import ANALYSIS_POINTS, TEXTS
from app.games.preferans.settings import BULE_CHOICES, DEFAULT_BULE, DEFAULT_REFE, MAX_REFE

REPLAY_KEYS = ("phase", "deal_index", "dealer", "first_bidder", "turn", "bid", "bid_holder", "declarer", "contract",
               "talon", "follow", "in_play", "trick", "trick_counts", "end", "words")


def public_word(word: str, own: bool) -> str:
    """The škart stays face down for the others: they learn only that it was made."""
    return "skart" if not own and word.startswith("skart") else word


_hand_table = public_part("hand", REPLAY_KEYS)


def replay_table(engine: Any) -> dict[str, Any]:
    """The hand's public part, the side offer, and the ponuda's word (not its shown cards)."""
    view = engine.view(None)
    ponuda = (view.get("hand") or {}).get("ponuda")
    return {**_hand_table(engine), "offer": view.get("offer"), "ponuda": {"word": ponuda["word"]} if ponuda else None}


DESCRIPTOR = GameDescriptor(
    code="preferans", engine=PreferansPartie, script="preferans.js", sheet="games/preferans-sheet.js", rules=rules_pages("preferans"),
    name=Text("Preferans", "Preferans"),
    tagline=Text("3 igrača, do bula", "3 players, to the bule"),
    rules_title=Text("Pravila preferansa", "Rules of Preferans"),
    settings=(
        SettingField("bule", Text("Bule", "Bule"), BULE_CHOICES, DEFAULT_BULE),
        SettingField("refe", Text("Refe", "Refe"), tuple(range(MAX_REFE + 1)), DEFAULT_REFE),
    ),
    contracts=texts(("pik", "spades"), ("karo", "diamonds"), ("herc", "hearts"), ("tref", "clubs"),
                    ("betl", "betl"), ("sans", "sans")),
    quick_start=Text("Preferans protiv dva računara", "Preferans against two computer players"), quick_suits="♣♦",
    deal_noun=Text("Ruka", "Hand"),  # the rules' word: a hand is one deal (docs/ui.md)
    deal_previous=Text("Prethodna ruka", "Previous hand"), deal_next=Text("Sledeća ruka", "Next hand"),
    public_word=public_word, replay_table=replay_table, replay_hands=hands_in_views("hand", "cards"),
    keeps_papir=True, shows_deals=True, declared_hands=declared_hands,
    contract_help=contract_help,
    analysis=True, analysis_unit="tricks", problems=PREFERANS_PROBLEMS,  # the cards played, valued in the declarer's tricks
    analysis_other_units={"points": ANALYSIS_POINTS},  # ... the bids and choices in points of the result
    tournament=PREFERANS_TOURNAMENT, texts=TEXTS,
)
