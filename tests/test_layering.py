"""The layers of the house, read from the imports of the source tree.

``host`` is the bottom: it imports nothing of tilewall outside itself and none of the
libraries of the world (web, database, machine), and it writes no file, starts no
process and opens no socket itself (its ports do, in ``platform``); adapters (``store``, ``receivers``,
``platform``) implement its ports and import only the host; ``api`` is HTTP over the
host; ``assembly`` builds the host from configuration and ``server`` serves it; ``client`` and the CLI's interface commands talk HTTP only.
"""

import ast
import functools
from collections import defaultdict
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "tilewall"
#: the benchmarks, held to the same size of file (their Prism install brings its own)
BENCH = SRC.parent.parent / "bench"

#: what each part of tilewall may import of tilewall (besides itself and the package root)
ALLOWED: dict[str, set[str]] = {
    "host": set(),
    "store": {"host", "reaches"},
    "platform": {"host"},
    "receivers": {"host", "reaches"},
    "live": {"host"},
    "api": {"host", "receivers", "live", "reaches"},
    "client": set(),
    "commands": {"client"},
    "agent": {"client"},
    "config": {"host"},
    "app": {"api", "host", "receivers", "metrics", "reaches"},
    "metrics": {"api", "host", "live"},
    "demo": {"host"},
    "assembly": {"config", "host", "platform", "store"},
    "server": {
        "app",
        "assembly",
        "config",
        "host",
        "platform",
        "receivers",
        "live",
        "demo",
        "tls",
        "metrics",
        "reaches",
        "uvicorn_server",
    },
    "uvicorn_server": {"api"},
    "cli": {"assembly", "config", "host", "server", "commands", "client", "agent", "tls", "backup"},
    "tls": set(),
    # one module per reach into a library's private parts (docs/architecture.md)
    "reaches": set(),
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
    "mutagen",
}

#: modules through which code reaches the machine itself (processes, the network, files)
MACHINE_MODULES = {"socket", "subprocess", "shutil", "tarfile", "tempfile", "importlib.metadata"}
#: calls of ``os`` that write, move or delete files
OS_WRITES = {
    "open",
    "write",
    "fsync",
    "remove",
    "unlink",
    "replace",
    "rename",
    "renames",
    "makedirs",
    "mkdir",
    "rmdir",
    "removedirs",
    "truncate",
    "ftruncate",
    "link",
    "symlink",
}
#: methods that only a path has, and that change the file system
PATH_WRITES = {
    "write_bytes",
    "write_text",
    "unlink",
    "mkdir",
    "rmdir",
    "touch",
    "symlink_to",
    "hardlink_to",
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


@functools.cache
def graph() -> dict[str, set[str]]:
    """Part -> the other parts of tilewall it imports (read once: every part's test asks,
    and the tree does not change meanwhile)."""
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


def _dotted(node: ast.expr) -> list[str]:
    """``a.b.c`` as ["a", "b", "c"]; [] for anything that is not a dotted name."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return [*inner, node.attr] if inner else []
    return []


def _writes_in_mode(mode: ast.expr | None) -> bool:
    """Whether an ``open`` mode may write: any mode that is not a constant may."""
    if mode is None:
        return False
    if not isinstance(mode, ast.Constant) or not isinstance(mode.value, str):
        return True
    return any(c in mode.value for c in "wax+")


def _open_mode(call: ast.Call, position: int) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "mode":
            return keyword.value
    return call.args[position] if len(call.args) > position else None


def machine_reaches(source: str, filename: str) -> list[str]:
    """Where ``source`` reaches the machine itself: imports of :data:`MACHINE_MODULES`,
    and file writes, moves and deletes through ``os``, paths or ``open``; one line each,
    ``file:line: what``."""
    tree = ast.parse(source, filename)
    modules = {
        alias.asname or alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    paths = "pathlib" in modules or any(
        isinstance(node, ast.ImportFrom)
        and node.module == "pathlib"
        and any(alias.name == "Path" for alias in node.names)
        for node in ast.walk(tree)
    )
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MACHINE_MODULES or alias.name.split(".")[0] in MACHINE_MODULES:
                    found.append((node.lineno, f"imports {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = {f"{node.module}.{alias.name}" for alias in node.names}
            if node.module.split(".")[0] in MACHINE_MODULES or node.module in MACHINE_MODULES:
                found.append((node.lineno, f"imports from {node.module}"))
            elif names & MACHINE_MODULES:
                found.append((node.lineno, f"imports {sorted(names & MACHINE_MODULES)[0]}"))
            elif node.module == "os" and {a.name for a in node.names} & OS_WRITES:
                found.append((node.lineno, "imports a file write of os"))
        elif isinstance(node, ast.Call):
            what = _file_write(node, modules, paths)
            if what:
                found.append((node.lineno, what))
    return [f"{filename}:{line}: {what}" for line, what in sorted(found)]


def _file_write(call: ast.Call, modules: set[str], paths: bool) -> str:
    """What ``call`` writes, moves or deletes of the file system; "" when nothing.

    Read without types: ``replace`` and ``rename`` are names other objects use too, so
    they count as a path's only in a file that imports ``pathlib.Path``."""
    name = _dotted(call.func)
    if name == ["open"] and _writes_in_mode(_open_mode(call, 1)):
        return "opens a file to write"
    if not isinstance(call.func, ast.Attribute):
        return ""
    method = call.func.attr
    if len(name) == 2 and name[0] == "os" and method in OS_WRITES:
        return f"calls os.{method}"
    if name[:1] and name[0] in modules:
        return ""  # a module's function (msgspec.structs.replace), not a path's method
    if method in PATH_WRITES:
        return f"calls .{method}() of a path"
    if method == "open" and _writes_in_mode(_open_mode(call, 0)):
        return "opens a path to write"
    # str.replace takes two arguments; Path.replace and Path.rename take one
    if paths and method in ("replace", "rename") and len(call.args) == 1 and not call.keywords:
        return f"calls .{method}() of a path"
    return ""


def test_host_reaches_no_file_process_or_network_itself() -> None:
    found = [
        reach
        for path in sorted((SRC / "host").rglob("*.py"))
        for reach in machine_reaches(path.read_text(), str(path.relative_to(SRC)))
    ]
    assert found == [], (
        "the host reaches the machine through its ports (tilewall.host.ports), "
        "implemented in tilewall.platform:\n" + "\n".join(found)
    )


def test_the_machine_check_finds_what_it_looks_for() -> None:
    planted = """\
import os, shutil
import importlib.metadata
from importlib import metadata
from socket import gethostname
import tempfile as tf
from pathlib import Path

def save(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    os.replace(path, path.with_suffix(".x"))
    with open(path, "ab") as f:
        f.write(data)
    with path.open(mode="w") as f:
        f.write("x")
    path.rename(path.parent / "y")
    path.unlink(missing_ok=True)
"""
    assert machine_reaches(planted, "planted.py") == [
        "planted.py:1: imports shutil",
        "planted.py:2: imports importlib.metadata",
        "planted.py:3: imports importlib.metadata",
        "planted.py:4: imports from socket",
        "planted.py:5: imports tempfile",
        "planted.py:9: calls .write_bytes() of a path",
        "planted.py:10: calls os.replace",
        "planted.py:11: opens a file to write",
        "planted.py:13: opens a path to write",
        "planted.py:15: calls .rename() of a path",
        "planted.py:16: calls .unlink() of a path",
    ]
    harmless = """\
import dataclasses
import msgspec
from pathlib import Path, PurePosixPath

def read(path: Path, name: str, item: object) -> str:
    with open(path) as f, path.open("rb") as g:
        f.read(), g.read()
    dataclasses.replace(item)
    msgspec.structs.replace(item)
    return name.replace("a", "b") + str(PurePosixPath(name).parent)
"""
    assert machine_reaches(harmless, "harmless.py") == []
    without_paths = "async def load(core, documents):\n    await core.replace(documents)\n"
    assert machine_reaches(without_paths, "state.py") == []


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
    bench = [p for p in BENCH.rglob("*.py") if "node_modules" not in p.parts]
    long = {
        str(p.relative_to(SRC.parent.parent)): n
        for p in [*SRC.rglob("*.py"), *bench]
        if (n := len(p.read_text().splitlines())) > 420
    }
    assert long == {}


def test_no_page_script_is_over_400_lines() -> None:
    """The pages' JavaScript (all of it the project's own: nothing vendored) is held to
    the same cap; ESLint's max-lines does not count comments and blank lines, this does."""
    long = {
        str(p.relative_to(SRC)): n
        for p in (SRC / "web").rglob("*.js")
        if (n := len(p.read_text().splitlines())) > 420
    }
    assert long == {}


def test_type_ignores_are_few() -> None:
    count = sum(p.read_text().count("type: ignore") for p in SRC.rglob("*.py"))
    assert count <= 5, f"{count} '# type: ignore' in src/"
