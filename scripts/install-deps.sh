#!/usr/bin/env bash
# Installs what the package builds and tests against, when it is missing: Debian packages, then moto.
# Runs `apt-get update` once, and only if a package has to be installed: the C libraries (libavcodec-dev for the
# FFmpegDecoders trait's build, which scripts/test.sh tests too), nginx (the origin of
# the integration tests and the cache in front of replicas in DeployTests), chromium and chromium-driver (the
# service's page tested in a real browser), python3-venv. Then moto's S3-compatible server and boto3 (the
# object-store tests) from PyPI into .build/moto-venv, a virtual environment of the checkout's own (never the system
# Python). Tests that need nginx, chromium or moto are disabled on a machine without them, but this script fails when
# it cannot install them, and scripts/test.sh checks they are where the tests look, so CI always runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

required=(pkg-config libde265-dev libopenh264-dev libpng-dev libturbojpeg0-dev libwebp-dev libdav1d-dev libvpx-dev libavif-dev
          libavif-bin libavcodec-dev nginx chromium chromium-driver python3-venv)
optional=()

missing() {
    local package
    for package in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            echo "$package"
        fi
    done
}

install_packages() {
    local missing_required missing_optional
    mapfile -t missing_required < <(missing "${required[@]}")
    mapfile -t missing_optional < <(missing "${optional[@]}")
    if [ ${#missing_required[@]} -eq 0 ] && [ ${#missing_optional[@]} -eq 0 ]; then
        return
    fi

    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null; then sudo="sudo"; else
            echo "install-deps: need root (or sudo) to install: ${missing_required[*]} ${missing_optional[*]}" >&2
            exit 1
        fi
    fi

    # Keep package scripts from starting services (nginx would try to listen on port 80).
    local policy=/usr/sbin/policy-rc.d
    local made_policy=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
        $sudo chmod +x "$policy"
        made_policy=1
    fi

    echo "install-deps: installing ${missing_required[*]} ${missing_optional[*]}" >&2
    local status=0
    $sudo apt-get update -q >&2 || status=$?
    export DEBIAN_FRONTEND=noninteractive
    if [ $status = 0 ] && [ ${#missing_required[@]} -gt 0 ]; then
        $sudo apt-get install -y -q --no-install-recommends "${missing_required[@]}" >&2 || status=$?
    fi
    if [ $status = 0 ] && [ ${#missing_optional[@]} -gt 0 ]; then
        if ! $sudo apt-get install -y -q --no-install-recommends "${missing_optional[@]}" >&2; then
            echo "install-deps: could not install ${missing_optional[*]}; the tests that need them will be skipped" >&2
        fi
    fi
    if [ $made_policy = 1 ]; then $sudo rm -f "$policy"; fi
    if [ $status != 0 ]; then exit $status; fi
}

install_moto() {
    local venv=.build/moto-venv
    if [ -x "$venv/bin/moto_server" ] && "$venv/bin/python" -c 'import boto3, moto' 2>/dev/null; then
        return
    fi
    echo "install-deps: installing moto[server] and boto3 into $venv" >&2
    rm -rf "$venv"
    mkdir -p .build
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check 'moto[server]==5.*' 'boto3==1.*' >&2
}

install_packages
install_moto
