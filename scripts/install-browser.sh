#!/bin/sh
# Install the Chromium the browser tests drive (Debian's package; Playwright's own download is not
# used). Idempotent: does nothing when /usr/bin/chromium is already there. Needs root for apt-get.
set -eu

if [ -x /usr/bin/chromium ]; then
    echo "chromium is already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: apt-get not found; install Chromium as /usr/bin/chromium by hand" >&2
    exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium
/usr/bin/chromium --version
