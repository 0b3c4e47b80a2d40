#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: installs what it needs, builds, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
# The documentation of every library module, with broken links and undocumented parameters as errors.
scripts/docs.sh
