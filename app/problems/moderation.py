"""A member flags a problem he finds wrong (once); an admin hides it, or shows it again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.db.models.problems import Problem, ProblemFlag
from app.errors import Conflict, Forbidden, Invalid, NotFound
from app.members.service import CurrentMember
from app.problems.solving import check_solver, visible

if TYPE_CHECKING:
    from app.club import Club

MAX_REASON = 500


def flag(club: Club, member: CurrentMember, problem_id: int, reason: object = "") -> dict[str, Any]:
    """Flag a visible problem: 409 ``already_flagged`` the second time (nothing changes)."""
    check_solver(member)
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or len(reason) > MAX_REASON or "\x00" in reason:
        raise Invalid(f"reason is a text of at most {MAX_REASON} characters", code="invalid_reason")
    try:
        with club.db.write() as s:
            problem = visible(s, problem_id)
            if s.get(ProblemFlag, (member.id, problem_id)) is not None:
                raise Conflict("you have flagged this problem already", code="already_flagged")
            s.add(ProblemFlag(member_id=member.id, problem_id=problem_id, reason=reason.strip(),
                              created_at=club.clock.now()))
            problem.flags += 1
            s.flush()
            return {"problem": problem_id, "flags": problem.flags}
    except IntegrityError:
        raise Conflict("you have flagged this problem already", code="already_flagged") from None


def _check_admin(member: CurrentMember) -> None:
    if not member.is_admin:
        raise Forbidden("only an admin may do that", code="admin_only")


def set_hidden(club: Club, admin: CurrentMember, problem_id: int, hidden: object) -> dict[str, Any]:
    _check_admin(admin)
    if not isinstance(hidden, bool):
        raise Invalid("hidden is true or false", code="invalid_hidden")
    with club.db.write() as s:
        problem = s.get(Problem, problem_id)
        if problem is None:
            raise NotFound(f"no problem {problem_id}", code="no_such_problem")
        problem.hidden = hidden
        return {"problem": problem_id, "hidden": hidden}


def flagged(club: Club, admin: CurrentMember, limit: int = 100) -> list[dict[str, Any]]:
    """The flagged problems, most flags first, with their reasons (admins)."""
    _check_admin(admin)
    with club.db.read() as s:
        problems = s.scalars(select(Problem).where(Problem.flags > 0)
                             .order_by(Problem.flags.desc(), Problem.id).limit(max(1, min(limit, 500)))).all()
        out = []
        for p in problems:
            reasons = [r for r in s.scalars(select(ProblemFlag.reason).where(ProblemFlag.problem_id == p.id)) if r]
            out.append({"problem": p.id, "game": p.game, "flags": p.flags, "hidden": p.hidden, "reasons": reasons,
                        "partie": p.partie_id, "deal": p.deal_index, "step": p.step})
        return out
