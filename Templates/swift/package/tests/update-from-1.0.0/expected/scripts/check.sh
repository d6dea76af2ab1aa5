#!/bin/sh
# Builds and tests Demo the way CI does. Run from the package folder: scripts/check.sh
set -eu
swift build
swift test --parallel
