"""Issue 39, item 7: English pages have no Serbian word left. A member who reads the Club in
English walks its pages (the lobby, lists, rules, his account and profile, a running and a
finished table of each game and their archive pages) and every text he sees or hears (the
visible text, titles, labels, placeholders) is checked against the Club's Serbian words,
and every word with a Serbian letter must be a name (the computer players') or the games'
own vocabulary as the English rules pages use it (škart, Žandar, ...)."""

from __future__ import annotations

import re

from app.games.registry import descriptors
from app.parties.lookup import BOT_NAMES
from tests.support.archive import member, seed_partie, server  # noqa: F401
from tests.support.ui import close_watched, watched_page

# Words of the Club's own Serbian texts that an English page must not show.
SERBIAN = ("Revanš", "revanš", "Računar", "računar", "Predvorje", "Arhiva", "Pravila", "Nalog", "Odjava",
           "Razgovor", "Poslednji štih", "Tabela", "Deljenje", "Pošalji", "Izazovi", "Prihvati", "Odbij",
           "Na potezu", "na potezu", "Vi ste", "Rang-lista", "Turniri", "Lige", "Zadaci", "Obaveštenja",
           "Zvuk", "vikend", "odmoru", "Utišaj", "Šta znače", "delilac", "štihovi", "Rezultat", "Mesto",
           "Ukupno", "Partija", "partija", "Igrači", "Igra ", "Korak", "Nazad", "Napred", "Početak", "Kraj")
LETTERS = re.compile(r"\w*[čćžšđČĆŽŠĐ]\w*")
SEEN = """() => [document.body.innerText, ...[...document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')]
  .map((e) => [e.title, e.getAttribute('aria-label'), e.placeholder, e.getAttribute('alt')].filter(Boolean).join(' '))].join(' ')"""


def stopped_early(engine) -> bool:
    return engine.deal_index >= 1 and 0 in engine.seats_to_act()


def test_english_pages_have_no_serbian_word_left(browser, server, member):  # noqa: F811
    pg = watched_page(browser, cookies=member[1])
    pg.goto(f"{server.url}/lang/en?next=/lobby")
    pg.wait_for_url("**/lobby")
    finished: list[str] = []  # a finished partie's table offers the rematch
    pages = ["/lobby", "/archive", "/standings", "/tournaments", "/leagues", "/bots", "/account", f"/members/{member[0]}", "/"]
    for d in descriptors():
        settings = {"bule": 30, "refe": 1} if d.code == "preferans" else {}
        running = seed_partie(server, member[0], d.code, settings, stop=stopped_early, seed=f"english-{d.code}")
        done = seed_partie(server, member[0], d.code, settings, seed=f"english-done-{d.code}")
        pages += [f"/table/{running['id']}", f"/table/{done['id']}", f"/archive/{running['id']}", f"/archive/{done['id']}"]
        finished.append(f"/table/{done['id']}")
    # the games' vocabulary: the words with Serbian letters its English rules pages use
    vocabulary = set()
    for d in descriptors():
        pg.goto(f"{server.url}/rules/{d.code}")
        vocabulary |= set(LETTERS.findall(pg.evaluate(SEEN)))
    names = {n for level in BOT_NAMES.values() for n in level}
    left: dict[str, set[str]] = {}
    for path in pages:
        pg.goto(server.url + path)
        pg.wait_for_load_state("networkidle")
        if path.startswith("/table/"):
            pg.wait_for_function("() => window.Klub && Klub.table && Klub.table.renders > 0")
            if path in finished:  # the ended table's rematch comes with the final reckoning
                pg.wait_for_selector('form[action$="/rematch"]')
        elif path.startswith("/archive/"):
            pg.wait_for_selector("#replay .replay-title, #replay .replay-hand, #sheet table, #sheet .paper")
        seen = pg.evaluate(SEEN)
        assert "Log out" in seen, path  # the page is in English
        if path in finished:
            assert "Rematch" in seen, path
        found = {w for w in SERBIAN if w in seen} | (set(LETTERS.findall(seen)) - vocabulary - names)
        if found:
            left[path] = found
    assert not left, left
    close_watched(pg)
