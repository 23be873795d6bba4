"""Adapters to the machine the host runs on.

Each capability has a Protocol, a Linux face that changes the machine through an
injectable :class:`~tilewall.platform.runner.Runner`, and a simulated face that keeps
changes in a :class:`~tilewall.platform.settings.SettingsStore`. Reads are always real.
"""

from tilewall.platform.bundle import Platform, platform_for

__all__ = ["Platform", "platform_for"]
