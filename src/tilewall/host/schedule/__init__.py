"""Scheduled events and the play log: what runs at a time in a time zone, once or by an
RFC 5545 rule, and what played on each display, when and why."""
