"""Lórum as the rest of the Club sees it: the trick games' table and script, chips and a bank."""

from __future__ import annotations

from app.games.descriptor import FLAG, SettingField, Text, public_part, rules_pages, texts
from app.games.tricks.descriptor import REPLAY_KEYS, trick_game
from app.games.lorum.contracts import LorumContract
from app.games.lorum.help import contract_help
from app.games.lorum.partie import LorumPartie
from app.games.lorum.tournament import LORUM_TOURNAMENT

# The bank, Kvart's chains, the Fast train, Domino's passes and 101's pile besides the trick table's.
LORUM_REPLAY_KEYS = (*REPLAY_KEYS, "bank", "chain", "chains", "next_card", "train", "next_rank", "passes",
                     "total", "pile", "stock_size")
CONTRACTS = texts(
    ("Herc", "Hearts"), ("Dame", "Queens"), ("Bez štihova", "No tricks"), ("Kvart", "Kvart"),
    ("Brzi voz", "Fast train"), ("Čupavi majmun", "Hairy monkey"), ("Domino", "Domino"),
)
# With the options on, deals are named by their contract's code (rulings V17).
CONTRACT_NAMES = {
    **{c.code: name for c, name in zip(LorumContract, CONTRACTS)},
    LorumContract.STO_JEDAN.code: Text("101", "101"),
    LorumContract.MAKK.code: Text("Makk: žandar tref, K herc, zadnji štih",
                                  "Makk: jack of clubs, king of hearts, last trick"),
}

# The proposal form: the two extra contracts, each after Hairy monkey and before Domino.
SETTINGS = (
    SettingField("sto_jedan", Text("101", "101"), kind=FLAG,
                 hint=Text("po 4 karte i špil; ko karticom dostigne 101, plaća 10 u banku",
                           "4 cards each and a stock; whose card reaches 101 pays 10 into the bank")),
    SettingField("makk", Text("Makk", "Makk"), kind=FLAG,
                 hint=Text("K herc, zadnji štih i igrač preko puta uzimaoca žandara tref plaćaju po 10",
                           "K of hearts, the last trick and the player opposite the J of clubs taker pay 10 each")),
)

DESCRIPTOR = trick_game(
    code="lorum", engine=LorumPartie, name=Text("Lórum", "Lórum"), settings=SETTINGS,
    contracts=CONTRACTS, contract_names=CONTRACT_NAMES,
    tagline=Text("4 igrača, 28 deljenja (uz 101 i makk do 36), žetoni i banka",
                 "4 players, 28 deals (up to 36 with 101 and makk), chips and a bank"),
    rules=rules_pages("lorum"), rules_title=Text("Pravila Loruma", "Rules of Lórum"),
    quick_start=Text("Lórum protiv tri računara", "Lórum against three computer players"), quick_suits="♥♣",
    replay_table=public_part("deal", LORUM_REPLAY_KEYS),
    house_keys=("sto_jedan", "makk"),  # the article's two extra contracts
    analysis_unit="chips", contract_help=contract_help, tournament=LORUM_TOURNAMENT,
)
