"""The Club's tables, one module per domain; every model is imported from here
(``from app.db.models import Member``), and alembic's ``migrations/env.py`` takes
``Base.metadata`` from here, with every table on it.

The append-only ``actions`` log (one row per applied word, numbered per partie) is the
source of truth of every table; ``parties.version`` is the number of its rows, and the
state is the replay of ``parties.seed`` + the log (app/db/models/parties.py).
"""

from __future__ import annotations

from app.db.models.base import NAMING, Base
from app.db.models.members import LoginFailure, LoginSession, Member, PasswordReset
from app.db.models.bots import BotToken
from app.db.models.parties import Action, ChatMessage, ChatMute, DealAnalysis, ImportedRecord, Partie, PartieSeat
from app.db.models.ratings import Rating, RatingEvent
from app.db.models.tournaments import Tournament, TournamentPlayer, TournamentRound
from app.db.models.leagues import League, LeagueEvening, LeagueMember, LeagueOrganizer, LeagueReminder, LeagueSkip
from app.db.models.push import PushKey, PushMessage, PushSubscription
from app.db.models.problems import Problem, ProblemAttempt, ProblemFlag, ProblemRating, ProblemSource

__all__ = [
    "NAMING", "Base",
    "Member", "LoginSession", "PasswordReset", "LoginFailure",
    "BotToken",
    "Partie", "PartieSeat", "Action", "ChatMessage", "ChatMute", "ImportedRecord", "DealAnalysis",
    "Rating", "RatingEvent",
    "Tournament", "TournamentPlayer", "TournamentRound",
    "League", "LeagueMember", "LeagueSkip", "LeagueEvening", "LeagueOrganizer", "LeagueReminder",
    "PushSubscription", "PushMessage", "PushKey",
    "Problem", "ProblemSource", "ProblemRating", "ProblemAttempt", "ProblemFlag",
]
