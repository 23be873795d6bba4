"""The command groups that drive a host over its interface (``tilewall displays ...``),
one module each, named as the group it defines; they use :mod:`tilewall.client` only,
so they work on any machine that can reach a host. Beside them: ``base`` (what every
group shares: the connection, errors, output) and ``transport`` (the playback commands
displays, zones and mirror groups share). They are listed, with the groups that work on
this machine, in :mod:`tilewall.cli.groups`."""
