"""The preferans computer players.

All levels share the auction, škart, contract and following decisions (hand
evaluation); they differ in the play: ``pocetnik`` plays by rules, ``iskusan`` and
``majstor`` by PIMC (sampled hidden hands, open-cards search late in the hand,
rule-based playouts early), and the search levels claim (``nosim sve`` / ``nemam pad``)
when every sample says the rest is certain.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.games.cards import CARD_BY_NAME, CARD_NAMES

from app.ai.common.search import SearchAborted
from app.ai.common.tricks import winner_index
from app.ai.preferans.evaluation import TRICKS_TO_MAKE, best_contract, best_skart, betl_risk, contract_tricks, defence_tricks
from app.ai.preferans.knowledge import SUIT_WORDS, PreferansKnowledge, read_view
from app.ai.preferans.play_rules import rule_card
from app.ai.preferans.sampler import sample_hands
from app.ai.preferans.simulated import SimulatedChoices, contract_fit, skart_word
from app.ai.preferans.worlds import conditioned
from app.ai.preferans.solver import PlaySolver

SIDE_WORDS = ("preuzimam pad", "vracam pad", "otpis")
BID_VALUE = {"pik": 2, "karo": 3, "herc": 4, "tref": 5, "betl": 6, "sans": 7}
PLAY_TRIES = 6  # draws per kept world when fitting the declarer's hand to his contract
TALON_HOPE = 0.7  # tricks the two talon cards add on average


@dataclass(frozen=True)
class PlayLevel:
    search: bool
    samples: int = 0
    exact_cards: int = 0  # cards in the hands in play at most, for the exact search
    nodes: int = 0
    playouts: int = 0
    worlds: int = 0  # worlds for the open-hand checks of the auction, škart, contract, kontra (0: evaluation only)
    world_nodes: int = 0  # search nodes per such decision, in all
    solve_nodes: int = 800  # search nodes per world and contract


POCETNIK = PlayLevel(search=False)
ISKUSAN = PlayLevel(search=True, samples=8, exact_cards=12, nodes=2_000, playouts=8, worlds=8, world_nodes=5_000)
MAJSTOR = PlayLevel(search=True, samples=20, exact_cards=18, nodes=6_000, playouts=24, worlds=16, world_nodes=12_000)


def make_preferans_bot(name: str, seed: int | str | None) -> "PreferansBot":
    return PreferansBot({"pocetnik": POCETNIK, "iskusan": ISKUSAN}.get(name, MAJSTOR), seed)


class PreferansBot:
    def __init__(self, level: PlayLevel, seed: int | str | None = None):
        self.level = level
        self.seed = seed
        self._checks = SimulatedChoices(level.worlds, level.world_nodes, level.solve_nodes, seed, self.deal_hands)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        main = [w for w in legal if w not in SIDE_WORDS] or legal
        word = self._decide(view, main)
        return word if word in legal else main[0]

    def _decide(self, view: dict[str, Any], words: list[str]) -> str:
        if view.get("offer") and "prihvatam" in words:
            return self._answer_side_offer(view)
        h = view["hand"]
        know = read_view(view)
        rng = random.Random(f"{self.seed}:{view.get('deal_index')}:{view.get('version')}:{view.get('seat')}")
        phase = h["phase"]
        if "prihvatam" in words:
            return self._answer_ponuda(know, h, rng)
        if self.level.worlds:
            checked = self._checks.decide(know, h, words)
            if checked is not None:
                return checked
        if phase == "licitacija":
            return self._bid(know, words)
        if phase == "talon":
            a, b = best_skart(know.hand)
            return skart_word(a, b, words)
        if phase == "kontrakt":
            return self._contract(know, words)
        if phase == "pracenje":
            return self._follow(know, words)
        return self._play(know, words, rng)

    # -- between hands ----------------------------------------------------------------

    @staticmethod
    def _answer_side_offer(view: dict[str, Any]) -> str:
        offer = view["offer"]
        if offer["word"] == "otpis":  # end the partie now only if I am ahead
            results = view.get("result", {}).get("results") or [0, 0, 0]
            return "prihvatam" if results[view["seat"]] >= max(results) else "odbijam"
        return "prihvatam"  # someone takes over my fall

    # -- auction ----------------------------------------------------------------------

    def _bid(self, know: PreferansKnowledge, words: list[str]) -> str:
        name, tricks = best_contract(know.hand)
        risk = betl_risk(know.hand)
        if any(w in SUIT_WORDS for w in words):  # naming the trump of a declared igra
            return name if name in words else "slabija" if "slabija" in words else words[0]
        if "sans" in words and contract_tricks(know.hand, None) >= 8:
            return "sans"
        if "igra" in words and tricks >= TRICKS_TO_MAKE + 1:
            return "igra"
        if "betl" in words and risk == 0:
            return "betl"
        limit = 0
        if tricks + TALON_HOPE >= TRICKS_TO_MAKE:
            limit = BID_VALUE[name]
        if risk <= 1.0:
            limit = max(limit, BID_VALUE["betl"])
        for w in words:
            if w.isdigit() and int(w) <= limit:
                return w
        if "moje" in words and know_bid(words, limit):
            return "moje"
        return "dalje"

    # -- talon and contract ---------------------------------------------------------

    def _contract(self, know: PreferansKnowledge, words: list[str]) -> str:
        options = [(w, contract_tricks(know.hand, SUIT_WORDS.index(w) if w in SUIT_WORDS else None) - (0.5 if w == "sans" else 0))
                   for w in words if w != "betl"]
        if "betl" in words and betl_risk(know.hand) <= 1.0 and (not options or max(t for _, t in options) < TRICKS_TO_MAKE):
            return "betl"
        return max(options, key=lambda o: (o[1] >= TRICKS_TO_MAKE, o[1], BID_VALUE[o[0]]))[0] if options else words[0]

    # -- following ---------------------------------------------------------------------

    def _follow(self, know: PreferansKnowledge, words: list[str]) -> str:
        if "rekontra" in words:
            tricks = contract_tricks(know.hand, know.trump)
            return "rekontra" if tricks >= 9 else "moze"
        strength = defence_tricks(know.hand, know.trump)
        if "pratim" in words:
            return "pratim" if strength >= 1.5 else "ne pratim"
        if "sam" in words and "ne pratim" in words:
            return "sam" if strength >= 3.5 else "zovem" if strength >= 2.0 else "ne pratim"
        if "sam" in words:
            return "sam" if strength >= 3.0 else "zovem"
        if "kontra" in words:
            return "kontra" if strength >= 5 else next(w for w in words if w != "kontra")
        return words[0]

    # -- offers during the play ---------------------------------------------------------

    def _answer_ponuda(self, know: PreferansKnowledge, h: dict[str, Any], rng: random.Random) -> str:
        po = h.get("ponuda") or {}
        word = po.get("word", "")
        declarer = know.declarer
        if declarer is None or not know.in_play:
            return "odbijam"
        outcomes = self._declarer_futures(know, rng, declarer, samples=max(self.level.samples, 6))
        left = 10 - know.tricks_done
        done_decl = know.trick_counts[declarer]
        if word == "nosim sve":
            return "prihvatam" if outcomes and all(f == left for f in outcomes) else "odbijam"
        if word == "nemam pad":
            return "prihvatam" if outcomes and all(f == 0 for f in outcomes) else "odbijam"
        if word.startswith("nudim"):
            offered = int(word.split()[1])
            defenders_now = know.tricks_done - done_decl
            expected = defenders_now + (sum(left - f for f in outcomes) / len(outcomes) if outcomes else 0)
            return "prihvatam" if offered >= expected else "odbijam"
        return "odbijam"

    def _declarer_futures(self, know: PreferansKnowledge, rng: random.Random, declarer: int, samples: int) -> list[int]:
        """Declarer tricks still to come in each sample, with best play (exact), if affordable."""
        if self._cards_in_play(know) > max(self.level.exact_cards, 15):
            return []
        out = []
        for _ in range(samples):
            hands = self.deal_hands(know, rng)
            turn = self._turn(know)
            solver = PlaySolver(know.in_play, declarer, know.trump, know.betl, node_limit=20_000)
            try:
                values = solver.move_values(hands[:3], know.trick, turn)
            except SearchAborted:
                return []
            maximizing = (turn == declarer) != know.betl
            out.append(max(values.values()) if maximizing else min(values.values()))
        return out

    # -- card play ---------------------------------------------------------------------

    def _play(self, know: PreferansKnowledge, words: list[str], rng: random.Random) -> str:
        cards = [CARD_BY_NAME[w] for w in words if w in CARD_BY_NAME]
        offers = [w for w in words if w not in CARD_BY_NAME]
        if self.level.search and offers and know.declarer == know.seat:
            claim = "nemam pad" if know.betl else "nosim sve"
            refused = any(w == claim for w, _ in (view_ponude(know)))
            if claim in offers and not refused:
                futures = self._declarer_futures(know, rng, know.seat, samples=self.level.samples)
                left = 10 - know.tricks_done
                if futures and all(f == (0 if know.betl else left) for f in futures):
                    return claim
        if not cards:
            return words[0]
        if len(cards) == 1:
            return CARD_NAMES[cards[0]]
        if not self.level.search:
            return CARD_NAMES[self._rule(know, know_hands_only(know), know.seat)]
        return CARD_NAMES[self._search_card(know, cards, rng)]

    def _rule(self, know: PreferansKnowledge, hands: list[int], seat: int) -> int:
        return rule_card(hands[seat], [c for _, c in know.trick], [s for s, _ in know.trick], seat,
                         know.declarer if know.declarer is not None else -1, know.trump, know.betl, len(know.in_play))

    def _search_card(self, know: PreferansKnowledge, cards: list[int], rng: random.Random) -> int:
        level = self.level
        declarer = know.declarer if know.declarer is not None else -1
        me_declarer = know.seat == declarer
        made_decl = know.trick_counts[declarer] if declarer >= 0 else 0
        totals = dict.fromkeys(cards, 0.0)

        def score(future: int) -> float:
            """Good for the declarer: making the contract first, then more tricks (betl: fewer)."""
            total = made_decl + future
            if know.betl:
                return 10.0 * (total == 0) - total
            return 10.0 * (total >= TRICKS_TO_MAKE) + total

        exact = self._cards_in_play(know) <= level.exact_cards
        nodes = 0
        count = level.samples if exact else level.playouts
        worlds = self._play_worlds(know, rng, count)
        for i in range(count):
            hands = worlds[i][:3]
            values: dict[int, int] | None = None
            if exact and nodes < level.nodes:
                solver = PlaySolver(know.in_play, declarer, know.trump, know.betl, node_limit=level.nodes * 2 - nodes)
                try:
                    values = solver.move_values(hands, know.trick, know.seat)
                    nodes += solver.nodes
                except SearchAborted:
                    exact = False
            elif exact and i >= 4:
                break
            if values is None:
                values = {c: self._playout(know, hands, c) for c in cards}
            for c in cards:
                s = score(values[c])
                totals[c] += s if me_declarer else -s
        return max(cards, key=lambda c: (totals[c], -c))

    def _play_worlds(self, know: PreferansKnowledge, rng: random.Random, n: int) -> list[list[int]]:
        """``n`` worlds for the card play; a defender prefers those in which the declarer's
        cards fit the contract he chose (what the auction told about his hand)."""
        if know.declarer is None or know.declarer == know.seat or know.contract is None:
            return [self.deal_hands(know, rng) for _ in range(n)]
        return conditioned(lambda r: self.deal_hands(know, r), contract_fit(know), rng, n, n * PLAY_TRIES)

    def _playout(self, know: PreferansKnowledge, hands: list[int], first: int) -> int:
        """Declarer tricks still to come when I play ``first`` and everybody follows the rules."""
        hands = list(hands)
        seats = know.in_play
        n = len(seats)
        declarer = know.declarer if know.declarer is not None else -1
        trick = list(know.trick)
        seat, c = know.seat, first
        future = 0
        while True:
            hands[seat] &= ~(1 << c)
            trick.append((seat, c))
            if len(trick) == n:
                w = trick[winner_index([x for _, x in trick], know.trump)][0]
                future += w == declarer
                if not hands[declarer]:
                    return future
                trick = []
                seat = w
            else:
                seat = seats[(seats.index(seat) + 1) % n]
            c = rule_card(hands[seat], [x for _, x in trick], [s for s, _ in trick], seat, declarer, know.trump, know.betl, n)

    def deal_hands(self, know: PreferansKnowledge, rng: random.Random) -> list[int]:
        """One world: [hand0, hand1, hand2, pile] consistent with the view (the oracle overrides)."""
        return sample_hands(know, rng)

    def _cards_in_play(self, know: PreferansKnowledge) -> int:
        return sum(know.hand_size(s) for s in know.in_play)

    @staticmethod
    def _turn(know: PreferansKnowledge) -> int:
        seats = know.in_play
        if know.trick:
            last = know.trick[-1][0]
            return seats[(seats.index(last) + 1) % len(seats)]
        return know.seat


def view_ponude(know: PreferansKnowledge) -> list[tuple[str, str]]:
    return know.ponude


def know_hands_only(know: PreferansKnowledge) -> list[int]:
    hands = [0, 0, 0]
    hands[know.seat] = know.hand
    return hands


def know_bid(words: list[str], limit: int) -> bool:
    """``moje`` keeps the bid on the table: say it while the bid is within my limit."""
    return limit >= 2
