"""A game plugs in at one place: its descriptor. The lobby's form, the archive's filter,
the rules index, the proposal check, the table and archive pages all come from the
registry, so a new game (here a test variant, registered for the test) appears
everywhere, and nothing outside the game's packages names a game."""

from __future__ import annotations

import re

import pytest

from app.games.descriptor import GameDescriptor, SettingField, Text
from app.games.lora.descriptor import DESCRIPTOR as LORA
from app.games.lora.partie import LoraPartie
from app.games.registry import descriptors, register as register_game, unregister
from tests.support.pages import client, register  # noqa: F401 (the pages' client fixture)
from tests.support.paths import ROOT



class VariantPartie(LoraPartie):
    """Lora under another code, with a setting of its own: what a house-rule table adds."""

    game = "proba"

    @classmethod
    def normalize_settings(cls, settings: object) -> dict:
        settings = dict(settings or {}) if isinstance(settings, dict) else settings
        rounds = settings.pop("krugovi", 1) if isinstance(settings, dict) else None
        if rounds not in (1, 2):
            from app.games.base import SettingsError

            raise SettingsError(f"krugovi is 1 or 2, got {rounds!r}")
        return {**LoraPartie.normalize_settings(settings), "krugovi": rounds}


VARIANT = GameDescriptor(
    code="proba",
    name=Text("Proba", "Trial"),
    tagline=Text("probna igra", "a trial game"),
    rules_title=Text("Pravila probe", "Rules of the trial"),
    engine=VariantPartie,
    settings=(SettingField("krugovi", Text("Krugovi", "Rounds"), (1, 2), 1),),
    contracts=LORA.contracts,
    bots="lora",
    script=LORA.script,
    sheet=LORA.sheet,
    rules=LORA.rules,
    quick_start=Text("Proba protiv računara", "Trial against computer players"),
    replay_table=LORA.replay_table,
    replay_hands=LORA.replay_hands,
)


@pytest.fixture
def variant():
    register_game(VARIANT)
    yield VARIANT
    unregister(VARIANT.code)


def _every_game(client_) -> None:
    """Every registered game in the lobby's form, the archive's filter and the rules index."""
    lobby = client_.get("/lobby").text
    archive = client_.get("/archive").text
    rules = client_.get("/rules/" + descriptors()[0].code).text
    for g in descriptors():
        assert re.search(rf'name="game" value="{g.code}" data-seats="{g.seats}"', lobby), g.code
        assert g.tagline("sr-Latn") in lobby
        for f in g.settings:
            assert f'data-setting="{g.code}.{f.key}"' in lobby, (g.code, f.key)
            for c in f.options():
                assert c.label("sr-Latn") in lobby, (g.code, f.key, c.value)
        if g.quick_start:
            assert f'id="quick-{g.code}"' in lobby
        assert re.search(rf'game={g.code}[&"]', archive) and g.name("sr-Latn") in archive
        assert f'href="/rules/{g.code}"' in rules and g.rules_title("sr-Latn") in rules
        assert client_.get(f"/rules/{g.code}").status_code == 200
        assert g.rules_title("en") in client_.get(f"/rules/{g.code}?lang=en").text
    client_.get("/lang/sr-Latn")


def api_post(client_, url: str, body: dict):
    """A JSON write as an API client makes it: with the session's CSRF token."""
    from app.members.cookies import form_token

    return client_.post(url, json=body, headers={"X-CSRF-Token": form_token(client_.cookies.get("klub_session"))})


def test_every_registered_game_reaches_the_lobby_the_archive_and_the_rules(client):  # noqa: F811
    register(client, "ana")
    _every_game(client)


def test_a_new_game_appears_everywhere_and_plays(client, variant):  # noqa: F811
    register(client, "ana")
    _every_game(client)
    # proposed from the lobby's form with its own setting, played by the bots of its package
    seats = {f"seat{i}": "bot" for i in range(1, 4)} | {f"seat{i}_bot": "pocetnik" for i in range(1, 4)}
    r = client.post("/lobby/propose", data={"game": "proba", "proba.krugovi": "2", **seats}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/"), r.text
    partie_id = int(r.headers["location"].rsplit("/", 1)[1])
    summary = client.get(f"/api/parties/{partie_id}").json()
    assert summary["game"] == "proba" and summary["settings"]["krugovi"] == 2
    table = client.get(f"/table/{partie_id}").text
    assert "<title>Proba #" in table and f'src="/static/js/{VARIANT.script}?v=' in table
    assert '"contracts": ["Što više"' in table  # the descriptor's contract names reach the scripts
    listed = client.get("/archive?who=all&game=proba").text
    assert f'data-partie="{partie_id}"' in listed and "Proba" in listed
    assert f'data-partie="{partie_id}"' not in client.get("/archive?who=all&game=lora").text
    assert [p["id"] for p in client.get("/api/archive?game=proba").json()["parties"]] == [partie_id]
    # the proposal check is the descriptor's: its settings refused with the engine's reason
    refused = api_post(client, "/api/parties", {"game": "proba", "settings": {"krugovi": 3},
                                                "seats": [{"kind": "bot"}] * 3})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_settings"
    assert "krugovi" in refused.json()["error"]["message"]


def test_an_unknown_game_is_refused_everywhere(client):  # noqa: F811
    register(client, "ana")
    r = api_post(client, "/api/parties", {"game": "tablic", "seats": []})
    assert r.status_code == 422 and r.json()["error"]["code"] == "unknown_game"
    assert "lora" in r.json()["error"]["message"]  # names the games the Club plays
    form = client.post("/lobby/propose", data={"game": "tablic"})
    assert form.status_code == 422
    assert client.get("/rules/tablic").status_code == 404
    assert client.get("/api/archive?game=tablic").status_code == 422


def test_no_code_outside_the_games_branches_on_a_game_code():
    """Python, templates and scripts outside app/games, app/ai and the registry name no game
    code as a string (the descriptors carry everything)."""
    places = [*(ROOT / "app").rglob("*.py"), *(ROOT / "templates").rglob("*.html"), *(ROOT / "static/js").glob("*.js")]
    allowed = {"games", "ai"}
    found = []
    for path in places:
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "app" and rel.parts[1] in allowed:
            continue
        if rel.parts[0] == "templates" and rel.parts[1] == "rules":
            continue  # the rules pages' own text
        if rel.parts[0] == "static" and rel.name in {g.script for g in descriptors()}:
            continue  # a game's own script
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"""["'](lora|lorum|preferans)["']""", line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
