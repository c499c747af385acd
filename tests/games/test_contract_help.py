"""The current contract explains itself (issue 23, item 3): every contract of every game
and house rule has a one-line hint in both languages and a section of the rules page in
both languages; the bet prompt's unit and stakes come from the view."""

from __future__ import annotations

import re

import pytest

from app.games.lora import LoraPartie
from app.games.lora.bets import BET_POINTS
from app.games.registry import descriptor
from tests.support.paths import ROOT

TEMPLATES = ROOT / "templates"
SETTINGS = [
    ("lora", {}), ("lora", {"variant": "klub", "kralj_sesti": True, "dalje_kazna": True, "parovi": True}),
    ("lora", {"variant": "hrvatska"}), ("lora", {"variant": "libijska"}), ("lora", {"variant": "libijska", "igraca": 3}),
    ("lorum", {}), ("lorum", {"sto_jedan": True, "makk": True}), ("preferans", {}),
]


def contracts_named_by_views(game: str, settings: dict) -> set[str]:
    """Every contract label the views of a partie with these settings may show."""
    d = descriptor(game)
    engine = d.engine.new(d.normalize_settings(settings), seed=None)
    view = engine.view(None)
    if game == "preferans":
        return {w for w in ("pik", "karo", "herc", "tref", "betl", "sans")} | {f"igra-{w}" for w in ("pik", "karo", "herc", "tref", "betl", "sans")}
    if "schedule" in view:
        return {str(c) for _, c in view["schedule"]}
    return {str(engine.contract_label(k)) for k in range(engine.n_deals)}  # the Club's: numbers


@pytest.mark.parametrize("game, settings", SETTINGS)
def test_every_contract_has_a_hint_in_both_languages_and_a_section_of_the_rules(game, settings):
    d = descriptor(game)
    normalized = d.normalize_settings(settings)
    help_ = d.contract_help(normalized)
    named = contracts_named_by_views(game, settings)
    assert named and named <= set(help_), named - set(help_)
    ids = {lang: set(re.findall(r'id="([^"]+)"', (TEMPLATES / path).read_text())) for lang, path in d.rules.items()}
    for key, (hint, anchor) in help_.items():
        assert hint.sr and hint.en and hint.sr != hint.en, key
        for lang, found in ids.items():
            assert anchor in found, (key, anchor, lang)
    sr, en = d.page_data("sr-Latn", normalized), d.page_data("en", normalized)
    assert set(sr["contract_help"]) == set(help_) and sr["rules_url"] == f"/rules/{game}"
    assert all(en["contract_help"][k]["hint"] == help_[k][0].en for k in help_)
    assert "contract_help" not in d.page_data("en")  # without a partie's settings


def test_the_hints_follow_the_table_options_and_the_seats():
    lora = descriptor("lora")
    assert "6." in lora.contract_help({"variant": "klub", "kralj_sesti": True})["kralj"][0].sr
    assert "osmi" in lora.contract_help({"variant": "libijska", "igraca": 3})["sesti"][0].sr
    assert "šesti" in lora.contract_help({"variant": "libijska", "igraca": 4})["sesti"][0].sr
    assert "−10" in lora.contract_help({"variant": "libijska", "igraca": 3})["stihovi"][0].en
    assert lora.contract_help({})["7"][1] == "ugovor-lora"


def test_the_bet_prompt_names_its_unit_and_stakes():
    partie = LoraPartie.new(LoraPartie.normalize_settings({"variant": "libijska", "opklade": True}), seed="bets")
    terms = partie.view(partie.seats_to_act()[0])["deal"]["bet_terms"]
    assert terms == {"unit": "hearts", "stake": BET_POINTS, "trick": None}  # the first deal: herc
    no_bets = LoraPartie.new(LoraPartie.normalize_settings({"variant": "libijska"}), seed="bets")
    assert "bet_terms" not in no_bets.view(0)["deal"]
