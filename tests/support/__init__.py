"""What the tests share (docs/architecture.md, "Tests"): helpers, fixtures imported by several
test modules, the served Club's process, the independent referee. No module here imports a
test module, and no test module imports another: what two test modules need lives here."""
