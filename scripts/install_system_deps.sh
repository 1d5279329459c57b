#!/usr/bin/env bash
# Installs the system packages the test suite needs beyond Python: Debian's `chromium`, which the
# arena's browser tests drive through Playwright (Playwright's own browser downloads are never used).
# Does nothing when chromium is already there; needs root or sudo and apt-get otherwise.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_system_deps: no apt-get here; install Debian's chromium yourself (the browser tests skip without it)" >&2
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
