"""Functions a reader can take in: none over 80 lines (from its ``def`` to its last line;
the decorators, such as a command's options, are its declaration) in ``src/``, in the
benchmarks of ``bench/`` and in the Python scripts of ``scripts/``; what grows past that
is split by what it does. The files' size is checked with the layers
(``test_layering.py``)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_FUNCTION_LINES = 80


def python_files() -> list[Path]:
    scripts = [p for p in (ROOT / "scripts").iterdir() if _is_python(p)]
    bench = [p for p in (ROOT / "bench").rglob("*.py") if "node_modules" not in p.parts]
    return sorted([*(ROOT / "src").rglob("*.py"), *bench, *scripts])


def _is_python(path: Path) -> bool:
    if path.suffix == ".py":
        return True
    first = path.read_bytes().split(b"\n", 1)[0]
    return first.startswith(b"#!") and b"python" in first


def long_functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, line, length) of each function of ``path`` over the limit."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.name, node.lineno, length))
    return found


def test_no_function_is_over_80_lines() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} {name} ({length} lines)"
        for path in python_files()
        for name, line, length in long_functions(path)
    ]
    assert not found, "functions over 80 lines:\n" + "\n".join(found)


def test_a_function_of_81_lines_is_found(tmp_path: Path) -> None:
    body = "".join(f"        x{n} = {n}\n" for n in range(MAX_FUNCTION_LINES))
    path = tmp_path / "long.py"
    path.write_text(f"def short():\n    return 1\n\n\nclass A:\n    async def long(self):\n{body}")
    assert long_functions(path) == [("long", 6, 81)]
