"""A deliberately broken protocol engine, for testing the client's errors and timeouts.

    python tests/engines/faulty.py MODE

MODE is one of:
  good              answers go with pass (or $FAULTY_MOVE): a sane baseline
  crash-on-go       exits with status 3 when it receives go
  hang-after-go     stops answering anything once it receives go
  illegal-bestmove  answers go with f1, ardennes notation but illegal at the start
                    (rearmost-to-front needs two units on the road)
  nonsense-bestmove answers go with a word that is no notation at all
  garbage           answers every command with binary junk
  slow-handshake    waits 30 s before finishing the handshake
  error-on-newgame  refuses every newgame with an error line

It knows no rules and implements only ard, isready, newgame (silently), go and quit.
"""
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def handshake() -> None:
    if MODE == "slow-handshake":
        time.sleep(30)
    say("id name faulty-" + MODE)
    say("id author ardsearch tests")
    say("protocol 1")
    say("game ardennes 000000000000")
    for name in ("Threads", "Hash", "Seed", "MultiPV"):
        say(f"option name {name} type spin default 1 min 1 max 1024")
    say("option name Algorithm type combo default auto var auto var mcts var ismcts var expectimax")
    say("option name Exploration type string default 1.4")
    say("option name Preset type string default <empty>")
    say("ardok")


def main() -> int:
    for raw in sys.stdin.buffer:
        if MODE == "garbage":
            sys.stdout.buffer.write(b"\xff\xfe\x00garbage\x81\x82\n")
            sys.stdout.flush()
            continue
        words = raw.decode("ascii", "replace").split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "ard":
            handshake()
        elif cmd == "isready":
            say("readyok")
        elif cmd == "quit":
            return 0
        elif cmd == "newgame" and MODE == "error-on-newgame":
            say("error unknown-game this engine refuses every game")
        elif cmd == "go":
            if MODE == "crash-on-go":
                return 3
            if MODE == "hang-after-go":
                time.sleep(3600)
            say("info depth 1 nodes 1 nps 1 time 0 wp 0.5")
            if MODE == "illegal-bestmove":
                say("bestmove f1")
            elif MODE == "nonsense-bestmove":
                say("bestmove xyzzy")
            else:
                say("bestmove " + os.environ.get("FAULTY_MOVE", "pass"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
