"""The texts of the pages that come from code: error codes as a member reads them, and
every text the table scripts show (translated into the page as ``#klub-strings``)."""

from __future__ import annotations

from collections.abc import Callable

from app.games.descriptor import GameDescriptor
from app.games.registry import descriptors
from app.members import passwords
from app.parties import declines
from app.web.i18n import N_, gettext_for

# The password rule (app/members/passwords.py), as the register form states it before.
PASSWORD_RULE = N_("A password has {min} to {max} characters and is not one of the most common passwords.")
# The name rule (app/members/service.py's NAME_PATTERN), as the register form states it before.
NAME_RULE = N_("A name has 3 to 32 letters, digits, '.', '_' or '-'.")
# The numbers the texts name: {min} and {max} are the password rule's.
TEXT_VALUES = {"min": passwords.MIN_LENGTH, "max": passwords.MAX_LENGTH, "reason_max": declines.MAX_REASON}

# Error codes of the services -> what a member reads.
ERROR_TEXTS = {
    "bad_credentials": N_("Wrong name or password."),
    "invalid_name": N_("A name has 3 to 32 letters, digits, '.', '_' or '-'."),
    "invalid_password": N_("The password is too short or too long: a password has {min} to {max} characters and is not one of the most common ones."),
    "name_taken": N_("That name is taken."),
    "account_disabled": N_("This account is disabled."),
    "no_such_member": N_("There is no member with that name."),
    "invalid_seats": N_("Fill every seat: a member, an open seat or a computer player (each member once)."),
    "invalid_settings": N_("Those settings are not allowed."),
    "invalid_timer": N_("The timer is off, 15 to 300 seconds, or a slow timer: 1, 3, 12 or 24 hours or 3 days per decision."),
    "not_proposed": N_("This proposal is no longer open."),
    "not_invited": N_("You are not invited to this partie."),
    "already_seated": N_("You already have a seat at this partie."),
    "no_open_seat": N_("No open seat is left."),
    "not_proposer": N_("Only the proposer may do that."),
    "no_such_partie": N_("There is no such partie."),
    "passwords_differ": N_("The two passwords differ."),
    "common_password": N_("That password is one of the most common ones; choose another: a password has {min} to {max} characters and is not one of the most common ones."),
    "too_many_attempts": N_("Too many failed logins; try again later."),
    "too_many_registrations": N_("Too many new accounts from this address; try again later."),
    "bad_csrf": N_("This form has expired; reload the page and try again."),
    "same_member": N_("Choose another member to compare with."),
    "not_finished": N_("A rematch can be asked for once the partie is over."),
    "not_a_player": N_("Only a player of this partie may ask for a rematch."),
    "admin_only": N_("Only an admin may do that."),
    "invalid_reset_link": N_("This password reset link is not valid, or it was used already."),
    "reset_link_expired": N_("This password reset link has expired; ask an admin for a new one."),
    "other_members": N_("Other members play at this table: leave it instead, a computer player takes your seat."),
    "not_running": N_("This partie is not being played."),
    "already_left": N_("A computer player already plays your seat."),
    "not_at_table": N_("You do not play at this table."),
    "not_found": N_("There is no such page."),
    "method_not_allowed": N_("This page cannot be opened that way."),
    # tournaments (app/tournaments/)
    "not_an_organizer": N_("Only the Club's admins and organizers announce tournaments."),
    "not_the_organizer": N_("Only the tournament's organizer (or an admin) may do that."),
    "not_an_admin": N_("Only an admin may do that."),
    "is_admin": N_("An admin organizes tournaments already."),
    "no_such_tournament": N_("There is no such tournament."),
    "registration_closed": N_("Registration is closed: half of the rounds have started."),
    "already_registered": N_("You are registered already."),
    "not_registered": N_("Not registered in this tournament."),
    "removed": N_("The organizer removed you from this tournament."),
    "withdrawn": N_("You withdrew from this tournament; a withdrawal is for good."),
    "tournament_over": N_("This tournament is over."),
    "no_round_left": N_("No round is left to start."),
    "round_running": N_("The round is still being played."),
    "already_paused": N_("The tournament is paused already."),
    "not_paused": N_("The tournament is not paused."),
    "invalid_format": N_("The format is duplicate or Swiss."),
    "invalid_rounds": N_("A tournament has 1 to 15 rounds."),
    "invalid_round_length": N_("A round lasts 5 to 1440 minutes."),
    "invalid_pause": N_("The pause between rounds is 0 to 1440 minutes."),
    "invalid_seeding": N_("Round 1 is seated at random or by rating."),
    "invalid_start": N_("The start is a date and a time, not in the past."),
    "invalid_place_points": N_("Place points are numbers, one per place, first place first, never more for a worse place."),
    "invalid_hands": N_("The hands of a round are a whole number (preferans: a multiple of 3)."),
    "no_such_round": N_("That round has not started."),
    "no_such_board": N_("That round has no such deal."),
    "tournament_table_hidden": N_("A tournament table is open only to its players until its round ends."),
    "tournament_table": N_("A tournament table is played to its end; leave it instead, a computer player takes your seat."),
    # slow parties (app/parties/slow.py)
    "invalid_bank": N_("The time bank is whole hours, at most a week."),
    "invalid_slow_options": N_("A time bank and weekends off go with a slow timer (an hour or more per decision)."),
    "too_many_slow": N_("That is more slow parties at once than the Club allows; finish one first."),
    "invalid_holiday": N_("A holiday ends in the future."),
    "not_enough_vacation": N_("Not enough vacation left this year for that holiday."),
    "not_on_holiday": N_("You are not on holiday."),
    "not_timed_out": N_("In a slow partie a seat goes to a computer player only after three timed-out decisions."),
    "not_reclaimable": N_("Your seat was not handed to a computer player by the others; there is nothing to take back."),
    # bot accounts (app/bots/)
    "no_such_bot": N_("There is no bot with that name."),
    "bot_offline": N_("That bot is not online now (its program is not connected): challenge it when it is, or invite it from the lobby."),
    "invalid_reason": N_("A reason is one line of at most {reason_max} characters."),
    "too_many_bots": N_("You have as many bots as a member may have."),
    "too_many_tokens": N_("This bot has as many tokens as it may have; revoke one first."),
    "invalid_scopes": N_("Choose at least one scope for the token."),
    "invalid_token_days": N_("A token is valid for 1 to 365 days."),
    "invalid_label": N_("A token's label has at most 40 characters."),
    "no_such_token": N_("There is no such token."),
    "bots_own_no_bots": N_("A bot cannot own bots."),
    "is_a_bot": N_("That is a bot account."),
    "own_bot_at_table": N_("Fair play: a bot never sits at a table (or in a tournament) with its owner, nor with another bot of his."),
    "own_bot_table": N_("Your bot plays at this table: you can watch it once the partie is over."),
    "bots_not_allowed": N_("This tournament does not allow bots."),
    "chat_rate_limited": N_("Too many chat messages in a minute; wait a little."),
    "unavailable": N_("The server cannot reach its database for a moment; try again in a few seconds."),  # app/db/outage.py: a 503
}

# The error frames of a table socket (app/tables/ws.py) as a member reads them; the page
# carries them as "error:<code>" (table.js shows the server's English text for others).
TABLE_ERROR_TEXTS = {
    "stale_version": N_("The table moved on before your move arrived; look again."),
    "not_your_turn": N_("It is not your turn."),
    "illegal_action": N_("That move is not allowed now."),
    "seat_taken_over": N_("A computer player plays your seat now."),
    "not_running": N_("This partie is not being played."),
    "not_a_player": N_("You do not play at this table."),
    "rate_limited": N_("Too many moves at once; slow down."),
    "invalid_chat": N_("That message cannot be sent."),
    "bad_frame": N_("The server did not understand that message."),
    "bad_json": N_("The server did not understand that message."),
    "unknown_type": N_("The server did not understand that message."),
    "frame_too_large": N_("The server did not understand that message."),
    "action_id_reused": N_("The server did not understand that message."),
    "own_bot_table": N_("Your bot plays at this table: you can watch it once the partie is over."),
    "unavailable": N_("The server cannot reach its database for a moment; try again in a few seconds."),
}

# The texts of the notices every member's page shows (static/js/notices.js), sent with
# every page of a member as ``#klub-notice-strings``.
NOTICE_STRINGS = [
    N_("{by} invites you to {game} #{partie}"), N_("{by} asks for a rematch: {game} #{partie}"),
    N_("{by} accepted your proposal: {game} #{partie}"), N_("{by} declined your proposal: {game} #{partie}"),
    N_("{by} took a seat at your proposal: {game} #{partie}"), N_("{game} #{partie} has started"),
    N_("Your turn: {game} #{partie}"), N_("Waiting for you: {n}"), N_("Accept"), N_("Decline"),
    N_("To the table"), N_("Lobby"), N_("Close"), N_("Error"), N_("Rematch"),
    N_("{game} #{partie} has ended"), N_("Score sheet and replay"),
    N_("{name}: round {round} has begun, your table is #{partie}"), N_("in {n} min"),
    N_("Reminder: {game} #{partie} waits for your move, your time is running out"),
    N_("{name} begins in {minutes} min"), N_("To the evening"),  # a league's evening (app/leagues/reminders.py)
    # the header's bell: push notices on this device (static/js/push.js)
    N_("Notices on this device: on"), N_("Notices on this device: off"),
    N_("Notices are blocked in this browser's settings"), N_("Notices could not be switched on"),
    # why switching them on failed (issue 39)
    N_("Notices are blocked in this browser's settings: allow them for this site, then click the bell again."),
    N_("You did not allow notices; click the bell to be asked again."),
    N_("Notices need a secure connection (HTTPS); this page is not served over one."),
    N_("This browser cannot receive push notices."),
    N_("The Club's server could not switch notices on (error {status}); try again later."),
    N_("The browser's push service refused to subscribe ({error}); try again later."),
]

# Every text the Club's table scripts show, translated into the page (``#klub-strings``);
# a game's own scripts' texts are its descriptor's ``texts`` (app/games/<game>/texts.py).
JS_STRINGS = [
    N_("Your turn"), N_("Reconnecting…"), N_("Waiting for the players"), N_("No deals yet."),
    N_("away"), N_("computer"), N_("online"), N_("tricks"),
    N_("Total"), N_("Place"), N_("The partie is over"), N_("The partie was ended before its end"),
    N_("dalje"), N_("The trick goes to {name}"),
    N_("Score sheet"), N_("Sound on"), N_("Sound off"),
    N_("Škart"),
    N_("seconds left"), N_("Hand over to a computer player"), N_("agreed"), N_("Error"),
    N_("Deal {n} of 28"),
    N_("Step"), N_("Start"), N_("Back"), N_("Forward"), N_("End"),
    N_("Previous deal"), N_("Next deal"), N_("Loading…"),
    N_("Deal"), N_("The sheet after deal {n}"), N_("Replay from the first deal"),
    N_("open"), N_("invited"), N_("declined"),
    N_("Your session has ended."),
    N_("to act"), N_("You are watching"), N_("You"),
    N_("You have too many table windows open. Close one of them; trying again in {n} seconds."),
    # the table: the turn and words out of turn, away seats, the last trick, chat
    N_("may speak"), N_("{name} is to act"), N_("you may make an offer meanwhile"),
    N_("{name} is away; the table waits for him"), N_("{n} of {m} agreed to a computer player"),
    N_("Chat"), N_("Chat: {n} unread"),
    # a decision whose time ran out, said by the computer; who watches the table
    N_("Time ran out: the computer said “{word}” for {name}"),
    N_("Time ran out: the computer played {word} for {name}"), N_("Watching ({n}): {names}"),
    # a tournament round's deadline passed (rulings T3)
    N_("The round's time is up: the computer finishes the partie"),
    # a bot account's seat (app/bots/)
    N_("{name} (bot of {owner})"),
    # suits and ranks
    N_("spades"), N_("diamonds"), N_("hearts"), N_("clubs"), N_("ace"), N_("king"), N_("queen"), N_("jack"),
    N_("of"),
    # the final reckoning (the archive), the side panel on a phone
    N_("Final reckoning"),
    N_("Back to the table"),
    # a void deal (Libyan Lora) dealt again
    N_("void: dealt again"),
    # the replay's analysis of a deal
    N_("Analysis"), N_("Computing…"), N_("Try again"), N_("Player"), N_("Played"), N_("Best"), N_("Points lost"),
    N_("Points lost in this deal"), N_("Big mistake"), N_("not analysed"), N_("No decision with a choice in this deal."),
    N_("The analysis sees every hand. Points lost: what the best card would have saved the player (lower is better); the biggest mistakes are marked."),
    N_("Chips lost"), N_("Chips lost in this deal"),
    N_("Computer {name}"),
    N_("The analysis sees every hand. Chips lost: what the best card would have saved the player (lower is better); the biggest mistakes are marked."),
    N_("Tricks lost"), N_("Tricks lost in this deal"),
    N_("The analysis sees every hand. Tricks lost: the declarer's tricks the best card would have won (or, defending, kept from him); the biggest mistakes are marked."),
    N_("Analysis of deal {n}"), N_("pts."), N_("points of the result"),
    # a slow partie's clocks (static/js/slow.js)
    N_("{d} d {h} h"), N_("{d} d"), N_("{h} h {m} min"), N_("{h} h"), N_("{m} min"),
    N_("{time} to decide"), N_("bank {time}"), N_("vacation {n} h"), N_("stands still"),
    N_("timed out: {n}"),
    # why a slow clock stands, and until when (issue 39)
    N_("weekend until Monday 00:00"), N_("{name} is on holiday until {date}"), N_(", then "),
    # a computer player's mark, a bot's chat muted (issue 39)
    N_("Mute"), N_("Unmute"), N_("Mute the chat of {name}"), N_("The chat of {name} is muted."),
    *NOTICE_STRINGS,
]

# The slow timers a proposal may choose (app/parties/slow.py, SLOW_TIMERS), as the form names them.
SLOW_TIMER_NAMES = {3600: N_("1 hour"), 10800: N_("3 hours"), 43200: N_("12 hours"), 86400: N_("24 hours"),
                    259200: N_("3 days")}


def duration_text(_: Callable[[str], str], seconds: int | float | None) -> str:
    """A time left as the pages write it: "2 d 3 h", "5 h 10 min", "12 min" (as slow.js does)."""
    s = max(0, int(seconds or 0))
    d, h, m = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if d:
        return _("{d} d {h} h").format(d=d, h=h) if h else _("{d} d").format(d=d)
    if h:
        return _("{h} h {m} min").format(h=h, m=m) if m else _("{h} h").format(h=h)
    return _("{m} min").format(m=m)


def timer_text(_: Callable[[str], str], seconds: int | None) -> str:
    """A partie's timer: "60 s", or a slow one's name ("12 hours")."""
    if not seconds:
        return ""
    return _(SLOW_TIMER_NAMES[seconds]) if seconds in SLOW_TIMER_NAMES else f"{seconds} s"


def error_text(_: Callable[[str], str], code: str, fallback: str | None = None) -> str:
    """What a member reads of an error code, in the language of ``_`` (``fallback``: unknown codes)."""
    return _(ERROR_TEXTS[code]).format(**TEXT_VALUES) if code in ERROR_TEXTS else (fallback or code)


def password_rule(_: Callable[[str], str]) -> str:
    return _(PASSWORD_RULE).format(**TEXT_VALUES)


def notice_strings(lang: str) -> dict[str, str]:
    _ = gettext_for(lang)
    return {s: _(s) for s in NOTICE_STRINGS}


# A word of the record notation is written without its diacritics (``moze``); every
# language shows it as it is said, where the catalog does not translate it.
WORDS_SHOWN = {"word:moze": "word:može"}


def js_strings(lang: str, game: GameDescriptor | None = None) -> dict[str, str]:
    """The texts of the scripts in ``lang``: the Club's catalog, and the game's own
    (``GameDescriptor.texts``) on the pages of one game."""
    _ = gettext_for(lang)
    strings = {s: _(s) for s in JS_STRINGS}
    if game is not None:
        strings.update({key: text(lang) for key, text in game.texts.items()})
    strings.update({w: shown for w, shown in WORDS_SHOWN.items() if strings.get(w, w) == w})
    strings.update({f"error:{code}": _(text) for code, text in TABLE_ERROR_TEXTS.items()})
    return strings


def game_names_text(lang: str) -> str:
    """The Club's games as a sentence names them: "Lora, Lórum i Preferans"."""
    _ = gettext_for(lang)
    names = [g.name(lang) for g in descriptors()]
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1]) if len(names) > 1 else names[0]
