"""What the rest of the Club knows of a game: one :class:`GameDescriptor` per game.

A game plugs in at one place: its package ``app/games/<code>/`` defines ``DESCRIPTOR``
(and lists it in :mod:`app.games.registry`), its computer players live in
``app/ai/<code>/`` (``make_bot(level, seed)``, and ``analysis.open_values`` where the
descriptor says ``analysis``), and its table script, if it has one of
its own, under ``static/js/``. The lobby's form, the proposal check, the table and
archive pages, the rules index and the replay read everything from the descriptor;
nothing outside the game's packages asks for a game by its code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from app.games.base import KeepsPapir, PartieEngine, ShowsDeals
from app.games.tournament import TournamentRules

if TYPE_CHECKING:
    from app.games.problems import ProblemRules


@dataclass(frozen=True)
class Text:
    """A text in the Club's two languages: Serbian (Latin), the default, and English."""

    sr: str
    en: str

    def __call__(self, lang: str | None) -> str:
        return self.en if lang == "en" else self.sr


@dataclass(frozen=True)
class Choice:
    """One value of a setting, with what the form and the lists call it."""

    value: str | int
    label: Text
    hint: Text | None = None


CHOICE, FLAG, SUBSET = "choice", "flag", "subset"


@dataclass(frozen=True)
class SettingField:
    """One setting of the proposal form.

    ``choice``: one of ``choices`` (whole numbers, or :class:`Choice` values); the value
    ``""`` means the setting is left out. ``flag``: on (``True``) or left out. ``subset``:
    a list of some of the ``choices`` (left out when empty). ``when=(key, value)``: the
    field belongs to that value of another field (shown and read only then).
    """

    key: str
    label: Text
    choices: tuple[int | Choice, ...] = ()
    default: int | str | bool = ""
    hint: Text | None = None
    kind: str = CHOICE
    when: tuple[str, str | int] | None = None
    seats: bool = False  # the value is the partie's number of seats (the form follows it)

    def options(self) -> tuple[Choice, ...]:
        return tuple(c if isinstance(c, Choice) else Choice(c, Text(str(c), str(c))) for c in self.choices)

    def parse(self, form: Mapping[str, str]) -> Any:
        """The value the form says (None: left out); the engine checks it."""
        if self.kind == FLAG:
            return True if form.get(self.key) == "on" else None
        if self.kind == SUBSET:
            return [c.value for c in self.options() if form.get(f"{self.key}.{c.value}") == "on"] or None
        raw = form.get(self.key)
        if raw in (None, ""):
            return self.default if self.default != "" else None
        for c in self.options():
            if str(c.value) == raw:
                return c.value
        return raw  # not one of ours: the engine names the problem

    def describe(self, value: Any, lang: str | None) -> str | None:
        """The value as the lists show it, or None when it says nothing worth showing."""
        if value is None or value is False or value == "" or value == []:
            return None
        labels = {c.value: c.label(lang) for c in self.options()}
        if self.kind == FLAG:
            return self.label(lang)
        if self.kind == SUBSET:
            return f"{self.label(lang)}: {', '.join(labels.get(v, str(v)) for v in value)}"
        if all(isinstance(c, Choice) for c in self.choices):
            return labels.get(value, str(value))
        return f"{self.label(lang).lower()} {value}"


def texts(*pairs: tuple[str, str]) -> tuple[Text, ...]:
    """Texts from (Serbian, English) pairs."""
    return tuple(Text(sr, en) for sr, en in pairs)


def catalog(serbian: Mapping[str, str]) -> dict[str, Text]:
    """A game's texts (``GameDescriptor.texts``) from id -> Serbian: the id a script asks
    ``K.T`` for is its English (``word:dalje`` shows as "dalje")."""
    return {en: Text(sr, en) for en, sr in serbian.items()}


def rules_pages(code: str) -> dict[str, str]:
    """The rules pages of a game by the usual names: ``templates/rules/<code>.<sr|en>.html``."""
    return {"sr-Latn": f"rules/{code}.sr.html", "en": f"rules/{code}.en.html"}


def same_word(word: str, own: bool) -> str:
    return word


def public_part(part: str, keys: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    """The replay's table: ``keys`` of the spectator view's ``part`` (the deal, the hand)."""
    def table(engine: Any) -> dict[str, Any]:
        shown = engine.view(None).get(part) or {}
        return {k: shown.get(k) for k in keys}

    return table


def hands_in_views(part: str, key: str) -> Callable[[Any], list[list[str]]]:
    """The replay's hands: each seat's own cards, ``key`` of its view's ``part``."""
    def hands(engine: Any) -> list[list[str]]:
        return [list((engine.view(s).get(part) or {}).get(key) or []) for s in range(engine.n_seats)]

    return hands


@dataclass(frozen=True)
class GameDescriptor:
    code: str
    name: Text
    tagline: Text  # one line for the proposal form: players, length
    rules_title: Text
    engine: type[PartieEngine]
    settings: tuple[SettingField, ...] = ()
    contracts: tuple[Text, ...] = ()  # in the order the game plays them
    # Contracts named by a code (house-rule tables name their deals' contracts so).
    contract_names: Mapping[str, Text] = field(default_factory=dict)
    # The key of ``contract_names`` a code is named by in a partie with these settings (Lora:
    # ``kralj`` with ``kralj_sesti`` is "K herc i 6. štih"), as the sheet script's S.contractKey.
    contract_key: Callable[[str, Mapping[str, Any]], str] = lambda code, settings: code
    bot_levels: tuple[str, ...] = ("pocetnik", "iskusan", "majstor")
    # The package with make_bot(level, seed): one under app/ai/ (""; the code), or a dotted
    # module path of its own (a game outside the Club's tree).
    bots: str = ""
    # The replay's analysis: the bots package has ``analysis.open_values(engine, seat, legal)``,
    # every legal word's open-cards value (app/analysis/); False: no analysis of this game.
    analysis: bool = False
    analysis_unit: str = "points"  # what the analysis counts as lost: "points", "chips" or "tricks"
    # Decisions it values in another unit (preferans' bids and choices: points of the
    # result): per unit, the ids in ``texts`` of the deal's sum, the column and the note
    # on how they are valued (the replay's analysis, static/js/archive.js).
    analysis_other_units: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    # The Club's problems from its finished deals (app/problems/): what a clear problem is,
    # its theme and its question (app/games/problems.py); None: no problems of this game.
    problems: ProblemRules | None = None
    # The table script under static/js/ that draws this game (several games may share one);
    # a game without one of its own is drawn by the plain table (static/js/plain.js: the
    # hand, the trick, the words, the generic score sheet of its result).
    script: str = "plain.js"
    # The game's score sheet script under static/js/ (``Klub.sheets``' drawings of its
    # result, beside the table and in the archive), loaded after the shared static/js/sheets.js;
    # "": the generic sheet of ``result()``'s deals, totals and places.
    sheet: str = ""
    # A directory of the game's own (its package's) where its ``script`` and ``sheet`` are,
    # served at /games/<code>/ (app/web/assets.py); None: they are under static/js/.
    assets: Path | None = None
    # The game's own texts its scripts show (``K.T(id)``), in the Club's two languages: they
    # reach its table and archive pages beside the Club's catalog (a game outside the
    # Club's tree brings its words with it).
    texts: Mapping[str, Text] = field(default_factory=dict)
    # The game's own table timings its scripts read (``K.game.timings``), by name, in
    # milliseconds (Lora: the pause before a seat with no card to play says dalje by
    # itself); the Club's settings may change them (``ui_timings``, the tests' short ones).
    timings: Mapping[str, int] = field(default_factory=dict)
    # The rules page templates: language -> path under templates/.
    rules: Mapping[str, str] = field(default_factory=dict)
    # The quick-start button of the lobby (against computer players); None: no such button.
    quick_start: Text | None = None
    quick_suits: str = ""
    # What the game calls one deal on the screens ("Deljenje 12 od 28"; preferans: "Ruka 12").
    deal_noun: Text = Text("Deljenje", "Deal")
    # The replay's buttons to the deal before and after (the noun's gender in Serbian).
    deal_previous: Text = Text("Prethodno deljenje", "Previous deal")
    deal_next: Text = Text("Sledeće deljenje", "Next deal")
    # A word as a seat that may not see it learns it (e.g. a discard stays face down).
    public_word: Callable[[str, bool], str] = same_word
    # The replay: the public part of the table after each step, and every hand face up.
    replay_table: Callable[[Any], dict[str, Any]] = lambda engine: {}
    replay_hands: Callable[[Any], list[list[str]]] = lambda engine: []
    keeps_papir: bool = False  # the engine is a KeepsPapir
    # A profile's statistics of a game that keeps a papir: the hands a seat declared, from a
    # finished partie's papir lines, each as (made, its contract).
    declared_hands: Callable[[list[dict[str, Any]], int], list[tuple[bool, str | None]]] = lambda lines, seat: []
    shows_deals: bool = False  # the engine is a ShowsDeals
    # Settings whose presence makes a partie one of house rules rather than the Club's own
    # (the archive's filter); a game without them is always played by the Club's rules.
    house_keys: tuple[str, ...] = ()
    # Each contract of a partie with these settings, as its views name it (a number as a
    # string, or a code) -> (a one-line scoring hint, the id of its section on the rules page).
    contract_help: Callable[[Mapping[str, Any]], Mapping[str, tuple[Text, str]]] = lambda settings: {}
    # What a tournament asks of the game (rounds, boards, place points; rulings T3-T5);
    # None: the game is not played in tournaments.
    tournament: TournamentRules | None = None

    def __post_init__(self) -> None:
        if not self.bots:
            object.__setattr__(self, "bots", self.code)

    @property
    def deadline_word(self) -> str | None:
        """The word the server says at a tournament round's deadline, when the partie
        ``accepts_deadline()`` (:mod:`app.games.base`); None: the game has none and its
        round plays to its end (T3)."""
        return self.engine.deadline_word

    @property
    def seats(self) -> int:
        """The most seats a partie of this game has (the proposal form's lines)."""
        return self.engine.n_seats

    def seats_for(self, settings: Mapping[str, Any] | None) -> int:
        """The seats of a partie with these settings (:class:`SettingsError` if refused)."""
        return self.engine.seats_for(self.normalize_settings(dict(settings or {})))

    def default_settings(self) -> dict[str, Any]:
        return {f.key: f.default for f in self.settings if f.default not in ("", False)}

    def settings_from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        """The settings a proposal form says (field names without the game's prefix)."""
        out: dict[str, Any] = {}
        for f in self.settings:
            if f.when is not None and str(out.get(f.when[0], "")) != str(f.when[1]):
                continue
            value = f.parse(form)
            if value is not None:
                out[f.key] = value
        return out

    def normalize_settings(self, settings: object) -> dict[str, Any]:
        """The engine's full settings, or :class:`SettingsError`."""
        return self.engine.normalize_settings(settings)

    def describe_settings(self, settings: Mapping[str, Any] | None, lang: str | None) -> str:
        """The settings as one line for lists: "bule 60, refe 2"; "Hrvatska lora"."""
        settings = settings or {}
        shown = (f.describe(settings.get(f.key), lang) for f in self.settings)
        return ", ".join(text for text in shown if text)

    def papir(self, engine: PartieEngine) -> dict[str, Any] | None:
        """The engine's own paper (None: the game has only its ``result()``)."""
        return cast(KeepsPapir, engine).papir() if self.keeps_papir else None

    def shown_deal(self, engine: PartieEngine, deal_index: int) -> dict[str, Any] | None:
        """The whole ended deal (None: this game does not show ended deals)."""
        return cast(ShowsDeals, engine).shown_deal(deal_index) if self.shows_deals else None

    def contract_name(self, label: Any, settings: Mapping[str, Any] | None, lang: str | None) -> str:
        """A deal's contract as the record writes it (``result()``, a traveller's line), named
        as the partie's score sheet names it (static/js/sheets.js's S.named): a code by
        ``contract_names``, a number (counted from 1, the record's) by its place in
        ``contracts``, anything else as it is written (preferans: ``igra-pik``); "–" for none."""
        if label is None:
            return "–"
        if isinstance(label, str):
            name = self.contract_names.get(self.contract_key(label, settings or {}))
            return name(lang) if name is not None else label
        if isinstance(label, int) and not isinstance(label, bool) and 1 <= label <= len(self.contracts):
            return self.contracts[label - 1](lang)
        return str(label)

    def page_data(self, lang: str | None, settings: Mapping[str, Any] | None = None,
                  timings: Mapping[str, int] | None = None) -> dict[str, Any]:
        """What the game's scripts read from the page (``#klub-game``); with a partie's
        ``settings``, each of its contracts' hint and rules section (``contract_help``);
        ``timings``: the Club's own values of some of the game's ``timings``."""
        data: dict[str, Any] = {
            "code": self.code, "name": self.name(lang), "seats": self.seats,
            "contracts": [c(lang) for c in self.contracts],
            "contract_names": {code: name(lang) for code, name in self.contract_names.items()},
            "rules_url": f"/rules/{self.code}",
            "deal_noun": self.deal_noun(lang),
            "deal_previous": self.deal_previous(lang), "deal_next": self.deal_next(lang),
            "timings": {name: (timings or {}).get(name, ms) for name, ms in self.timings.items()},
            "analysis_other_units": {unit: list(ids) for unit, ids in self.analysis_other_units.items()},
        }
        if settings is not None:
            data["contract_help"] = {key: {"hint": hint(lang), "anchor": anchor}
                                     for key, (hint, anchor) in self.contract_help(settings).items()}
        return data


__all__ = ["CHOICE", "FLAG", "SUBSET", "Choice", "GameDescriptor", "KeepsPapir", "SettingField", "ShowsDeals", "Text",
           "TournamentRules", "catalog", "rules_pages", "same_word", "texts"]
