#!/usr/bin/env bash
# Installs the Debian packages the package builds and tests against, when they are missing.
# Runs `apt-get update` once, and only if something has to be installed: the C libraries, nginx (the origin of
# the integration tests and the cache in front of replicas in DeployTests), chromium and chromium-driver (the
# service's page tested in a real browser). Tests that need nginx or chromium say SKIPPED on a machine without them,
# but this script fails when it cannot install them, so CI always runs them.
set -euo pipefail

required=(pkg-config libde265-dev libopenh264-dev libpng-dev libturbojpeg0-dev libwebp-dev libdav1d-dev
          nginx chromium chromium-driver)
optional=()

missing() {
    local package
    for package in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            echo "$package"
        fi
    done
}

mapfile -t missing_required < <(missing "${required[@]}")
mapfile -t missing_optional < <(missing "${optional[@]}")
if [ ${#missing_required[@]} -eq 0 ] && [ ${#missing_optional[@]} -eq 0 ]; then
    exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo="sudo"; else
        echo "install-deps: need root (or sudo) to install: ${missing_required[*]} ${missing_optional[*]}" >&2
        exit 1
    fi
fi

# Keep package scripts from starting services (nginx would try to listen on port 80).
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod +x "$policy"
    made_policy=1
fi
cleanup() { if [ $made_policy = 1 ]; then $sudo rm -f "$policy"; fi; }
trap cleanup EXIT

echo "install-deps: installing ${missing_required[*]} ${missing_optional[*]}" >&2
$sudo apt-get update -q >&2
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing_required[@]} -gt 0 ]; then
    $sudo apt-get install -y -q --no-install-recommends "${missing_required[@]}" >&2
fi
if [ ${#missing_optional[@]} -gt 0 ]; then
    if ! $sudo apt-get install -y -q --no-install-recommends "${missing_optional[@]}" >&2; then
        echo "install-deps: could not install ${missing_optional[*]}; the tests that need them will be skipped" >&2
    fi
fi
