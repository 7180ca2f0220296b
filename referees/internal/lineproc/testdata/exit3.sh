#!/bin/sh
# Crashes on its first input.
read -r l
echo "boom" >&2
exit 3
