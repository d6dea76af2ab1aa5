#!/bin/sh
# Builds and tests Widget the way CI does. Run from the package folder: scripts/check.sh
set -eu
swift build
swift test --parallel
