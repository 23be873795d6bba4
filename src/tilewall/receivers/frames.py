"""A frame from a receiver's page or its kiosk agent, read with suspicion: a binary
frame, one over the size its role may send, or one that is not a message of the
protocol (docs/protocol.md) is dropped with a log line (``Session.drop``) and never
handled; nothing a peer sends raises."""

import msgspec

from tilewall.receivers import protocol as p
from tilewall.receivers import protocol_agent as pa
from tilewall.receivers.session import Limits, Session

Message = p.ReceiverMessage | pa.AgentMessage


def decode(session: Session, data: str | bytes, limits: Limits) -> Message | None:
    """The message of one frame of ``session``; None when it is dropped."""
    if isinstance(data, bytes):
        session.drop("binary frame")
        return None
    agent = session.role == "agent"
    limit = limits.max_agent_frame_bytes if agent else limits.max_frame_bytes
    if len(data) > limit:
        session.drop(f"oversized frame ({len(data)} characters)")
        return None
    try:
        decoder = pa.agent_decoder if agent else p.receiver_decoder
        message: Message = decoder.decode(data)
    except msgspec.DecodeError as error:
        session.drop(f"malformed message: {str(error)[:120]}")
        return None
    return message
