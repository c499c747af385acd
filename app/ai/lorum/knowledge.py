"""What one seat knows in a Lórum deal, read from its view alone, and what a deal pays.

Trick contracts and Domino are read as the trick games read them (``app.ai.tricks.knowledge``): the cards
played, a suit not followed, every card that was playable when a seat said ``dalje``.
Fast train's ``dalje`` says the seat holds no card of the rank then due. Kvart shows
nothing more than the cards played (whoever holds the next card of a chain must play
it at once). In 101 the stock lies face down: its cards are as hidden as the others'
hands and nobody is known to lack any card.

Each trick contract is described by a :class:`ContractRule` whose ``score`` gives every
seat's *cost* (chips paid, minus chips won) by the engine's own payments, so the trick
games' search of a contract's own points (``RuleSolver``) serves Lórum's as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.cards import CARD_BY_NAME, RANK_LETTERS, mask_of
from app.games.tricks.contracts import Contract, ContractRule
from app.games.tricks.deal import DALJE
from app.games.lorum.contracts import LorumContract, contract_named
from app.games.lorum.deals import PENALTY_MASKS, RANK_MASKS, LorumTrickDeal, MakkDeal

from app.ai.tricks.knowledge import TrickKnowledge, replay_layout, replay_tricks
from app.ai.lorum.rules import TRICK_RULES


@dataclass
class LorumKnowledge(TrickKnowledge):
    """The trick games' knowledge (``contract``: the Club contract whose play and rules of
    thumb a trick contract shares; ``rule``: its Lórum payments) and what Lórum adds."""

    lorum: LorumContract = LorumContract.HEARTS
    bank: int = 0  # the bank as the table sees it (Domino: with its dalje so far)
    train_rank: int | None = None  # Fast train: the rank due (None: the first card)
    chain: int = 0  # Kvart: the cards of the open chain (0: a new chain is due) ...
    chain_needs: int | None = None  # ... and the card it needs next
    total: int = 0  # 101: the pile's total ...
    stock_size: int = 0  # ... and the cards left in the stock

    @property
    def bank_before(self) -> int:
        """Domino: the bank before its first card (its dalje are in the bank shown)."""
        return self.bank - sum(self.passes)


def final_transfers(contract: LorumContract, taken: list[int], trick_counts: list[int], last_winner: int) -> list[int]:
    """What a trick contract pays each seat when it ends with these cards taken, these
    trick counts and this winner of the last trick: the engine's own ``_finish``."""
    cls = MakkDeal if contract is LorumContract.MAKK else LorumTrickDeal
    deal = cls.__new__(cls)
    deal.contract = contract  # type: ignore[assignment]
    deal.taken = list(taken)
    deal.trick_counts = list(trick_counts)
    deal.tricks = [(0, (), last_winner)]
    deal._finish()
    return deal.transfers


def _scorer(contract: LorumContract):
    def score(deal: Any) -> list[int]:
        last = deal.tricks[-1][2] if deal.tricks else -1
        return [-t for t in final_transfers(contract, deal.taken, deal.trick_counts, last)]

    return score


def _trick_rule(contract: LorumContract) -> ContractRule:
    ends = 0 if contract in (LorumContract.NO_TRICKS, LorumContract.MAKK) else PENALTY_MASKS[contract]
    return ContractRule(code=contract.code, title=contract.title, kind="tricks", plays_like=TRICK_RULES[contract],
                        score=_scorer(contract), penalty=PENALTY_MASKS[contract], ends_when_taken=ends)


# Each trick contract as a scored Lora contract (V16: No tricks and makk play all 8 tricks).
TRICK_CONTRACT_RULES = {contract: _trick_rule(contract) for contract in TRICK_RULES}


def read_lorum(view: dict[str, Any]) -> LorumKnowledge:
    deal = view["deal"]
    seat = view["seat"]
    lorum = contract_named(deal["contract"])
    rule = TRICK_CONTRACT_RULES.get(lorum)
    know = LorumKnowledge(
        seat=seat,
        contract=rule.plays_like if rule is not None else Contract.LORA,
        hand=mask_of(CARD_BY_NAME[w] for w in deal["hand"]),
        hand_sizes=list(deal["hand_sizes"]),
        turn=deal["turn"] if deal["turn"] is not None else -1,
        rule=rule,
        lorum=lorum,
        bank=int(deal.get("bank") or 0),
    )
    actions = [(s, w) for s, w in deal["actions"]]
    if rule is not None:
        replay_tricks(know, actions)
    elif lorum is LorumContract.DOMINO:
        replay_layout(know, actions)
    elif lorum is LorumContract.FAST_TRAIN:
        _replay_train(know, actions)
    else:  # Kvart, 101: the cards played and nothing else
        for _, w in actions:
            know.played |= 1 << CARD_BY_NAME[w]
        know.chain = len(deal.get("chain") or ())
        needs = deal.get("next_card")
        know.chain_needs = None if needs is None else CARD_BY_NAME[needs]
        if lorum is LorumContract.STO_JEDAN:
            know.total = int(deal.get("total") or 0)
            know.stock_size = int(deal.get("stock_size") or 0)
            know.kitty_hidden = know.stock_size  # the sampler deals the stock like a face-down kitty
    return know


def _replay_train(know: LorumKnowledge, actions: list[tuple[int, str]]) -> None:
    rank: int | None = None
    for seat, word in actions:
        if word == DALJE:
            assert rank is not None
            know.forbidden[seat] |= RANK_MASKS[rank]
            continue
        c = CARD_BY_NAME[word]
        know.played |= 1 << c
        rank = ((c & 7) + 1) % len(RANK_LETTERS)
    know.train_rank = rank
