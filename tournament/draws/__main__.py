"""``python -m tournament.draws --players N --sessions S [--seed K] [--clubs C | --teams T]
[--substitutes K] [--fixed P:T ...] [--json]``

Plans a whole tournament with the same algorithm the web uses.  Players are numbered
1..N; with ``--clubs C`` player p belongs to club ((p - 1) mod C) + 1, with ``--teams T``
players 1..T form team 1, T+1..2T team 2 and so on; clubmates or teammates are kept apart.
``--substitutes K`` adds substitutes N+1..N+K, seated (one per table) when N is not a
multiple of 4; without enough of them such an N is an error (exit status 2).  ``--seed``
defaults to 0.  ``--fixed P:T`` (repeatable) gives player P table T in every session (access needs): the
tables are numbered around them.  ``--json`` prints ``{"sessions": [[[E, S, W, N], ...], ...]}`` (and
``"substitutes"`` when there are some); otherwise a table listing and the quality report.
"""

from __future__ import annotations

import argparse
import json
import sys

from .model import SEAT_WINDS, DrawError
from .plan import plan_tournament
from .report import quality_report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tournament.draws", description="Plan an MCR tournament seating.")
    ap.add_argument("--players", type=int, required=True, help="number of players, numbered 1..N")
    ap.add_argument("--sessions", type=int, required=True, help="number of sessions")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--clubs", type=int, default=0, help="C clubs: player p is in club ((p-1) mod C)+1")
    ap.add_argument("--teams", type=int, default=0, help="teams of T: players 1..T, T+1..2T, ...")
    ap.add_argument("--substitutes", type=int, default=0, help="K substitutes, numbered N+1..N+K")
    ap.add_argument("--fixed", action="append", default=[], metavar="P:T",
                    help="player P keeps table T in every session (repeatable)")
    ap.add_argument("--json", action="store_true", help="print the schedule as JSON")
    args = ap.parse_args(argv)
    fixed = {}
    for item in args.fixed:
        player, _, table = item.partition(":")
        if not (player.isdigit() and table.isdigit() and 1 <= int(player) <= args.players + args.substitutes):
            print(f"error: --fixed {item}: give a player number and a table number, e.g. --fixed 5:1",
                  file=sys.stderr)
            return 2
        fixed[int(player)] = int(table)
    need = -args.players % 4
    if args.players <= 0 or args.substitutes < need:
        print(f"error: {args.players} players cannot fill tables of four: add --substitutes {max(need, 1)} "
              "or more", file=sys.stderr)
        return 2
    if args.substitutes < 0 or args.teams < 0 or (args.teams and args.clubs):
        print("error: substitutes and teams cannot be negative; give --clubs or --teams, not both", file=sys.stderr)
        return 2
    if args.sessions < 0:
        print("error: the number of sessions cannot be negative", file=sys.stderr)
        return 2
    if args.clubs < 0:
        print("error: the number of clubs cannot be negative", file=sys.stderr)
        return 2
    players = list(range(1, args.players + 1))
    groups = {p: (p - 1) % args.clubs + 1 for p in players} if args.clubs else None
    if args.teams:
        groups = {p: (p - 1) // args.teams + 1 for p in players}
    substitutes = list(range(args.players + 1, args.players + args.substitutes + 1))
    try:
        schedule = plan_tournament(players, args.sessions, seed=args.seed, groups=groups, substitutes=substitutes,
                                   fixed=fixed)
    except DrawError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out: dict = {"sessions": [[list(t) for t in s] for s in schedule]}
        if substitutes:
            out["substitutes"] = substitutes
        print(json.dumps(out))
        return 0
    for si, session in enumerate(schedule, 1):
        print(f"Session {si}")
        for ti, t in enumerate(session, 1):
            seats = "  ".join(f"{w} {p:>4}{'*' if p in substitutes else ' '}" for w, p in zip(SEAT_WINDS, t, strict=True))
            print(f"  table {ti:>3}: {seats}")
    if substitutes:
        print("* substitute")
    print()
    print(quality_report(schedule, groups, substitutes).summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
