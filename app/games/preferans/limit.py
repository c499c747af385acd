"""How a partie ended, and the end of a tournament round's partie (rulings P13).

A round of preferans has ``deljenja`` hands: after the last one, unless the bule already
sum to 0, the partie ends by otpis (section 14) without asking. At the round's deadline
the server says :data:`ROK` for any seat: the hand in play is played to its end and the
partie then ends the same way (at once when no hand is in play). The word is in the
action log like any other, so a record replays it; no player can say it.
"""

from __future__ import annotations

ROK = "rok"  # the round's deadline (P13): said by the server, never a legal word of a seat

# Why a partie ended (``result()["ended_by"]``; None while it runs).
BULE = "bule"  # the bule sum reached 0 (section 14)
OTPIS = "otpis"  # an otpis was proposed and accepted (P11)
DELJENJA = "deljenja"  # the round's last hand was played (P13)
DEADLINE = ROK  # the round's deadline (P13)
P13_ENDS = (DELJENJA, DEADLINE)
