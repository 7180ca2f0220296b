#!/usr/bin/env python3
"""A small Witches' Brew bot (CodinGame protocol) with one constant that
matters, for trying gauntlet's tuning on an external bot:

    python3 bot.py [--wait W] [--learn-turns N]

It brews the best order it can afford, else casts the spell that brings it
closest to the order it is after, else rests. --wait W makes it sit out W
turns in every 10 (the default 8 is a bad choice on purpose: tuning finds a
better one).
"""
import argparse
import sys


def read_turn(stream):
    line = stream.readline()
    if not line:
        return None
    n = int(line)
    actions = [stream.readline().split() for _ in range(n)]
    me = list(map(int, stream.readline().split()))
    stream.readline()  # the opponent's inventory and score
    return actions, me


def missing(inv, cost):
    return sum(max(0, c - i) for i, c in zip(inv, cost))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wait", type=int, default=8)
    ap.add_argument("--learn-turns", type=int, default=4)
    args = ap.parse_args()
    turn = 0
    while True:
        t = read_turn(sys.stdin)
        if t is None:
            return
        actions, me = t
        inv = me[:4]
        orders, casts, tome = [], [], []
        for a in actions:
            aid, kind = int(a[0]), a[1]
            d = list(map(int, a[2:6]))
            if kind == "BREW":
                orders.append((aid, [-x for x in d], int(a[6])))
            elif kind == "CAST":
                casts.append((aid, d, a[9] == "1"))
            elif kind == "LEARN":
                tome.append((aid, d, int(a[8])))
        turn += 1
        if turn % 10 < args.wait:
            print("WAIT", flush=True)
            continue
        ready = [o for o in orders if missing(inv, o[1]) == 0]
        if ready:
            print("BREW %d" % max(ready, key=lambda o: o[2])[0], flush=True)
            continue
        if turn <= args.learn_turns and tome:
            print("LEARN %d" % tome[0][0], flush=True)
            continue
        target = max(orders, key=lambda o: o[2] / (1 + missing(inv, o[1])))

        def value(v):
            # Closer to the target first, then richer in higher tiers.
            return -10 * missing(v, target[1]) + sum((t + 1) * x for t, x in enumerate(v))

        best, best_value = None, value(inv)
        for aid, d, castable in casts:
            after = [i + x for i, x in zip(inv, d)]
            if not castable or min(after) < 0 or sum(after) > 10:
                continue
            if value(after) > best_value:
                best, best_value = aid, value(after)
        if best is not None:
            print("CAST %d" % best, flush=True)
        elif any(not c for _, _, c in casts):
            print("REST", flush=True)
        else:
            print("WAIT", flush=True)


if __name__ == "__main__":
    main()
