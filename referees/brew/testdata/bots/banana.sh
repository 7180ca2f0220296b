#!/bin/sh
# Answers an action that parses but is never possible (no order or spell
# has id 9999): the referee lets it wait, every turn.
. "$(dirname "$0")/common.sh"
while turn; do echo "BREW 9999"; done
