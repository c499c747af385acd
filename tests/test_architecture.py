"""The shape of the code: the engines import no framework, the domain packages do not
reach up into the web layer, and no module imports itself back through others."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path) -> set[str]:
    """The app modules a module imports, at load time or inside its functions (an import
    deferred into a function is still a dependency); type-checking imports do not count."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            found.update(a.name for a in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)

    Visitor().visit(tree)
    return {m for m in found if m == "app" or m.startswith("app.")}


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in APP.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        graph[name] = {m for m in _runtime_imports(path) if m in modules and m != name}
    return graph


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
    cycles = [c for c in cycles if not all(m.startswith(c[0] + ".") or m == c[0] for m in c)]
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_domain_packages_do_not_import_the_web_layer():
    offenders = []
    for package in ("members", "parties", "tables", "games", "ai", "bots", "db", "realtime", "analysis"):
        for path in (APP / package).rglob("*.py"):
            web = sorted(m for m in _runtime_imports(path) if m.startswith("app.web"))
            if web:
                offenders.append(f"{path.relative_to(ROOT)}: {', '.join(web)}")
    assert not offenders, "\n".join(offenders)


def test_engines_are_pure():
    """app/games imports nothing of the Club (database, web, tables) and no framework."""
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
