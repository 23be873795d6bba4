"""tilewall: an open host for displays and video walls."""

__version__ = "0.1.0"
INTERFACE_VERSION = "1.9"
