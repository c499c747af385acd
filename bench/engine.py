"""Engine speed: random legal play through the engine protocol, on one core.

    python bench/engine.py [--seconds S]

Prints full Lora parties/s (and deals/s) and preferans hands/s. Every word goes through
``legal_actions`` and ``apply`` exactly as the server and the computer players use them.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.lora import LoraPartie  # noqa: E402
from app.games.simulate import random_partie  # noqa: E402


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def measure(game: str, seconds: float, settings: dict | None = None) -> tuple[int, int, int, float]:
    """(parties, deals, actions, cpu seconds) of random parties played for ``seconds``."""
    parties = deals = actions = 0
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        partie = random_partie(game, seed, settings)
        seed += 1
        parties += 1
        deals += len(partie.to_record(["p"] * partie.n_seats)["deals"])
        actions += partie.version
    return parties, deals, actions, time.process_time() - start


def random_lora_on_masks(seed: int) -> LoraPartie:
    """Random legal Lora through the engine's card-int path (what search-based bots use)."""
    partie = LoraPartie.new({}, seed=seed)
    uniform = random.Random(seed).random
    while not partie.finished:
        seat = partie.deal.turn
        mask = partie.legal_mask(seat)
        if not mask:
            partie.apply(seat, "dalje")
            continue
        for _ in range(int(uniform() * mask.bit_count())):
            mask &= mask - 1
        partie.apply_card(seat, (mask & -mask).bit_length() - 1)
    return partie


def measure_lora_masks(seconds: float) -> tuple[int, int, float]:
    parties = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += random_lora_on_masks(parties).version
        parties += 1
    return parties, actions, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    pin_to_one_core()
    print(f"python {sys.version.split()[0]}, one core, {args.seconds:.0f} s of CPU per game")

    parties, deals, actions, cpu = measure("lora", args.seconds)
    print(
        f"lora:      {parties / cpu:8.1f} full parties/s  {deals / cpu:9.0f} deals/s  "
        f"{actions / cpu:9.0f} actions/s  (words: legal_actions + apply)"
    )
    parties, actions, cpu = measure_lora_masks(args.seconds)
    print(
        f"lora:      {parties / cpu:8.1f} full parties/s  {parties * 28 / cpu:9.0f} deals/s  "
        f"{actions / cpu:9.0f} actions/s  (cards: legal_mask + apply_card; target >= 200 parties/s)"
    )
    try:
        parties, deals, actions, cpu = measure("preferans", args.seconds)
    except ImportError as e:
        print(f"preferans: not available ({e})")
        return
    print(f"preferans: {deals / cpu:8.1f} hands/s          {actions / cpu:9.0f} actions/s  (target >= 2000 hands/s)")


if __name__ == "__main__":
    main()
