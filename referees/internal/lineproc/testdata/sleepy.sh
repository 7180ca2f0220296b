#!/bin/sh
# Answers each input line after sleeping $1 seconds from its reading.
while read -r l; do sleep "$1"; echo "late $l"; done
