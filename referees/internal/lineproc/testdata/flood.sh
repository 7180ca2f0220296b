#!/bin/sh
# Prints an endless line (no newline ever).
read -r l
exec tr '\0' x < /dev/zero
