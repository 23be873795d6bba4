"""Where a test lives: in the folder of the layer it drives, and inside that in the folder
of the concept it is about (named as in ``src/tilewall/host/``) once a layer holds
several tests of one concept.

- ``domain``: the host's services on fake ports, in this process (no database, no I/O)
- ``store``, ``receivers``, ``platform``: an adapter against the real thing it adapts
  (SQLite and PostgreSQL; WebSockets and receiver pages in Chromium; the machine)
- ``api``: the HTTP interface of an app in this process, run on each store
- ``client``: the Python client and the CLI's interface commands
- ``console``: the console's pages in Chromium
- ``agent``: the kiosk agent
- ``live``: live video sources, end to end
- ``system``: whole ``tilewall`` processes as an operator runs them (start-up, the
  CLI's local commands, configuration, persistence, backups, TLS, the wheel, groups of
  hosts, the benchmarks still running)

``test_layering.py`` and ``test_dependency_reaches.py`` stay at the top: they read the
source tree and the libraries under it (with the lock of their versions), not a layer. What tests
share is in ``support`` and nowhere else; a ``conftest.py`` holds only its folder's
fixtures.
"""
