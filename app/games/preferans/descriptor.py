"""Preferans as the rest of the Club sees it (:mod:`app.games.descriptor`)."""

from __future__ import annotations

from typing import Any

from app.games.descriptor import GameDescriptor, SettingField, Text
from app.games.preferans.partie import PreferansPartie
from app.games.preferans.settings import BULE_CHOICES, DEFAULT_BULE, DEFAULT_REFE, MAX_REFE

REPLAY_KEYS = ("phase", "deal_index", "dealer", "first_bidder", "turn", "bid", "bid_holder", "declarer", "contract",
               "talon", "follow", "in_play", "trick", "trick_counts", "end", "words")


def public_word(word: str, own: bool) -> str:
    """The škart stays face down for the others: they learn only that it was made."""
    return "skart" if not own and word.startswith("skart") else word


def replay_table(engine: Any) -> dict[str, Any]:
    view = engine.view(None)
    hand = view.get("hand") or {}
    out = {k: hand.get(k) for k in REPLAY_KEYS}
    out["offer"] = view.get("offer")
    ponuda = hand.get("ponuda")
    out["ponuda"] = {"word": ponuda["word"]} if ponuda else None
    return out


def replay_hands(engine: Any) -> list[list[str]]:
    return [list((engine.view(s).get("hand") or {}).get("cards") or []) for s in range(engine.n_seats)]


DESCRIPTOR = GameDescriptor(
    code="preferans",
    name=Text("Preferans", "Preferans"),
    tagline=Text("3 igrača, do bula", "3 players, to the bule"),
    rules_title=Text("Pravila preferansa", "Rules of Preferans"),
    engine=PreferansPartie,
    settings=(
        SettingField("bule", Text("Bule", "Bule"), BULE_CHOICES, DEFAULT_BULE),
        SettingField("refe", Text("Refe", "Refe"), tuple(range(MAX_REFE + 1)), DEFAULT_REFE),
    ),
    contracts=(
        Text("pik", "spades"), Text("karo", "diamonds"), Text("herc", "hearts"), Text("tref", "clubs"),
        Text("betl", "betl"), Text("sans", "sans"),
    ),
    script="preferans.js",
    rules={"sr-Latn": "rules/preferans.sr.html", "en": "rules/preferans.en.html"},
    quick_start=Text("Preferans protiv dva računara", "Preferans against two computer players"),
    quick_suits="♣♦",
    public_word=public_word,
    replay_table=replay_table,
    replay_hands=replay_hands,
    keeps_papir=True,
    shows_deals=True,
)
