"""Failover groups, version 1 and version 2 side by side, and the failover network
settings."""

from __future__ import annotations

from collections.abc import Mapping

from tilewall.client.base import Json, Resource

V1 = "/failover-group"
V2 = "/failover-group-v2"
NETWORK = "/failover-group-network-settings"


class Failover(Resource):
    def get_v1(self) -> Json:
        return self._t.json("GET", V1)

    def join_v1(
        self,
        group_name: str,
        systems: Mapping[str, str],
        *,
        autofailback: bool = False,
        grace_seconds: int = 0,
        hostname_switching: bool = False,
    ) -> Json:
        """Create and join a group; ``systems`` maps each member's host name to its system
        id. Both members send the same request."""
        body = {
            "groupname": group_name,
            "systems": [{"hostname": h, "systemID": s} for h, s in systems.items()],
            "autofailback": autofailback,
            "autofailbackGracePeriodInSeconds": grace_seconds,
            "hostnameSwitching": hostname_switching,
        }
        return self._t.json("POST", V1, json=body)

    def leave_v1(self) -> Json:
        return self._t.json("DELETE", V1)

    def get_v2(self) -> Json:
        """The version 2 group; its password is answered empty."""
        return self._t.json("GET", V2)

    def join_v2(
        self,
        group_name: str,
        peer_ip: str,
        password: str,
        *,
        primary: bool = False,
        auto_failover: bool = True,
        auto_failback: bool = False,
        grace_seconds: int = 0,
        hostname_switching: bool = False,
        interface: str = "",
    ) -> Json:
        """Create and join a group with a peer; a reboot is recommended afterwards."""
        body = {
            "groupName": group_name,
            "peerIP": peer_ip,
            "password": password,
            "primary": primary,
            "autoFailover": auto_failover,
            "autoFailback": auto_failback,
            "autoFailbackGraceSeconds": grace_seconds,
            "useHostNameSwitching": hostname_switching,
            "failoverInterface": interface,
        }
        return self._t.json("POST", V2, json=body)

    def leave_v2(self) -> Json:
        return self._t.json("DELETE", V2)

    def network(self) -> Json:
        return self._t.json("GET", NETWORK)

    def set_network(
        self,
        *,
        interface: str | None = None,
        auto_discover_peer: bool | None = None,
        peer_ip: str | None = None,
    ) -> Json:
        """Change the failover network settings; what is None is kept."""
        body: Json = {}
        if interface is not None:
            body["failoverInterface"] = interface
        if auto_discover_peer is not None:
            body["autoDiscoverPeer"] = auto_discover_peer
        if peer_ip is not None:
            body["peerIP"] = peer_ip
        return self._t.json("POST", NETWORK, json=body)
