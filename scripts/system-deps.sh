#!/usr/bin/env bash
# Install the Debian packages the test suite needs, only those missing.
# Usage: scripts/system-deps.sh [redis-server] [msgfmt] [chromium] [npm] [emoji-font] [cjk-font] ...   (commands to ensure)
# emoji-font and cjk-font are files, not commands: the fonts the browser tests' screenshots
# need to draw the bots' mark (🤖) and the Chinese words (the language switch's 简体中文).
set -euo pipefail

declare -A package_of=(
  [redis-server]=redis-server
  [msgfmt]=gettext
  [chromium]=chromium
  [npm]=npm
  [emoji-font]=fonts-noto-color-emoji
  [cjk-font]=fonts-wqy-microhei
)
declare -A file_of=(
  [emoji-font]=/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
  [cjk-font]=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
)
missing=()
for cmd in "$@"; do
  if [ -n "${file_of[$cmd]:-}" ]; then
    [ -e "${file_of[$cmd]}" ] || missing+=("${package_of[$cmd]}")
    continue
  fi
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
