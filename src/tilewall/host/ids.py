"""Identifiers the host hands out."""

import uuid


def new_id() -> str:
    return uuid.uuid4().hex[:12]
