#!/usr/bin/env bash
# Install the Debian packages the test suite needs, only those missing.
# Usage: scripts/system-deps.sh [redis-server] [msgfmt] [chromium] ...   (commands to ensure)
set -euo pipefail

declare -A package_of=(
  [redis-server]=redis-server
  [msgfmt]=gettext
  [chromium]=chromium
)
missing=()
for cmd in "$@"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${package_of[$cmd]:-$cmd}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
else
  sudo=
fi
echo "Installing Debian packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
