"""Serbian preferans, by the Club's rules and rulings P1-P13 (``/rules/preferans``, ``docs/rulings.md``).

Modules, one job each: ``settings`` (P4), ``contracts`` (values, P1), ``bidding``
(licitacija, declarations, the igra contest), ``follow`` (praćenje, zovem, kontra, P8),
``play`` (tricks on bit masks), ``hand`` (one deal from the first bid to the last trick,
with the ponuda), ``scoring`` (bule, supe, refe, the end cap, otpis), ``papir`` (the
score sheet, results and places), ``between`` (odlazak u bulu and otpis offers),
``partie`` (the engine protocol and records), ``views``, ``limit`` (how a partie ended; a
tournament round's hands and deadline, P13) and ``tournament`` (its part of a tournament).
"""

from app.games.preferans.partie import PreferansPartie

__all__ = ["PreferansPartie"]
