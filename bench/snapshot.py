"""The CPU of a table's word: the engine's apply and the table's snapshot (every seat's
view and the spectator's, as the JSON members the events are made of), whole random
parties of one game, no server. Add any second argument for a cProfile of one partie.

    .venv/bin/python bench/snapshot.py lora
    .venv/bin/python bench/snapshot.py preferans
"""

import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.tables.cache import LiveTable
game = sys.argv[1] if len(sys.argv) > 1 else "lora"
settings = {"bule": 60, "refe": 1} if game == "preferans" else {}
from app.games.registry import descriptor
settings = descriptor(game).normalize_settings(settings)
def run(n_parties=3):
    words = 0
    for p in range(n_parties):
        t = LiveTable(1, game, settings, f"seed{p}", 8)
        rng = random.Random(p)
        t.snapshot(None, None)
        e = t.engine
        optional = type(e).optional_words
        while not e.finished:
            seats = e.seats_to_act(); seat = seats[0]
            legal = [w for w in e.legal_actions(seat) if w not in optional] or e.legal_actions(seat)
            t.apply_quietly(seat, rng.choice(legal)); t.snapshot(None, None); words += 1
            if words > 3000: break
    return words
t0 = time.process_time(); w = run(); dt = time.process_time() - t0
print(game, w, "words", f"{dt/w*1000:.3f} ms per word (apply + snapshot)")
if len(sys.argv) > 2:
    pr = cProfile.Profile(); pr.enable(); run(1); pr.disable(); pstats.Stats(pr).sort_stats("tottime").print_stats(15)
