#!/bin/sh
# Prints without end.
exec tr '\0' x < /dev/zero
