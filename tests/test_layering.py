"""The layers of the house, read from the imports of the source tree.

``host`` is the bottom: it imports nothing of tilewall outside itself and none of the
libraries of the world (web, database, machine); adapters (``store``, ``receivers``,
``platform``) implement its ports and import only the host; ``api`` is HTTP over the
host; ``server`` assembles; ``client`` and the CLI's interface commands talk HTTP only.
"""

import ast
from collections import defaultdict
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "tilewall"

#: what each part of tilewall may import of tilewall (besides itself and the package root)
ALLOWED: dict[str, set[str]] = {
    "host": set(),
    "store": {"host"},
    "platform": {"host"},
    "receivers": {"host"},
    "live": {"host"},
    "api": {"host", "receivers", "live"},
    "client": set(),
    "commands": {"client"},
    "agent": {"client"},
    "config": {"host"},
    "app": {"api", "host", "receivers", "metrics"},
    "metrics": {"api", "host", "live"},
    "demo": {"host"},
    "server": {
        "app",
        "config",
        "host",
        "platform",
        "receivers",
        "live",
        "store",
        "demo",
        "tls",
        "metrics",
    },
    "cli": {"config", "host", "server", "commands", "client", "agent", "tls", "backup"},
    "tls": set(),
    "backup": {"config", "store", "tls"},
}

#: libraries the host must not use: it reaches the world through its ports
WORLD = {
    "litestar",
    "sqlalchemy",
    "aiosqlite",
    "asyncpg",
    "psycopg",
    "alembic",
    "psutil",
    "httpx",
    "websockets",
    "uvicorn",
    "granian",
    "serial",
    "pyudev",
}


def part_of(path: Path) -> str:
    rel = path.relative_to(SRC)
    return rel.parts[0].removesuffix(".py")


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, including imports inside functions."""
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def graph() -> dict[str, set[str]]:
    """Part -> the other parts of tilewall it imports."""
    out: dict[str, set[str]] = defaultdict(set)
    for path in SRC.rglob("*.py"):
        if "migrations" in path.parts or (path.name == "__init__.py" and path.parent == SRC):
            continue
        part = part_of(path)
        for module in imports_of(path):
            names = module.split(".")
            if names[0] == "tilewall" and len(names) > 1 and names[1] != part:
                out[part].add(names[1])
    return out


def test_host_imports_nothing_outside_itself() -> None:
    bad = []
    for path in (SRC / "host").rglob("*.py"):
        for module in imports_of(path):
            names = module.split(".")
            if names[0] == "tilewall" and len(names) > 1 and names[1] != "host":
                bad.append(f"{path.relative_to(SRC)} imports {module}")
            if names[0] in WORLD:
                bad.append(f"{path.relative_to(SRC)} imports {module}")
    assert bad == []


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_each_part_imports_only_what_lies_below_it(part: str) -> None:
    imported = graph().get(part, set())
    assert imported <= ALLOWED[part], f"{part} imports {sorted(imported - ALLOWED[part])}"


def test_no_part_of_the_tree_was_left_out() -> None:
    parts = {part_of(p) for p in SRC.rglob("*.py") if p != SRC / "__init__.py"}
    assert parts <= set(ALLOWED), f"parts without a rule: {sorted(parts - set(ALLOWED))}"


def test_the_parts_import_one_another_without_a_loop() -> None:
    edges = graph()
    seen: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        seen[node] = 1
        for nxt in sorted(edges.get(node, ())):
            assert seen.get(nxt) != 1, f"import loop: {' -> '.join([*path, nxt])}"
            if nxt not in seen:
                visit(nxt, [*path, nxt])
        seen[node] = 2

    for node in sorted(edges):
        if node not in seen:
            visit(node, [node])


def test_no_source_file_is_over_400_lines() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 420
    }
    assert long == {}


def test_type_ignores_are_few() -> None:
    count = sum(p.read_text().count("type: ignore") for p in SRC.rglob("*.py"))
    assert count <= 5, f"{count} '# type: ignore' in src/"
