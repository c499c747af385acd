"""The bot API's page per game (issue 39, item 5): what a seat's view holds and what each
word looks like, generated from the games' descriptors and engines so it cannot drift from
them (``python -m app docs-bots`` writes docs/bots-games.md; a test compares the two).

For each game of the registry: its code, seats and settings (the descriptor's proposal
fields with their defaults and choices), the words every partie says at times (the
engine's timeout and deadline words), and, from a few parties of random legal play with
fixed seeds, the top-level keys of a seat's view (each with the kinds of value it took and
the keys of its objects) and the shapes of the words said (a card is two characters: rank
then suit), each with its meaning where the descriptor's texts give one (``hint:<word>``).
"""

from __future__ import annotations

import functools
import json
import random
import re
from typing import Any

from app.games.descriptor import FLAG, SUBSET, GameDescriptor
from app.games.registry import descriptors

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
SEEDS = 3  # parties of random play per game (and per setting that changes the seats)
MOST_WORDS = 400  # words of each partie looked at
KINDS = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number",
         type(None): "null"}


def shape(word: str) -> str:
    """A word as its shape: every card in it written ``<card>`` (``skart 7S TH``: ``skart
    <card> <card>``), and a number after a word's first part ``<n>`` (``kladim 13``:
    ``kladim <n>``; a bid ``2`` stays itself)."""
    tokens = word.split(" ")
    return " ".join("<card>" if CARD.match(t) else "<n>" if i and t.isdigit() else t for i, t in enumerate(tokens))


def _numbers(word: str) -> list[int]:
    return [int(t) for i, t in enumerate(word.split(" ")) if i and t.isdigit()]


def _sample(d: GameDescriptor, settings: dict[str, Any], seed: str) -> tuple[dict[str, dict], set[str]]:
    """Random legal play: the view's keys as seat 0 saw them (key -> {kinds, keys}) and the words said."""
    engine = d.engine.new(d.normalize_settings(dict(settings)), seed=seed)
    rng = random.Random(seed)
    keys: dict[str, dict[str, set[str]]] = {}
    words: set[str] = set()
    for _ in range(MOST_WORDS):
        for key, value in engine.view(0).items():
            seen = keys.setdefault(key, {"kinds": set(), "keys": set()})
            seen["kinds"].add(KINDS.get(type(value), "value"))
            if isinstance(value, dict):
                seen["keys"].update(str(k) for k in value)
        if engine.finished:
            break
        seats = engine.seats_to_act()
        if not seats:
            break
        seat = rng.choice(sorted(seats))
        word = rng.choice(sorted(engine.legal_actions(seat)))
        words.add(word)
        engine.apply(seat, word)
    return keys, words


def _only(named: list[str]) -> str:
    """The settings a key or word was seen with, unless with the default ones too."""
    return "" if "" in named else ", ".join(f"`{n}`" for n in named)


def _choices(field: Any) -> str:
    return ", ".join(f"`{c.value}`" for c in field.options()) if field.choices else ""


def game_section(d: GameDescriptor) -> list[str]:
    """One game's section (Markdown lines)."""
    out = [f"## {d.name.en} (`{d.code}`)", "", f"{d.tagline.en}.", ""]
    seats = sorted({d.seats_for(None), d.seats})
    out.append(f"- Seats: {' or '.join(map(str, seats))} (a view's `seat` is 0-based).")
    out.append(f"- One deal is a *{d.deal_noun.en.lower()}* on the pages.")
    if d.engine.deadline_word:
        out.append(f"- At a tournament round's deadline the server says `{d.deadline_word}` for any seat "
                   "(never in `legal`).")
    timeout = getattr(d.engine, "timeout_words", ())
    if timeout:
        out.append("- When a seat's time runs out the timer says the first of these that is legal: "
                   + ", ".join(f"`{w}`" for w in timeout) + " (else the computer player chooses).")
    optional = sorted(getattr(d.engine, "optional_words", ()))
    if optional:
        out.append("- Words out of turn (`may_speak`, never awaited): " + ", ".join(f"`{w}`" for w in optional) + ".")
    out.append("")
    if d.settings:
        out += ["**Settings** (a proposal's `settings`; left out: the default)", "",
                "| key | what | default | choices |", "| --- | --- | --- | --- |"]
        for f in d.settings:
            default = f"`{f.default}`" if f.default not in ("", None) else "(left out)"
            out.append(f"| `{f.key}` | {f.label.en} | {default} | {_choices(f)} |")
        out.append("")
    keys: dict[str, dict[str, Any]] = {}
    words: dict[str, list[str]] = {}  # a word's shape -> the settings it was said with
    numbers: dict[str, set[int]] = {}  # a shape's <n> -> the numbers said
    for settings in _sample_settings(d):
        named = json.dumps(settings, ensure_ascii=False, sort_keys=True) if settings else ""
        for i in range(SEEDS):
            k, w = _sample(d, settings, f"docs:{d.code}:{i}:{named}")
            for key, seen in k.items():
                mine = keys.setdefault(key, {"kinds": set(), "keys": set(), "with": []})
                mine["kinds"] |= seen["kinds"]
                mine["keys"] |= seen["keys"]
                if named not in mine["with"]:
                    mine["with"].append(named)
            for word in w:
                said = words.setdefault(shape(word), [])
                if named not in said:
                    said.append(named)
                numbers.setdefault(shape(word), set()).update(_numbers(word))
    out += ["**The view** (`view`, a seat's: its top-level keys as random play showed them; some only "
            "with some settings)", "", "| key | kind | its keys (an object's) | only with |", "| --- | --- | --- | --- |"]
    for key in sorted(keys):
        seen = keys[key]
        inner = ", ".join(f"`{k}`" for k in sorted(seen["keys"])) if seen["keys"] else ""
        out.append(f"| `{key}` | {' or '.join(sorted(seen['kinds']))} | {inner} | {_only(seen['with'])} |")
    out.append("")
    # the words the descriptor explains, said in random play or not, and the timer's
    for word in [k[5:] for k in d.texts if k.startswith("hint:")] + list(timeout) + optional:
        words.setdefault(shape(word), [""])
        numbers.setdefault(shape(word), set()).update(_numbers(word))
    shapes = sorted(words)
    cards = "<card>" in shapes
    out += ["**The words** (`legal`, in record notation)", ""]
    if cards:
        out.append("- `<card>`: a card, two characters, its rank (`7`-`9`, `T` ten, `J`, `Q`, `K`, `A`) "
                   "then its suit (`S` spades, `H` hearts, `D` diamonds, `C` clubs): `7S`, `TH`, `AC`.")
    for s in shapes:
        if s == "<card>":
            continue
        hint = d.texts.get(f"hint:{s}")
        only = _only(words[s])
        said = sorted(numbers.get(s) or ())
        ns = f"`<n>`: {', '.join(map(str, said))}" if len(said) < 8 else f"`<n>`: {said[0]} to {said[-1]}"
        notes = [x for x in (ns if said else "", f"only with {only}" if only else "") if x]
        out.append(f"- `{s}`" + (f": {hint.en}" if hint else "") + (f" ({'; '.join(notes)})" if notes else ""))
    out.append("")
    return out


def _sample_settings(d: GameDescriptor) -> list[dict[str, Any]]:
    """The settings random play tries: the default, each variant a text choice names, each
    house option on (with the choice it belongs to), each other number of seats."""
    out: list[dict[str, Any]] = [{}]
    for f in d.settings:
        base = {f.when[0]: f.when[1]} if f.when else {}
        if f.kind == FLAG:
            tries = [{**base, f.key: True}]
        elif f.kind == SUBSET:
            tries = [{**base, f.key: [f.options()[0].value]}] if f.choices else []
        elif f.seats or f.when or any(isinstance(c.value, str) for c in f.options()):
            tries = [{**base, f.key: c.value} for c in f.options() if c.value not in ("", None) and c.value != f.default]
        else:
            tries = []  # a number that changes no word (preferans' bule)
        for t in tries:
            try:
                d.normalize_settings(dict(t))
            except Exception:  # a value the game refuses alone
                continue
            if t not in out:
                out.append(t)
    return out


HEADER = """# The games for bots: views and words

Generated by `python -m app docs-bots` from the games' descriptors and engines (do not
edit: `tests/bots/test_bot_games_docs.py` fails when this page and the games differ).
docs/bots.md describes the protocol; this page says, per game, what the `view` of a
table's stream holds and what the words of `legal` look like. Every view also has the
keys every game shares (`game`, `version`, `seat`, `finished`, `deal_index`,
`legal_actions`, `result`: app/games/base.py). A program never re-implements the rules:
it says a word of `legal`.
"""


def bots_games_text() -> str:
    return _text(tuple(d.code for d in descriptors()))


@functools.cache  # per set of games: the same games give the same page
def _text(codes: tuple[str, ...]) -> str:
    lines = [HEADER]
    for d in descriptors():
        lines += game_section(d)
    return "\n".join(lines).rstrip() + "\n"
