#!/bin/sh
# Crashes on its first tick.
read -r start
read -r tick
echo "boom" >&2
exit 3
