"""Where tilewall reaches into a library's private parts, because the public way costs
too much: one module per reach, named for what it adapts.

Each is listed in docs/architecture.md ("Reaches into libraries") with the figure that
pays for it; the library's tested versions are pinned in pyproject.toml, and
tests/test_dependency_reaches.py fails, saying what changed upstream, when an upgrade
breaks what the module relies on. Nothing here imports tilewall.
"""
