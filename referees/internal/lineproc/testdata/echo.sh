#!/bin/sh
# Answers every input line with "got LINE".
while read -r l; do echo "got $l"; done
