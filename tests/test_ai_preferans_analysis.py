"""The replay's analysis of preferans hands (app/ai/preferans/analysis.py): every card
choice valued by the declarer's tricks with every hand open, the auction's words and the
claims not valued; in the last tricks the values are those of a plain minimax."""

from __future__ import annotations

import pytest

from app.ai.common.tricks import legal_cards, winner_index
from app.ai.preferans.analysis import open_values
from app.analysis.deal import analyse_deal
from app.games.cards import CARD_BY_NAME, cards_of
from app.games.preferans import PreferansPartie
from tests.test_ai_lora_analysis import check_rows, decisions, load

RECORDS = ("preferans-11.json", "preferans-9001.json", "preferans-70043.json")


def played_deals(record: dict) -> list[int]:
    """The deals whose cards were played (more words than the auction and the follow round)."""
    return [k for k, d in enumerate(record["deals"]) if any(w in CARD_BY_NAME for _, w in d["actions"])]


@pytest.mark.parametrize("name", RECORDS)
def test_every_card_choice_is_valued_and_no_other_word(name):
    record = load(name)
    deals = played_deals(record)
    assert deals or name == "preferans-9001.json"
    for k in range(len(record["deals"])):
        analysis = analyse_deal(record, k)
        assert analysis["game"] == "preferans"
        check_rows(record, k, analysis)
        for row, (_, _, word, legal) in zip(analysis["rows"], decisions(record, k)):
            card_choice = word in CARD_BY_NAME and sum(w in CARD_BY_NAME for w in legal) > 1
            assert (row["values"] is not None) == card_choice, (row, legal)
        assert any(r["values"] for r in analysis["rows"]) == (k in deals)


def declarer_tricks(hands: list[int], seats: tuple[int, ...], turn: int, trick: list[tuple[int, int]],
                    trump: int | None, declarer: int, betl: bool) -> int:
    """The declarer's tricks from here to the tenth, every card open: plain minimax (the
    declarer takes as many as he can, in betl as few; the defenders the opposite)."""
    if not any(hands[s] for s in seats) and not trick:
        return 0
    outcomes = []
    for c in cards_of(legal_cards(hands[turn], [x for _, x in trick], trump)):
        after = list(hands)
        after[turn] &= ~(1 << c)
        played = [*trick, (turn, c)]
        if len(played) == len(seats):
            winner = played[winner_index([x for _, x in played], trump)][0]
            outcomes.append(int(winner == declarer) + declarer_tricks(after, seats, winner, [], trump, declarer, betl))
        else:
            nxt = seats[(seats.index(turn) + 1) % len(seats)]
            outcomes.append(declarer_tricks(after, seats, nxt, played, trump, declarer, betl))
    wants_more = (turn == declarer) != betl
    return max(outcomes) if wants_more else min(outcomes)


@pytest.mark.parametrize("name", RECORDS)
def test_the_values_of_the_last_tricks_are_the_minimax_ones(name):
    record = load(name)
    partie = PreferansPartie.new(record["settings"])
    checked = 0
    for d in record["deals"]:
        partie.start_deal(d["hands"], d.get("talon"))
        for seat, word in d["actions"]:
            hand = partie.hand
            play = hand.play if hand is not None else None
            legal = partie.legal_actions(seat)
            cards = [w for w in legal if w in CARD_BY_NAME]
            if play is not None and len(cards) > 1 and sum(play.hands[s].bit_count() for s in play.seats) <= 9:
                values = open_values(partie, seat, legal)
                assert values is not None and sorted(values) == sorted(cards)
                sign = 1 if (seat == play.declarer) == play.betl else -1
                for w in cards:
                    c = CARD_BY_NAME[w]
                    hands = list(play.hands)
                    hands[seat] &= ~(1 << c)
                    played = [*play.trick, (seat, c)]
                    if len(played) == len(play.seats):
                        winner = played[winner_index([x for _, x in played], play.trump)][0]
                        future = int(winner == play.declarer) + declarer_tricks(
                            hands, play.seats, winner, [], play.trump, play.declarer, play.betl)
                    else:
                        nxt = play.seats[(play.seats.index(seat) + 1) % len(play.seats)]
                        future = declarer_tricks(hands, play.seats, nxt, played, play.trump, play.declarer, play.betl)
                    assert values[w] == sign * future, (w, values)
                checked += 1
            partie.apply(seat, word)
    assert checked or name == "preferans-9001.json"
