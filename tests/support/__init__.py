"""What the tests share, one module a concept:

- ``http``: the one request helper (``Api.request``), ``login``, ``ok`` and ``error``
- ``app``: the app in this process (fixtures, a shared app per class, the host behind it),
  on SQLite or (``app_store``) on PostgreSQL
- ``postgres``: the session's PostgreSQL server, a database per test, the apps' databases
- ``server``: a real server process (and the app served in a thread or on this loop)
- ``topology``: receivers, displays, walls, zones, mirror groups, a whole scene
- ``sources`` and ``media``: sources of every catalogue type, images and videos
- ``licence``: signing keys and activation codes
- ``mixins`` (collections), ``singletons`` (settings) and ``playback`` (every target:
  displays, zones, mirror groups, made by ``targets``): generic tests a resource's test
  class inherits
- ``browser`` and ``waiting``: Chromium pages, screenshots, waiting for conditions
- ``fakes``: a fake host behind the receiver hub; ``ports``: the host's ports faked (a
  store in memory, a simulated machine); ``domain``: what tests of a host on those ports
  share
- ``pgserver``: a throw-away PostgreSQL server (no pytest; the benchmarks use it too)
- ``serving``: a real ``tilewall serve`` with any options, its output kept
- ``cluster`` and ``writes``: the hosts of a host group as processes, and a stream of
  writes to them checked against the database's log of writes
- ``localtime``: a time zone's wall-clock times as the host's milliseconds
- ``edid``: EDID blocks as monitors send them
"""
