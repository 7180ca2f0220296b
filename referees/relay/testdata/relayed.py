#!/usr/bin/env python3
"""A relayed referee (cg-brutaltester's old mode) for the tests: a race to
a target. Each turn every player is sent the target and its position and
answers a step of 1 to 3; the first at or past the target wins, players who
arrive in the same turn tie. Options: --ignore-seed, --crash-at N (exit 1 at
turn N), --hang (stop answering after the first turn), --bad-output (ask a
player that does not exist), --bad-end (an ###End that forgets a player),
--chatty (a line of its own on stdout and one on stderr every turn).
The environment's REFEREE_CRASH_SEEDS (a comma-separated list) makes it
crash in the games of those seeds."""
import os, sys

args = sys.argv[1:]
seed = 1
line = sys.stdin.readline()
if line.startswith("###Seed"):
    if "--ignore-seed" not in args:
        seed = int(line.split()[1])
    line = sys.stdin.readline()
n = int(line.split()[1])
if str(seed) in os.environ.get("REFEREE_CRASH_SEEDS", "").split(","):
    print("referee: no game for seed %d" % seed, file=sys.stderr)
    sys.exit(5)
target = 5 + seed % 7
pos = [0] * n
turn = 0
while True:
    turn += 1
    if "--crash-at" in args and turn == int(args[args.index("--crash-at") + 1]):
        print("referee: crashing on purpose", file=sys.stderr)
        sys.exit(1)
    if "--chatty" in args:
        print("referee: turn %d" % turn)
        print("referee debug: turn %d" % turn, file=sys.stderr)
        sys.stderr.flush()
    if "--hang" in args and turn == 2:
        import time
        time.sleep(3600)
    for i in range(n):
        print("###Input %d" % i)
        print("%d %d" % (target, pos[i]))
        if "--bad-output" in args:
            print("###Output %d 1" % (n + 3))
            sys.stdout.flush()
            sys.exit(0)
        print("###Output %d 1" % i)
        sys.stdout.flush()
        answer = sys.stdin.readline().strip()
        try:
            step = int(answer)
        except ValueError:
            step = 0
            print("###Error %d bad answer %r" % (i, answer))
        pos[i] += max(0, min(3, step))
    done = [i for i in range(n) if pos[i] >= target]
    if done or turn >= 50:
        groups = ["".join(str(i) for i in done)] if done else []
        for p in sorted({pos[i] for i in range(n) if i not in done}, reverse=True):
            groups.append("".join(str(i) for i in range(n) if i not in done and pos[i] == p))
        if "--bad-end" in args:
            groups = groups[:-1]
        print("###End " + " ".join(g for g in groups if g))
        sys.stdout.flush()
        break
# Like some referees: wait for another game and fail when the input closes.
sys.stdin.readline()
sys.exit(3)
