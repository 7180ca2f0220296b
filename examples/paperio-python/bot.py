#!/usr/bin/env python3
"""A small Paper.io 2019 bot (the runner's JSON lines protocol) with two
constants, for trying gauntlet on an external Paper.io bot:

    python3 bot.py [--out N] [--side M] [--safety K]

From home it heads for open space away from the others for N cells, turns
right for M cells, then comes home by the shortest way that does not cross
its own trail; it turns home early when another player's head comes within
K cells of its trail.
"""
import argparse
import json
import sys
from collections import deque

WIDTH = 30
CELLS = 31
DIRS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
REVERSE = {"up": "down", "down": "up", "left": "right", "right": "left"}
RIGHT_OF = {"up": "right", "right": "down", "down": "left", "left": "up"}


def cell(xy):
    return (xy[0] // WIDTH, xy[1] // WIDTH)


def inside(c):
    return 0 <= c[0] < CELLS and 0 <= c[1] < CELLS


def room(c, d):
    """Free cells ahead of c in direction d before the border."""
    dx, dy = DIRS[d]
    n, x, y = 0, c[0] + dx, c[1] + dy
    while inside((x, y)):
        n, x, y = n + 1, x + dx, y + dy
    return n


def path_home(start, heading, home, trail):
    """First direction of the shortest path from start to a home cell that
    avoids the trail and does not reverse the current heading."""
    queue = deque()
    seen = {start}
    for d, (dx, dy) in DIRS.items():
        if heading and d == REVERSE[heading]:
            continue
        n = (start[0] + dx, start[1] + dy)
        if inside(n) and n not in trail:
            seen.add(n)
            queue.append((n, d))
    while queue:
        c, first = queue.popleft()
        if c in home:
            return first
        for dx, dy in DIRS.values():
            n = (c[0] + dx, c[1] + dy)
            if inside(n) and n not in seen and n not in trail:
                seen.add(n)
                queue.append((n, first))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=int, default=4)
    ap.add_argument("--side", type=int, default=3)
    ap.add_argument("--safety", type=int, default=2)
    args = ap.parse_args()
    heading, out_dir, phase, count = None, None, "home", 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "end_game":
            return
        if msg.get("type") != "tick":
            continue
        me = msg["params"]["players"]["i"]
        pos = cell(me["position"])
        heading = me["direction"] or heading
        home = {cell(t) for t in me["territory"]}
        trail = {cell(t) for t in me["lines"]}
        others = [cell(p["position"]) for k, p in msg["params"]["players"].items() if k != "i"]
        if pos in home and not trail and phase not in ("home", "leave"):
            phase = "home"
        if phase == "home":
            choices = [d for d in DIRS if not heading or d != REVERSE[heading]]

            def openness(d):
                # Open space beyond the border of home, close by, away
                # from the others.
                dx, dy = DIRS[d]
                inside_home, c = 0, (pos[0] + dx, pos[1] + dy)
                while c in home:
                    inside_home, c = inside_home + 1, (c[0] + dx, c[1] + dy)
                ahead = (c[0] + 2 * dx, c[1] + 2 * dy)
                near = min((abs(o[0] - ahead[0]) + abs(o[1] - ahead[1]) for o in others), default=99)
                return min(room(pos, d) - inside_home, 8) - inside_home + min(near, 8)

            out_dir, phase, count = max(choices, key=openness), "leave", 0
        if trail and phase != "return" and any(
                abs(o[0] - t[0]) + abs(o[1] - t[1]) <= args.safety for o in others for t in trail | {pos}):
            phase = "return"
        if phase == "leave" and pos not in home:
            phase, count = "out", 1
        elif phase == "out":
            count += 1
            if count > args.out:
                phase, count, out_dir = "side", 1, RIGHT_OF[out_dir]
        elif phase == "side":
            count += 1
            if count > args.side:
                phase = "return"
        move = out_dir
        if phase == "return":
            move = path_home(pos, heading, home, trail)
        dx, dy = DIRS[move] if move else (0, 0)
        nxt = (pos[0] + dx, pos[1] + dy)
        if move is None or not inside(nxt) or nxt in trail or (heading and move == REVERSE[heading]):
            phase = "return"
            move = path_home(pos, heading, home, trail) or heading or "up"
        heading = move
        print(json.dumps({"command": move}), flush=True)


if __name__ == "__main__":
    main()
