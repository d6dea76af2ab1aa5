#!/bin/sh
# Builds and tests HelloWorld the way CI does. Run from the package folder: scripts/check.sh
set -eu
swift build
swift test --parallel
