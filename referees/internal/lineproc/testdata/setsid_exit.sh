#!/bin/sh
# Answers once, leaves a child in a new session holding stdout for a minute,
# and exits.
read -r l
setsid sleep 60 &
echo "answer"
