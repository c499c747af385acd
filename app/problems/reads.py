"""The problems' reads: a member's history and streak, the problem of the day, the themes
to filter by."""

from __future__ import annotations

import hashlib
from datetime import date, datetime, time, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from app.db.models import Member
from app.db.models.problems import Problem, ProblemAttempt, ProblemRating
from app.errors import NotFound
from app.games.registry import descriptor

if TYPE_CHECKING:
    from app.club import Club

HISTORY_MAX = 200


def summary(club: Club, member_id: int) -> dict[str, Any] | None:
    """A member's rating, answers, best answers and streaks (None: he has answered none)."""
    with club.db.read() as s:
        row = s.get(ProblemRating, member_id)
        if row is None:
            return None
        return {"rating": round(row.rating), "deviation": round(row.deviation), "attempts": row.attempts,
                "solved": row.solved, "streak": row.streak, "best_streak": row.best_streak}


def history(club: Club, member_id: int, limit: int = 50, lang: str | None = None) -> dict[str, Any]:
    """The member's answers, newest first, with his summary."""
    limit = max(1, min(limit, HISTORY_MAX))
    key = "en" if lang == "en" else "sr"
    with club.db.read() as s:
        rows = s.execute(select(ProblemAttempt, Problem).join(Problem, Problem.id == ProblemAttempt.problem_id)
                         .where(ProblemAttempt.member_id == member_id)
                         .order_by(ProblemAttempt.created_at.desc(), ProblemAttempt.problem_id.desc())
                         .limit(limit)).all()
        answers = [{"problem": p.id, "game": p.game, "game_name": descriptor(p.game).name(lang),
                    "theme": p.theme, "theme_name": p.data["theme_name"][key], "word": a.word, "best": p.best,
                    "correct": a.correct, "rating_before": round(a.rating_before), "rating_after": round(a.rating_after),
                    "at": a.created_at.isoformat(), "hidden": p.hidden} for a, p in rows]
    return {"summary": summary(club, member_id), "answers": answers}


def history_of(club: Club, name: str, limit: int = 20, lang: str | None = None) -> dict[str, Any]:
    """A member's history by his name (his profile); 404 for no such member."""
    with club.db.read() as s:
        member_id = s.scalar(select(Member.id).where(Member.name_key == name.lower()))
    if member_id is None:
        raise NotFound(f"no member named {name[:40]!r}", code="no_such_member")
    return history(club, member_id, limit, lang)


def day_index(day: date, count: int) -> int:
    """The day's problem among ``count``: the same all day for everyone."""
    digest = hashlib.sha256(f"klub-zadatak-{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count


def problem_of_the_day(club: Club, day: date | None = None) -> dict[str, Any] | None:
    """The day's problem (id, game, question in both languages, theme), None while there are
    none: drawn by the date among the visible problems mined before the day began (so it
    stays the day's as parties end; while there are none, among all)."""
    day = day or club.clock.now().date()
    start = datetime.combine(day, time.min, tzinfo=timezone.utc)
    with club.db.read() as s:
        where = [Problem.hidden.is_(False), Problem.created_at < start]
        count = s.scalar(select(func.count()).select_from(Problem).where(*where)) or 0
        if not count:
            where = where[:1]
            count = s.scalar(select(func.count()).select_from(Problem).where(*where)) or 0
        if not count:
            return None
        p = s.scalars(select(Problem).where(*where).order_by(Problem.id)
                      .offset(day_index(day, count)).limit(1)).first()
        if p is None:
            return None
        return {"id": p.id, "game": p.game, "theme": p.theme, "date": day.isoformat(),
                "question": p.data["question"], "theme_name": p.data["theme_name"], "rating": round(p.rating)}


def themes(club: Club, lang: str | None = None) -> list[dict[str, Any]]:
    """The games and themes that have visible problems, with how many."""
    key = "en" if lang == "en" else "sr"
    with club.db.read() as s:
        rows = s.execute(select(Problem.game, Problem.theme, func.count(), func.min(Problem.id))
                         .where(Problem.hidden.is_(False)).group_by(Problem.game, Problem.theme)
                         .order_by(Problem.game, Problem.theme)).all()
        names = {pid: s.get(Problem, pid).data["theme_name"][key] for _, _, _, pid in rows}  # type: ignore[union-attr]
    return [{"game": g, "game_name": descriptor(g).name(lang), "theme": t, "theme_name": names[pid], "count": n}
            for g, t, n, pid in rows]
