#!/bin/sh
# Reads its input and never answers.
while read -r l; do :; done
