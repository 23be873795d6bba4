#!/usr/bin/env bash
# Installs the tilewall kiosk agent on this device (Raspberry Pi OS, Debian, Ubuntu):
# the browser and the tools its --power needs (apt-get), tilewall[agent] in its own
# virtual environment, and a systemd service that starts it with the desktop.
#
#   sudo bash install-agent.sh --host http://wallhost:9000 --seat lobby-left [options]
#
# Options:
#   --host URL            the tilewall host (required)
#   --seat NAME           this screen's station id (required)
#   --name TEXT           the station's name until an operator names it
#   --user USER           the account of the kiosk's desktop session (default: the one
#                         running sudo, else the first user, uid 1000)
#   --power METHOD        cec | ddc | dpms | none (default: none)
#   --power-command CMD   a command switching the screen, {state} = on | off
#   --serial-port DEV     the local serial port for the host's serial commands
#   --session wayland|x11 the desktop session (default: wayland on Raspberry Pi OS
#                         Bookworm and wherever labwc or wayfire is installed, else x11)
#   --wheel FILE          install from this tilewall wheel instead of the package index
#   --wheelhouse DIR      with --wheel: install offline, every dependency from DIR
#                         (made on a connected machine with:
#                          pip download 'tilewall[agent]' -d DIR, or pip wheel)
#   --prefix DIR          where the virtual environment goes (default /opt/tilewall-agent)
#   --no-apt              install no system package
#   --no-systemd          install no service (the agent is PREFIX/bin/tilewall agent)
set -euo pipefail

HOST="" SEAT="" NAME="" KIOSK_USER="${SUDO_USER:-}" POWER="none" POWER_COMMAND=""
SERIAL_PORT="" SESSION="" WHEEL="" WHEELHOUSE="" PREFIX="/opt/tilewall-agent"
APT=1 SYSTEMD=1
HERE="$(cd "$(dirname "$0")" && pwd)"

die() { echo "install-agent: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --host) HOST="$2"; shift 2 ;;
    --seat) SEAT="$2"; shift 2 ;;
    --name) NAME="$2"; shift 2 ;;
    --user) KIOSK_USER="$2"; shift 2 ;;
    --power) POWER="$2"; shift 2 ;;
    --power-command) POWER_COMMAND="$2"; POWER="command"; shift 2 ;;
    --serial-port) SERIAL_PORT="$2"; shift 2 ;;
    --session) SESSION="$2"; shift 2 ;;
    --wheel) WHEEL="$2"; shift 2 ;;
    --wheelhouse) WHEELHOUSE="$2"; shift 2 ;;
    --prefix) PREFIX="$2"; shift 2 ;;
    --no-apt) APT=0; shift ;;
    --no-systemd) SYSTEMD=0; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//;/^set -e/d'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

[ -n "$HOST" ] || die "--host URL is required"
[ -n "$SEAT" ] || die "--seat NAME is required"
[[ "$SEAT" =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ ]] || die "--seat: letters, digits, '.', '_', '-'"
case "$POWER" in cec|ddc|dpms|none|command) ;; *) die "--power is cec, ddc, dpms or none" ;; esac
if [ $((APT + SYSTEMD)) -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
  die "run as root (sudo), or with --no-apt --no-systemd"
fi
if [ -z "$KIOSK_USER" ]; then
  KIOSK_USER="$(getent passwd 1000 | cut -d: -f1 || true)"
fi
if [ -z "$SESSION" ]; then
  if command -v labwc >/dev/null 2>&1 || command -v wayfire >/dev/null 2>&1; then
    SESSION=wayland
  else
    SESSION=x11
  fi
fi

# --- system packages ------------------------------------------------------------------
if [ "$APT" -eq 1 ]; then
  packages=(python3-venv)
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || packages+=(chromium)
  case "$POWER" in
    cec) packages+=(cec-utils) ;;
    ddc) packages+=(ddcutil) ;;
    dpms) if [ "$SESSION" = wayland ]; then packages+=(wlopm); else packages+=(x11-xserver-utils); fi ;;
  esac
  [ "$SESSION" = x11 ] && packages+=(x11-xserver-utils)
  apt-get update -qq || echo "install-agent: apt-get update failed; using the lists at hand" >&2
  for package in "${packages[@]}"; do
    if [ "$package" = chromium ] && ! apt-cache show chromium >/dev/null 2>&1; then
      package=chromium-browser
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" \
      >/dev/null || echo "install-agent: could not install $package" >&2
  done
fi

# --- the agent --------------------------------------------------------------------------
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "the agent needs Python 3.11 or newer"
python3 -m venv "$PREFIX"
pip=("$PREFIX/bin/pip" install -q --disable-pip-version-check)
if [ -n "$WHEEL" ]; then
  [ -f "$WHEEL" ] || die "no wheel at $WHEEL"
  WHEEL="$(cd "$(dirname "$WHEEL")" && pwd)/$(basename "$WHEEL")"
  if [ -n "$WHEELHOUSE" ]; then
    pip+=(--no-index --find-links "$WHEELHOUSE")
  fi
  "${pip[@]}" "tilewall[agent] @ file://$WHEEL"
else
  "${pip[@]}" 'tilewall[agent]'
fi
"$PREFIX/bin/tilewall" agent --help >/dev/null
echo "install-agent: the agent is $PREFIX/bin/tilewall agent"

# --- the service ------------------------------------------------------------------------
[ "$SYSTEMD" -eq 1 ] || exit 0
uid="$(id -u "$KIOSK_USER")" || die "no user $KIOSK_USER (give --user)"
{
  echo "# Settings of the tilewall kiosk agent; see tilewall agent --help."
  echo "TILEWALL_HOST=$HOST"
  echo "TILEWALL_SEAT=$SEAT"
  [ "$POWER" = command ] || echo "TILEWALL_POWER=$POWER"
  [ -n "$POWER_COMMAND" ] && echo "TILEWALL_POWER_COMMAND=\"$POWER_COMMAND\""
  [ -n "$SERIAL_PORT" ] && echo "TILEWALL_SERIAL_PORT=$SERIAL_PORT"
  [ -n "$NAME" ] && echo "TILEWALL_STATION_NAME=\"$NAME\""
  echo "TILEWALL_AGENT_ARGS="
  if [ "$SESSION" = wayland ]; then
    echo "WAYLAND_DISPLAY=wayland-1"
  else
    echo "DISPLAY=:0"
    echo "XAUTHORITY=$(getent passwd "$KIOSK_USER" | cut -d: -f6)/.Xauthority"
  fi
  echo "XDG_RUNTIME_DIR=/run/user/$uid"
} > /etc/default/tilewall-agent
sed -e "s|^User=.*|User=$KIOSK_USER|" \
    -e "s|/opt/tilewall-agent/bin/tilewall|$PREFIX/bin/tilewall|" \
    "$HERE/tilewall-agent.service" > /etc/systemd/system/tilewall-agent.service
for group in dialout video i2c audio; do
  getent group "$group" >/dev/null || groupadd --system "$group"
done
systemctl daemon-reload
systemctl enable --now tilewall-agent.service
echo "install-agent: tilewall-agent.service runs as $KIOSK_USER; journalctl -u tilewall-agent -f"
