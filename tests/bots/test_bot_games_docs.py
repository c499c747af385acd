"""Issue 39, item 5: the bots' page per game (docs/bots-games.md) is what the games'
descriptors and engines say: the committed page is the generated one, and it names every
game, setting and explained word, and the shape of every word random play says."""

from __future__ import annotations

import random

from app.bots.gamedocs import bots_games_text, shape
from app.cli import main
from app.games.registry import descriptors
from tests.support.paths import ROOT

PAGE = ROOT / "docs" / "bots-games.md"


def section(text: str, code: str) -> str:
    start = text.index(f"(`{code}`)")
    end = text.find("\n## ", start)
    return text[start:end if end > 0 else None]


def test_the_committed_page_is_the_generated_one(tmp_path, capsys):
    assert PAGE.read_text(encoding="utf-8") == bots_games_text(), "run: python -m app docs-bots --write docs/bots-games.md"
    assert main(["docs-bots"]) == 0 and capsys.readouterr().out == bots_games_text()
    assert main(["docs-bots", "--write", str(tmp_path / "g.md")]) == 0
    assert (tmp_path / "g.md").read_text(encoding="utf-8") == bots_games_text()
    assert "bots-games.md" in (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")


def test_the_page_says_what_the_descriptors_and_engines_say():
    text = bots_games_text()
    for d in descriptors():
        mine = section(text, d.code)
        assert mine.startswith(f"(`{d.code}`)") and d.name.en in text
        for f in d.settings:
            assert f"| `{f.key}` | {f.label.en} |" in mine, (d.code, f.key)
        for key, hint in d.texts.items():  # each word the descriptor explains, with its meaning
            if key.startswith("hint:"):
                explained = d.texts.get(f"hint:{shape(key[5:])}", hint)  # "nudim <n>" for "nudim 2"
                assert f"- `{shape(key[5:])}`: {explained.en}" in mine, key
        for word in getattr(d.engine, "timeout_words", ()):
            assert f"`{word}`" in mine
        if d.deadline_word:
            assert f"says `{d.deadline_word}`" in mine
        # a partie of random legal play (another seed than the page's): its every word's
        # shape and its view's every key are on the page
        engine = d.engine.new(d.normalize_settings({}), seed=f"check:{d.code}")
        rng = random.Random(d.code)
        for _ in range(300):
            assert all(f"| `{k}` |" in mine for k in engine.view(0)), d.code
            if engine.finished or not engine.seats_to_act():
                break
            seat = rng.choice(engine.seats_to_act())
            word = rng.choice(engine.legal_actions(seat))
            assert f"- `{shape(word)}`" in mine, (d.code, word)
            engine.apply(seat, word)
