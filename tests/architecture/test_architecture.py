"""The shape of the code (docs/architecture.md): the packages stand on floors, and every
run-time import goes to the module's own package or to an allowed lower one; no module
imports itself back through others; no module is over 400 lines but the listed ones."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT

APP = ROOT / "app"

# The floors, lowest first. A package may import its own modules and the packages of the
# floors below its own, nothing of its floor's other packages and nothing above.
BASE = ("config", "clock", "watchers", "errors", "db", "responses", "zones", "realtime", "gcpauses", "logs")
TOP = ("club", "deps", "cli", "__main__", "web")  # the composition root and the HTTP layer
FLOORS: list[tuple[str, ...]] = [
    ("base",),  # app/config.py, app/clock.py, ... app/db, app/realtime: the BASE above
    ("games",),
    ("ai",),
    ("members",),
    ("parties",),
    ("tables",),
    ("ratings", "tournaments"),
    ("bots", "push", "analysis", "profiles", "leagues"),
    ("problems",),  # needs app/analysis (floor 7)
    ("top",),  # app/club.py, app/deps.py, app/cli.py, app/__main__.py, app/web: the TOP above
]
# Each package's allowed lower packages, from the floors.
ALLOWED: dict[str, frozenset[str]] = {
    package: frozenset(p for lower in FLOORS[:level] for p in lower)
    for level, floor in enumerate(FLOORS) for package in floor
}
# The routes of the domain packages take the HTTP layer's dependencies (who asks, the
# running Club) from app/deps.py; that, and only that, they may import from the top.
HTTP_EDGE = frozenset({
    "app.analysis.router", "app.bots.api", "app.leagues.router", "app.bots.router", "app.members.router",
    "app.parties.router", "app.parties.vacation", "app.profiles.router", "app.ratings.router",
    "app.tables.router", "app.tables.ws", "app.tournaments.router", "app.problems.router",
})
HTTP_EDGE_IMPORTS = frozenset({"app.deps"})

MAX_LINES = 400
# The modules allowed over MAX_LINES until they are split (issue 38, item 3 emptied it).
# This set only shrinks: a module that is no longer over the limit must leave it (the
# test says so), and a new one over the limit is split rather than listed.
EXCEPTIONS: frozenset[str] = frozenset()


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(module: str) -> str | None:
    """The floor's package of an app module (None: app itself, the package of packages)."""
    parts = module.split(".")
    if len(parts) < 2:
        return None
    name = parts[1]
    return "base" if name in BASE else "top" if name in TOP else name


def _runtime_imports(path: Path) -> list[tuple[int, str]]:
    """The app modules a module imports, at load time or inside its functions (an import
    deferred into a function is still a dependency), with their lines; type-checking
    imports do not count."""
    tree = ast.parse(path.read_text())
    here = _module(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    found: list[tuple[int, str]] = []

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                self.generic_visit(node)
            else:
                for child in node.orelse:
                    self.visit(child)

        def visit_Import(self, node: ast.Import) -> None:
            found.extend((node.lineno, a.name) for a in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            base = node.module or ""
            if node.level:  # relative: from the module's own package
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            found.append((node.lineno, base))
            found.extend((node.lineno, f"{base}.{a.name}") for a in node.names)

    Visitor().visit(tree)
    return [(line, m) for line, m in found if m == "app" or m.startswith("app.")]


def _modules() -> dict[str, Path]:
    return {_module(p): p for p in sorted(APP.rglob("*.py"))}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: {m for _, m in _runtime_imports(path) if m in modules and m != name}
            for name, path in modules.items()}


def test_every_package_is_on_a_floor():
    lost = sorted({p for m in _modules() if (p := _package(m)) is not None and p not in ALLOWED})
    assert not lost, f"packages on no floor (add them to FLOORS, docs/architecture.md): {lost}"


def test_imports_go_down():
    """Every run-time import of every app module goes to its own package or an allowed lower one."""
    modules = _modules()
    offenders = []
    for name, path in modules.items():
        package = _package(name)
        if package is None or package not in ALLOWED:
            continue
        for line, target in _runtime_imports(path):
            if target not in modules:
                continue  # a name imported from a module: the module itself is listed too
            to = _package(target)
            if to is None or to == package or to in ALLOWED[package]:
                continue
            if name in HTTP_EDGE and target in HTTP_EDGE_IMPORTS:
                continue
            offenders.append(f"{path.relative_to(ROOT)}:{line}: imports {target} ({package} -> {to}, "
                             f"allowed: {', '.join(sorted(ALLOWED[package])) or 'nothing'})")
    assert not offenders, "imports that go up or sideways:\n" + "\n".join(offenders)


def test_the_tables_are_exact():
    """The lists above name what exists: no stale route module, no stale exception."""
    modules = _modules()
    assert not HTTP_EDGE - modules.keys(), sorted(HTTP_EDGE - modules.keys())
    assert {_package(m) for m in HTTP_EDGE} <= ALLOWED.keys() - {"top"}


def test_no_import_circle():
    graph = _graph()
    state: dict[str, int] = {}
    cycles = []

    def walk(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt] if nxt in stack else [node, nxt])
            elif nxt not in state:
                walk(nxt, stack + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node, [node])
    # a package's __init__ importing its own submodules is how packages are built
    # (the circle may be found from either end: the package is its shortest name)
    cycles = [c for c in cycles if not all(m.startswith(min(c, key=len) + ".") or m == min(c, key=len) for m in c)]
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_no_module_is_over_400_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in APP.rglob("*.py")}
    over = {p for p, n in sizes.items() if n > MAX_LINES}
    new = sorted(f"{p}: {sizes[p]} lines" for p in over - EXCEPTIONS)
    assert not new, f"modules over {MAX_LINES} lines (split them):\n" + "\n".join(new)
    done = sorted(f"{p}: {sizes.get(p, 'gone')}" for p in EXCEPTIONS - over)
    assert not done, "no longer over the limit: take them out of EXCEPTIONS:\n" + "\n".join(done)


def test_engines_are_pure():
    """app/games imports nothing of the Club above the base and no framework."""
    forbidden = ("fastapi", "starlette", "sqlalchemy", "pydantic", "app.db", "app.web", "app.tables",
                 "app.parties", "app.members", "app.ai", "app.club")
    offenders = []
    for path in (APP / "games").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.startswith(forbidden)]
    assert not offenders, "\n".join(offenders)


SHARED_GAME_PACKAGES = frozenset({"tricks"})  # what several games share (app/games/tricks)


def test_no_game_package_imports_another_game():
    """A game's package imports the games' shared modules, the packages the games share
    (``tricks``) and its own modules; never another game's package."""
    offenders = []
    for path in sorted((APP / "games").rglob("*.py")):
        parts = path.relative_to(APP / "games").parts
        if len(parts) < 2 or parts[0] in SHARED_GAME_PACKAGES:
            continue
        for line, target in _runtime_imports(path):
            names = target.split(".")
            if len(names) > 2 and names[1] == "games" and (APP / "games" / names[2]).is_dir() \
                    and names[2] not in SHARED_GAME_PACKAGES | {parts[0]}:
                offenders.append(f"{path.relative_to(ROOT)}:{line}: imports {target}")
    assert not offenders, "move what games share to app/games/tricks (or the like):\n" + "\n".join(offenders)


SHARED_AI_PACKAGES = frozenset({"common", "tricks"})  # what several games' players share (app/ai)


def test_no_computer_player_imports_another_games():
    """A game's computer players (app/ai/<game>) import the shared players' packages
    (``common``, ``tricks``), the games' shared packages and their own game's; never
    another game's players or engine."""
    offenders = []
    for path in sorted((APP / "ai").rglob("*.py")):
        parts = path.relative_to(APP / "ai").parts
        if len(parts) < 2:
            continue  # app/ai/registry.py lists every game's players
        own = parts[0]
        for line, target in _runtime_imports(path):
            names = target.split(".")
            if len(names) < 3 or names[1] not in ("ai", "games"):
                continue
            shared = SHARED_AI_PACKAGES if names[1] == "ai" else SHARED_GAME_PACKAGES
            root = APP / names[1] / names[2]
            if root.is_dir() and names[2] not in shared | {own}:
                offenders.append(f"{path.relative_to(ROOT)}:{line}: imports {target}")
            elif names[1] == "ai" and own in SHARED_AI_PACKAGES and root.is_dir() and names[2] not in SHARED_AI_PACKAGES:
                offenders.append(f"{path.relative_to(ROOT)}:{line}: a shared package imports {target}")
    assert not offenders, "move what players share to app/ai/tricks or app/ai/common:\n" + "\n".join(offenders)


# -- The tests' own shape (docs/architecture.md, "Tests")

TESTS = ROOT / "tests"


def _is_test_module(module: str) -> bool:
    name = module.rsplit(".", 1)[-1]
    return name.startswith("test_") or name == "conftest"


def _test_imports(path: Path) -> list[tuple[int, str]]:
    """The modules of tests/ that a file of tests/ imports (relative imports resolved; a
    name imported from a package counts as its submodule when it is one)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(filter(None, [*package.split(".")[:len(package.split(".")) - node.level + 1], base]))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return [(line, m) for line, m in found if m == "tests" or m.startswith("tests.")]


def test_no_test_module_imports_another():
    """What two test modules share lives in tests/support; a test module (or a helper of
    tests/support, or a conftest) never imports a test module (test_*.py) or a conftest."""
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if "data" in path.relative_to(TESTS).parts:
            continue
        for line, target in _test_imports(path):
            if _is_test_module(target) and (TESTS / Path(*target.split(".")[1:])).with_suffix(".py").exists():
                offenders.append(f"{path.relative_to(ROOT)}:{line}: imports {target}")
    assert not offenders, "move what they share to tests/support:\n" + "\n".join(offenders)


def test_the_tests_are_packages_beside_tests_support():
    """Each test module sits in a package of tests/ named after the part of the Club it tests
    (each directory with its __init__.py, so two test modules may share a name)."""
    loose = sorted(str(p.relative_to(ROOT)) for p in TESTS.glob("test_*.py"))
    assert not loose, "put them in the directory of the part they test:\n" + "\n".join(loose)
    bare = sorted(str(d.relative_to(ROOT)) for d in [TESTS, *TESTS.rglob("*")]
                  if d.is_dir() and any(d.glob("*.py")) and not (d / "__init__.py").exists())
    assert not bare, "directories of tests without __init__.py:\n" + "\n".join(bare)
