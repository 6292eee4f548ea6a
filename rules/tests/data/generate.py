#!/usr/bin/env python3
"""Writes Makruk games refereed by Fairy-Stockfish in the formats of README.md beside this file.

Needs pyffish (`pip install pyffish==0.0.90`, the version the files here were made with).

    generate.py standard    --games N --seed S --prefix ID --out FILE   random games, captures preferred
    generate.py mates       --games N --seed S --prefix ID --out FILE [--engine PATH]
                                                    one side plays for mate
    generate.py traditional --games N --seed S --prefix ID --out FILE   pawnless, counts on request
    generate.py verify FILE[.gz]   re-describes every recorded game and reports any difference

Games start from the initial position or from a random legal endgame. In games-mates-public a
Fairy-Stockfish engine played one side; pyffish has no search, so `mates` asks the UCI engine
given by `--engine` (e.g. /usr/games/fairy-stockfish of Debian's `fairy-stockfish` package) or,
without one, plays a greedy attacker (mate at once, else the biggest capture, else a check). Who
picks the moves does not matter for the data: pyffish describes every position either way.
Output goes to a file because pyffish prints its FEN diagnostics on standard output.
"""

import argparse
import gzip
import json
import random
import subprocess
import sys

import pyffish as sf

VARIANT = "makruk"
START = sf.start_fen(VARIANT)
# Piece values for the capture preference (and the greedy attacker): Ruea, Ma, Khon, Met.
VALUE = {"r": 5, "n": 3, "s": 2.5, "m": 2, "p": 1}


def fen_of(start, moves, count_started=0):
    """The FEN after `moves`, with the promoted marker, as the data files write it."""
    return sf.get_fen(VARIANT, start, moves, False, False, True, count_started)


def describe_standard(start, moves):
    """The `plies` entries of a `standard` game: one per position, the move played from it."""
    plies = []
    for i in range(len(moves) + 1):
        done = moves[:i]
        entry = {
            "fen": fen_of(start, done),
            "legal": sorted(sf.legal_moves(VARIANT, start, done)),
            "check": sf.gives_check(VARIANT, start, done),
            "immediate": list(sf.is_immediate_game_end(VARIANT, start, done)),
            "optional": list(sf.is_optional_game_end(VARIANT, start, done)),
            "insufficient": list(sf.has_insufficient_material(VARIANT, start, done)),
        }
        if i < len(moves):
            fen = entry["fen"]
            entry["uci"] = moves[i]
            entry["san"] = sf.get_san(VARIANT, fen, moves[i], False, sf.NOTATION_SAN)
            entry["thai_san"] = sf.get_san(VARIANT, fen, moves[i], False, sf.NOTATION_THAI_SAN)
        plies.append(entry)
    return plies


def game_ply(fen):
    """Fairy-Stockfish's game ply of a FEN: from its fullmove number and side to move."""
    fields = fen.split()
    return 2 * (int(fields[-1]) - 1) + (fields[1] == "b")


def count_started_by_ply(start, events, length):
    """pychess's `countStarted` for each position: -1 while no count was requested, the game
    ply after the request + 1 once one is started, -1 again once it is stopped."""
    by_ply = {e["ply"]: e["action"] for e in events}
    state, out = -1, []
    for i in range(length):
        action = by_ply.get(i)
        if action == "start":
            state = game_ply(start) + i + 1
        elif action == "stop":
            state = -1
        out.append(state)
    return out


def describe_traditional(start, moves, events):
    """The `plies` entries of a `traditional` game (FEN, legal moves, `optional`)."""
    started = count_started_by_ply(start, events, len(moves) + 1)
    plies = []
    for i in range(len(moves) + 1):
        done = moves[:i]
        plies.append({
            "fen": fen_of(start, done, started[i]),
            "legal": sorted(sf.legal_moves(VARIANT, start, done)),
            "optional": list(sf.is_optional_game_end(VARIANT, start, done, False, started[i])),
        })
    return plies


def random_endgame(rng, pawns):
    """A random legal position with a few pieces a side (Bia only if `pawns`; without them
    every side has a piece besides its Khun, so that board's honour can be counted), side to
    move random, the side not to move not in check."""
    while True:
        board = {}
        squares = [(f, r) for f in range(8) for r in range(8)]
        rng.shuffle(squares)
        wk, bk = squares.pop(), squares.pop()
        if max(abs(wk[0] - bk[0]), abs(wk[1] - bk[1])) < 2:
            continue
        board[wk], board[bk] = "K", "k"
        for color in (str.upper, str.lower):
            for _ in range(rng.randint(0 if pawns else 1, 3)):
                kind = rng.choice(["R", "N", "S", "M", "M~"] + (["P", "P"] if pawns else []))
                sq = squares.pop()
                # A Bia stands between its third and fifth rank (it is promoted on its sixth).
                if kind == "P" and not (2 <= (sq[1] if color is str.upper else 7 - sq[1]) <= 4):
                    continue
                board[sq] = color(kind[0]) + kind[1:]
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                piece = board.get((f, r))
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row, empty = row + str(empty), 0
                row += piece
            rows.append(row + (str(empty) if empty else ""))
        side = rng.choice("wb")
        fen = "/".join(rows) + f" {side} - - 0 1"
        other = fen.replace(f" {side} ", " b " if side == "w" else " w ")
        if sf.validate_fen(fen, VARIANT) != sf.FEN_OK or sf.gives_check(VARIANT, other, []):
            continue
        if not sf.legal_moves(VARIANT, fen, []):
            continue
        return fen_of(fen, [])


def captured_value(start, moves, move):
    """The value of the piece `move` captures (0 if none)."""
    if not sf.is_capture(VARIANT, start, moves, move):
        return 0
    board = fen_of(start, moves).split()[0].replace("~", "")
    rows = [r for r in board.split("/")]
    file, rank = ord(move[2]) - ord("a"), int(move[3])
    row = "".join("." * int(c) if c.isdigit() else c for c in rows[8 - rank])
    return VALUE.get(row[file].lower(), 0)


def random_move(rng, start, moves, legal):
    """A random move; a capture two times in three when there is one."""
    captures = [m for m in legal if sf.is_capture(VARIANT, start, moves, m)]
    if captures and rng.random() < 2 / 3:
        return rng.choice(captures)
    return rng.choice(legal)


def greedy_move(rng, start, moves, legal):
    """Mate at once if possible, else the biggest capture, else a check, else random."""
    best, best_key = [], None
    for m in legal:
        after = moves + [m]
        if not sf.legal_moves(VARIANT, start, after) and sf.gives_check(VARIANT, start, after):
            return m
        key = (captured_value(start, moves, m), sf.gives_check(VARIANT, start, after))
        if best_key is None or key > best_key:
            best, best_key = [m], key
        elif key == best_key:
            best.append(m)
    return rng.choice(best)


class Engine:
    """A UCI engine playing Makruk: `move` returns its choice after `movetime_ms`."""

    def __init__(self, path, movetime_ms=20):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.movetime_ms = movetime_ms
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name UCI_Variant value makruk")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait_for(self, prefix):
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line.split()
        raise RuntimeError("the engine stopped")

    def move(self, rng, start, moves, legal):
        self.send(" ".join([f"position fen {start}"] + (["moves"] + moves if moves else [])))
        self.send(f"go movetime {self.movetime_ms}")
        best = self.wait_for("bestmove")[1]
        return best if best in legal else rng.choice(legal)


def play_standard(rng, gid, attacker_move=None):
    """One `standard` game; with `attacker_move`, one side (chosen at random) plays by it."""
    start = START if rng.random() < 0.5 else random_endgame(rng, pawns=True)
    max_plies = rng.choice([100, 200, 300, 400])
    attacker = rng.choice("wb")
    moves, end = [], "max_plies"
    while len(moves) < max_plies:
        legal = sf.legal_moves(VARIANT, start, moves)
        if not legal:
            end = "no_legal_moves"
            break
        if sf.is_immediate_game_end(VARIANT, start, moves)[0]:
            end = "immediate"
            break
        # A claimable draw: the game usually plays on, as Fairy-Stockfish leaves it to a claim.
        if sf.is_optional_game_end(VARIANT, start, moves)[0] and rng.random() < 0.05:
            end = "optional"
            break
        side = fen_of(start, moves).split()[1]
        pick = attacker_move if attacker_move and side == attacker else random_move
        moves.append(pick(rng, start, moves, legal))
    return {
        "id": gid,
        "start": start,
        "moves": moves,
        "plies": describe_standard(start, moves),
        "result": sf.game_result(VARIANT, start, moves),
        "end": end,
    }


def play_traditional(rng, gid):
    """One pawnless `traditional` game with counts started and stopped at random."""
    start = random_endgame(rng, pawns=False)
    max_plies = rng.choice([50, 100, 200])
    moves, events, counting = [], [], False
    while len(moves) < max_plies:
        legal = sf.legal_moves(VARIANT, start, moves)
        if not legal:
            break
        board = fen_of(start, moves).split()[0]
        both_have_pieces = all(
            any(c.isalpha() and c.lower() != "k" and test(c) for c in board)
            for test in (str.isupper, str.islower)
        )
        if both_have_pieces and not counting and rng.random() < 0.1:
            events.append({"ply": len(moves), "action": "start"})
            counting = True
        elif counting and rng.random() < 0.05:
            events.append({"ply": len(moves), "action": "stop"})
            counting = False
        moves.append(random_move(rng, start, moves, legal))
    return {
        "id": gid,
        "start": start,
        "moves": moves,
        "events": events,
        "plies": describe_traditional(start, moves, events),
    }


def verify(path):
    """Re-describes every game of `path` with this pyffish; returns the number that differ."""
    opener = gzip.open if path.endswith(".gz") else open
    differ = 0
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            g = json.loads(line)
            if "events" in g:
                want = describe_traditional(g["start"], g["moves"], g["events"])
            else:
                want = describe_standard(g["start"], g["moves"])
            if want != g["plies"]:
                differ += 1
                first = next(i for i, (a, b) in enumerate(zip(want, g["plies"])) if a != b)
                print(f"{g['id']}: differs from ply {first}", file=sys.stderr)
    return differ


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=["standard", "mates", "traditional", "verify"])
    parser.add_argument("file", nargs="?", help="verify: the file to check")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--prefix", default="x1")
    parser.add_argument("--out", help="the JSONL file to write")
    parser.add_argument("--engine", help="mates: a UCI engine that plays the attacking side")
    args = parser.parse_args()
    if args.kind == "verify":
        if not args.file:
            parser.error("verify needs a file")
        differ = verify(args.file)
        print(f"{differ} games differ", file=sys.stderr)
        return 1 if differ else 0
    if not args.out:
        parser.error("--out is required (pyffish writes diagnostics to standard output)")
    rng = random.Random(args.seed)
    attacker_move = None
    if args.kind == "mates":
        attacker_move = Engine(args.engine).move if args.engine else greedy_move
    with open(args.out, "w", encoding="utf-8") as out:
        for n in range(args.games):
            gid = f"{args.prefix}-g{n}"
            if args.kind == "traditional":
                game = play_traditional(rng, gid)
            else:
                game = play_standard(rng, gid, attacker_move)
            out.write(json.dumps(game, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
