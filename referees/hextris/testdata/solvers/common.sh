# Sourced by the test solvers: sets id and seed from the problem file given
# with -f (a problem reduced to one source seed).
while [ $# -gt 0 ]; do
	case "$1" in -f) f=$2; shift ;; esac
	shift
done
id=$(sed 's/.*"id":\([0-9]*\).*/\1/' "$f")
seed=$(sed 's/.*"sourceSeeds":\[\([0-9]*\)\].*/\1/' "$f")
