"""Three computer players of one level against each other, single preferans hands.

    .venv/bin/python bench/preferans_selfplay.py --level majstor --hands 40

Each hand is dealt from its own seed into a fresh partie (bule 60, no refe) and played
to its end. Prints how many hands were declared and made (per contract), and how the
sum of the three players' bule moved: the declarers' part and the defenders' part (a
follower who falls adds v). A whole partie ends when the sum reaches 0, so a level that
makes the sum rise against itself never finishes one.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.ai import make_bot  # noqa: E402
from app.games.cards import CARD_NAMES, deal_one_by_one, shuffled_deck  # noqa: E402
from app.games.preferans import PreferansPartie  # noqa: E402

BULE = 60


def play_hand(level: str, deal: int) -> tuple[dict, list[int]]:
    deck = shuffled_deck("selfplay", deal)
    hands = deal_one_by_one(deck, 3, 10, 1)
    partie = PreferansPartie.new({"bule": BULE, "refe": 0})
    partie.start_deal([[CARD_NAMES[c] for c in h] for h in hands], [CARD_NAMES[c] for c in deck[30:]])
    bots = [make_bot(level, "preferans", seed=f"{deal}:{s}") for s in range(3)]
    while partie.deal_index == 0 and not partie.finished:
        seat = partie.seats_to_act()[0]
        partie.apply(seat, bots[seat].choose(partie.view(seat), list(partie.legal_actions(seat))))
    return partie.papir()["lines"][-1], partie.result()["bule"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="majstor")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--start", type=int, default=0, help="the first deal's number")
    args = ap.parse_args()
    started = time.monotonic()
    declared, made = Counter(), Counter()
    drift = declarers = 0
    for deal in range(args.start, args.start + args.hands):
        line, bule = play_hand(args.level, deal)
        drift += sum(bule) - 3 * BULE
        d = line.get("declarer")
        if d is not None:
            declarers += bule[d] - BULE
            if line.get("kind") in ("played", "prolaz"):
                declared[line["contract"]] += 1
                made[line["contract"]] += bool(line.get("passed"))
    total = sum(declared.values())
    print(f"3 x {args.level}, {args.hands} hands ({time.monotonic() - started:.0f} s): declared {total}, "
          f"made {sum(made.values())}")
    print("  " + ", ".join(f"{c} {made[c]}/{n}" for c, n in declared.most_common()))
    print(f"sum of the bule moved by {drift:+d} ({drift / args.hands:+.2f} a hand): "
          f"declarers {declarers:+d}, defenders {drift - declarers:+d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
