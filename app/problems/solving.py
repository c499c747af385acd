"""Solving: a member gets a problem near his rating, answers it once, and both ratings
move by Glicko-2 (:mod:`app.problems.glicko`).

A problem shows its position and question, never its answer; the answer tells whether the
word was the best, every choice's value against the best's (0: the best), the line's next
step and the deal's replay. Only the first answer to a problem counts (a second one is
told its verdict, ``counted`` false, and changes nothing). Bot accounts do not solve
(403 ``bots_may_not_solve``). A hidden problem is given to no one.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sqlalchemy import exists, func, select
from sqlalchemy.exc import IntegrityError

from app.db.models.problems import Problem, ProblemAttempt, ProblemRating
from app.errors import Forbidden, Invalid, NotFound
from app.games.base import GameError
from app.games.problems import UNITS
from app.games.registry import descriptor
from app.members.service import CurrentMember
from app.problems.glicko import Glicko, answer as rate_answer

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from app.club import Club

BOT_ROLE = "bot"
NEAREST = 12  # the next problem is drawn from this many unanswered ones nearest the member's rating
MAX_THEME = 32
MAX_WORD = 64


def check_solver(member: CurrentMember) -> None:
    if member.role == BOT_ROLE:
        raise Forbidden("bot accounts may not solve problems; the problems are for members",
                        code="bots_may_not_solve")


def check_filters(game: str | None, theme: str | None) -> tuple[str | None, str | None]:
    """The filters as given, or 422 for a game without problems or a theme too long."""
    if game:
        try:
            d = descriptor(game)
        except GameError:
            raise Invalid(f"no game {game[:32]!r}", code="unknown_game") from None
        if d.problems is None:
            raise Invalid(f"{d.name('en')} has no problems", code="unknown_game")
    if theme and (len(theme) > MAX_THEME or not theme.isprintable()):
        raise Invalid(f"a theme has at most {MAX_THEME} printable characters", code="invalid_theme")
    return game or None, theme or None


def member_rating(s: Session, member_id: int) -> Glicko:
    row = s.get(ProblemRating, member_id)
    return Glicko(row.rating, row.deviation, row.volatility) if row is not None else Glicko()


def next_problem(club: Club, member: CurrentMember, game: str | None = None, theme: str | None = None,
                 lang: str | None = None, rng: random.Random | None = None) -> dict[str, Any]:
    """An unanswered problem near the member's rating (404 ``no_problem`` when none is left)."""
    check_solver(member)
    game, theme = check_filters(game, theme)
    with club.db.read() as s:
        rating = member_rating(s, member.id).rating
        stmt = select(Problem).where(Problem.hidden.is_(False), ~exists().where(
            ProblemAttempt.problem_id == Problem.id, ProblemAttempt.member_id == member.id))
        if game:
            stmt = stmt.where(Problem.game == game)
        if theme:
            stmt = stmt.where(Problem.theme == theme)
        near = list(s.scalars(stmt.order_by(func.abs(Problem.rating - rating), Problem.id).limit(NEAREST)))
        if not near:
            raise NotFound("there is no problem left for you with these filters", code="no_problem")
        return public(near[(rng or random).randrange(len(near))], lang)


def get_problem(club: Club, member: CurrentMember, problem_id: int, lang: str | None = None) -> dict[str, Any]:
    check_solver(member)
    with club.db.read() as s:
        problem = visible(s, problem_id)
        out = public(problem, lang)
        attempt = s.get(ProblemAttempt, (member.id, problem_id))
        if attempt is not None:  # answered before: the verdict comes along
            out["answered"] = verdict(problem, attempt.word, lang)
        return out


def visible(s: Session, problem_id: int) -> Problem:
    problem = s.get(Problem, problem_id)
    if problem is None or problem.hidden:
        raise NotFound(f"no problem {problem_id}", code="no_such_problem")
    return problem


def public(p: Problem, lang: str | None) -> dict[str, Any]:
    """What the member sees before answering: the position and the question, not the answer."""
    d = p.data
    key = "en" if lang == "en" else "sr"
    return {
        "id": p.id, "game": p.game, "theme": p.theme, "theme_name": d["theme_name"][key],
        "question": d["question"][key], "seat": p.seat, "players": d["players"], "settings": d["settings"],
        "choices": [w for w in d["legal"] if w in d["values"]], "position": d["position"],
        "rating": round(p.rating), "attempts": p.attempts, "deal": p.deal_index,
    }


def verdict(p: Problem, word: str, lang: str | None) -> dict[str, Any]:
    """The answer's verdict: every choice's value against the best (0: the best; more: worse)."""
    values: dict[str, float] = p.data["values"]
    low = values[p.best]
    unit = UNITS.get(p.unit)
    game = descriptor(p.game)
    if game.problems is not None and p.unit in game.problems.units:
        unit = game.problems.units[p.unit]
    return {
        "problem": p.id, "word": word, "best": p.best, "correct": word == p.best,
        "lost": round(values[word] - low, 2), "unit": p.unit, "unit_name": unit(lang) if unit else p.unit,
        "values": {w: round(v - low, 2) for w, v in values.items()},
        "line": p.data.get("line") or [[p.seat, p.best]], "played": p.played,
        "replay": f"/archive/{p.partie_id}#deal={p.deal_index + 1}&step={max(0, p.step - 1)}",
    }


def answer(club: Club, member: CurrentMember, problem_id: int, word: object, lang: str | None = None) -> dict[str, Any]:
    """Take the member's word: the verdict, with ``counted`` (the first answer only) and
    his rating before and after. 404 for a problem he may not see, 422 for a word that is
    not one of its choices; neither changes anything."""
    check_solver(member)
    if not isinstance(word, str) or not word or len(word) > MAX_WORD:
        raise Invalid("word is one of the problem's choices", code="invalid_word")
    with club.db.read() as s:
        problem = visible(s, problem_id)
        if word not in problem.data["values"]:
            raise Invalid(f"{word[:MAX_WORD]!r} is not one of this problem's choices", code="not_a_choice",
                          choices=[w for w in problem.data["legal"] if w in problem.data["values"]])
        out = verdict(problem, word, lang)
    try:
        with club.db.write() as s:
            out.update(_count(club, s, member.id, problem_id, word, out["correct"]))
    except IntegrityError:  # the same answer twice at once: the other one counted
        out.update(counted=False)
    return out


def _count(club: Club, s: Session, member_id: int, problem_id: int, word: str, correct: bool) -> dict[str, Any]:
    row = s.get(ProblemRating, member_id)
    if s.get(ProblemAttempt, (member_id, problem_id)) is not None:
        rating = row.rating if row is not None else Glicko().rating
        return {"counted": False, "rating": {"before": round(rating), "after": round(rating)},
                "streak": row.streak if row is not None else 0}
    problem = s.get(Problem, problem_id, with_for_update=True)
    assert problem is not None
    before = Glicko(row.rating, row.deviation, row.volatility) if row is not None else Glicko()
    member_after, problem_after = rate_answer(before, Glicko(problem.rating, problem.deviation, problem.volatility),
                                              correct)
    now = club.clock.now()
    if row is None:
        row = ProblemRating(member_id=member_id, attempts=0, solved=0, streak=0, best_streak=0)
        s.add(row)
    row.rating, row.deviation, row.volatility = member_after.rating, member_after.deviation, member_after.volatility
    row.attempts += 1
    row.solved += int(correct)
    row.streak = row.streak + 1 if correct else 0
    row.best_streak = max(row.best_streak, row.streak)
    row.updated_at = now
    problem.rating, problem.deviation = problem_after.rating, problem_after.deviation
    problem.volatility = problem_after.volatility
    problem.attempts += 1
    problem.solved += int(correct)
    s.add(ProblemAttempt(member_id=member_id, problem_id=problem_id, word=word, correct=correct,
                         rating_before=before.rating, rating_after=member_after.rating, created_at=now))
    s.flush()
    return {"counted": True, "rating": {"before": round(before.rating), "after": round(member_after.rating)},
            "streak": row.streak}
