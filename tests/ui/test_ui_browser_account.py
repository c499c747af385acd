"""A member's account in a real browser (issue 23, item 6): the password changed on the
account page logs his other browser out and keeps this one; an admin's reset link, made on
the admin's account page, sets a new password once, and ends the member's sessions."""

from __future__ import annotations

import pytest

from tests.support.browser import log_in, register
from tests.support.ui import PASSWORD, close_watched, own_server, watched_page

NEW = "nova-lozinka-42"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from own_server(tmp_path_factory, "account")


def logged_out(pg, server) -> bool:
    """Whether the page's session has ended: the lobby sends it to the login form."""
    pg.goto(server.url + "/lobby")
    pg.wait_for_load_state()
    return "/login" in pg.url


def test_changing_the_password_logs_the_other_browser_out(browser, server):  # noqa: F811
    here = watched_page(browser)
    name = register(here, server, "lozinka")
    there = watched_page(browser)
    log_in(there, server, name, PASSWORD)
    here.click("header a.account-link")
    here.wait_for_url("**/account")
    here.fill("input[name=old_password]", PASSWORD)
    here.fill("input[name=new_password]", NEW)
    here.fill("input[name=new_password2]", NEW)
    here.click("#password-form button[type=submit]")
    here.wait_for_selector("#password-changed")
    assert logged_out(there, server)
    assert not logged_out(here, server)
    # the new password opens the Club, the old one no longer
    log_in(there, server, name, NEW)
    close_watched(there)
    close_watched(here)


def test_an_admin_reset_link_sets_a_new_password_once(browser, server):  # noqa: F811
    from app.db import Database
    from app.members.service import ensure_admin

    db = Database(server.db_url)
    ensure_admin(db, "upravnik", "upravnik-lozinka-1")
    db.write_engine.dispose()
    member = watched_page(browser)
    name = register(member, server, "zaboravni")
    admin = watched_page(browser)
    log_in(admin, server, "upravnik", "upravnik-lozinka-1")
    admin.goto(server.url + "/account")
    admin.fill("#reset-form input[name=name]", name)
    admin.click("#reset-form button[type=submit]")
    link = admin.input_value("#reset-link")
    assert link.startswith(server.url + "/reset/")
    close_watched(admin)
    # the member, in another browser, follows the link
    other = watched_page(browser)
    other.goto(link)
    assert name in other.inner_text("h1")
    other.fill("input[name=new_password]", NEW)
    other.fill("input[name=new_password2]", NEW)
    other.click("#reset-password-form button[type=submit]")
    other.wait_for_selector("#reset-done")
    assert other.input_value("input[name=name]") == name
    other.fill("input[name=password]", NEW)
    other.click("#auth-form button[type=submit]")
    other.wait_for_url("**/lobby")
    # his old session ended; the link is used up
    assert logged_out(member, server)
    member.goto(link)
    assert "nije važeća" in member.inner_text("p.error")
    close_watched(member)
    close_watched(other)
