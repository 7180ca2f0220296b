#!/usr/bin/env python3
"""A minimal Paper.io bot (the runner's JSON-lines protocol, docs/protocol-paperio.md):
it walks a square loop out of its land and back, towards the middle of the map.

    gauntlet play --game paperio --case seed:1 --entrants simple \
        --entrant 'cmd:python3 examples/paperio-minimal/bot.py'
"""
import json
import sys

SIDE = 5  # cells on each side of the square
BACK = {"up": "down", "down": "up", "left": "right", "right": "left"}


def main():
    middle = (465, 465)  # pixels; start_game gives the map's size
    plan, step = [], 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "start_game":
            p = msg["params"]
            middle = (p["x_cells_count"] * p["width"] // 2, p["y_cells_count"] * p["width"] // 2)
        elif msg["type"] == "end_game":
            break
        elif msg["type"] == "tick":
            x, y = msg["params"]["players"]["i"]["position"]
            if not plan:
                # The first tick: head for the middle, then turn, so the
                # square stays on the map and ends where it began, at home.
                v = "up" if y < middle[1] else "down"
                h = "right" if x < middle[0] else "left"
                plan = [v] * SIDE + [h] * SIDE + [BACK[v]] * SIDE + [BACK[h]] * SIDE
            print(json.dumps({"command": plan[step % len(plan)]}), flush=True)
            step += 1


if __name__ == "__main__":
    main()
