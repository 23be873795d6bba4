"""Which connection is each seat's: a station has up to two, its page and its kiosk
agent, each admitted by its hello (``greeting``). A station is online while either is
connected; a newer connection of the same role replaces the older."""

from tilewall.receivers.session import Session


class Seats:
    """The admitted page and agent of each seat; the agents' table is the
    ``AgentDesk``'s, which sends them commands."""

    def __init__(self, agents: dict[str, Session]) -> None:
        self.pages: dict[str, Session] = {}
        self.agents = agents

    def of_role(self, role: str) -> dict[str, Session]:
        """The table of the pages or of the agents."""
        return self.agents if role == "agent" else self.pages

    def online(self, seat_id: str) -> bool:
        return seat_id in self.pages or seat_id in self.agents

    def online_seats(self) -> set[str]:
        return set(self.pages) | set(self.agents)

    def of_seat(self, seat_id: str) -> list[Session]:
        """The page and the agent of a seat, those connected."""
        return [s for s in (self.pages.get(seat_id), self.agents.get(seat_id)) if s]
