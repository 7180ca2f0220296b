# Sourced by the test bots: turn reads one CodinGame turn input (the action
# count line, that many action lines, the two inventory lines); it fails at
# the end of the input.
turn() {
	read -r n || return 1
	i=0
	while [ "$i" -lt $((n + 2)) ]; do read -r l || return 1; i=$((i + 1)); done
}
