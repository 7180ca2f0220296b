#!/bin/sh
# A solver that prints its output, leaves a child in a new session holding
# stdout for a minute, and exits 0.
echo '[{"ok": true}]'
setsid sleep 60 &
exit 0
