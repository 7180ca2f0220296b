#!/usr/bin/env python3
"""A direct referee (CodinGame SDK style) for the tests: runs each player's
command (-p1 CMD1 -p2 CMD2 ...) with the shell, asks it once for a number
given the seed (-d seed=N) and scores it: the number itself, -1 for a player
that crashes or prints no number. Writes a log (-l FILE). --fail exits 2."""
import subprocess, sys

args = sys.argv[1:]
if "--fail" in args:
    print("referee failing on purpose", file=sys.stderr)
    sys.exit(2)
cmds, seed, log = [], 0, None
i = 0
while i < len(args):
    a = args[i]
    if a.startswith("-p"):
        cmds.append(args[i + 1]); i += 2
    elif a == "-d":
        seed = int(args[i + 1].split("=")[1]); i += 2
    elif a == "-l":
        log = args[i + 1]; i += 2
    else:
        i += 1
scores = []
for c in cmds:
    try:
        out = subprocess.run(c, shell=True, input="%d 0\n" % (10 + seed), capture_output=True, text=True, timeout=10).stdout
        scores.append(int(out.split()[0]))
    except Exception:
        scores.append(-1)
if log:
    with open(log, "w") as f:
        f.write('{"seed": %d}\n' % seed)
for s in scores:
    print(s)
print("a summary line the protocol ignores")
