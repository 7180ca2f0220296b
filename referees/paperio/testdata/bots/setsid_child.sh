#!/bin/sh
# Starts a child in a new session that keeps this bot's stdout open for a
# minute, then reads its input and never answers.
setsid sleep 60 &
echo "child $!" >&2
while read -r l; do :; done
