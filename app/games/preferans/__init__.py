"""Serbian preferans, by the Club's rules and rulings P1-P12 (``/rules/preferans``, ``docs/rulings.md``).

Modules, one job each: ``settings`` (P4), ``contracts`` (values, P1), ``bidding``
(licitacija, declarations, the igra contest), ``follow`` (praćenje, zovem, kontra, P8),
``play`` (tricks on bit masks), ``hand`` (one deal from the first bid to the last trick,
with the ponuda), ``scoring`` (bule, supe, refe, the end cap, otpis), ``papir`` (the
score sheet, results and places), ``between`` (odlazak u bulu and otpis offers),
``partie`` (the engine protocol and records) and ``views``.
"""

from app.games.preferans.partie import PreferansPartie

__all__ = ["PreferansPartie"]
