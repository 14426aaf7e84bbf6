"""How long each attack of the server's second review (issue 51) holds the event loop, seen from outside.

A ping probe asks ``GET /healthz`` every 10 ms on a connection of its own while one attack runs, and reports
the worst and the 99th-percentile answer time: every table of the process waits as long as the probe does.
Bounded in count and time, loopback only. Against a server started separately, e.g.::

    python3 -m canasta.cli serve --port 8731 --database /tmp/probe.db --bot-delay 0 &
    python3 examples/loop_probe.py --base http://127.0.0.1:8731 --seconds 10 [--record big-record.txt]

Attacks: ``replay-brackets`` (8 clients posting 1 MB of ``[]`` to /api/replay, again and again),
``ws-brackets`` (4 sockets of one address, each sending 4,096 characters of ``[]`` at 50 a second),
``replay-record`` (a long valid record, e.g. 9,200 actions, replayed in a loop by 2 clients; give ``--record``),
``nul-id`` (``/api/games/%00`` and friends: the status codes), ``spectators`` (24 spectator sockets from one
address, then seat 0: welcomed or not), ``idle`` (no attack: the probe alone).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

Attack = Callable[[str, float, dict[str, Any]], Awaitable[None]]


def probe(base: str, stop: Any, out: Any, every: float = 0.01) -> None:
    """Answer times of /healthz (ms) until ``stop`` is set, put on ``out``. A process of its own, so that the
    attackers' work in this one (reading 7 MB answers) does not delay the probe's own clock."""
    times: list[float] = []
    with httpx.Client(base_url=base, timeout=60) as http:
        while not stop.is_set():
            start = time.perf_counter()
            http.get("/healthz")
            times.append((time.perf_counter() - start) * 1000)
            time.sleep(every)
    out.put(times)


async def replay_brackets(base: str, seconds: float, notes: dict[str, Any]) -> None:
    body = b"[" + b"[]," * 333_000 + b"[]]"  # 1 MB
    codes: list[int] = []

    async def one() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                r = await http.post("/api/replay", content=body, headers={"content-type": "application/json"})
                codes.append(r.status_code)

    await asyncio.gather(*(one() for _ in range(8)))
    notes["requests"], notes["codes"] = len(codes), sorted(set(codes))


async def new_game(base: str, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        body: dict[str, Any] = {"players": 2}
        if seats is not None:
            body["seats"] = seats
        game: dict[str, Any] = (await http.post("/api/games", json=body)).json()
        return game


async def ws_brackets(base: str, seconds: float, notes: dict[str, Any]) -> None:
    game = await new_game(base)
    message = "[" + "[]," * 1364 + "[]]"  # 4,096 characters
    answers: list[str] = []

    async def one() -> None:
        async with websockets.connect(base.replace("http", "ws") + f"/ws/{game['id']}", max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello", "token": game["tokens"]["0"], "since": 0}))
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                await ws.send(message)
                await asyncio.sleep(0.02)  # 50 a second, the per-socket rate
            await ws.send(json.dumps({"type": "ping", "id": "last"}))
            while True:  # every answer until the last ping's
                reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if reply.get("type") == "error":
                    answers.append(reply["code"])
                if reply.get("type") == "pong":
                    return

    await asyncio.gather(*(one() for _ in range(4)))
    notes["sent"] = int(4 * seconds * 50)
    notes["answers"] = {code: answers.count(code) for code in sorted(set(answers))}


RECORD: dict[str, str] = {}


async def replay_record(base: str, seconds: float, notes: dict[str, Any]) -> None:
    record = RECORD.get("text")
    if record is None:
        notes["skipped"] = "give --record FILE"
        return
    codes: list[int] = []

    async def one() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                codes.append((await http.post("/api/replay", json={"record": record})).status_code)

    await asyncio.gather(*(one() for _ in range(2)))
    notes["requests"], notes["codes"] = len(codes), sorted(set(codes))


async def nul_id(base: str, seconds: float, notes: dict[str, Any]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for method, path in (("GET", "/api/games/%00"), ("GET", "/api/games/a%00b/record"),
                             ("POST", "/api/games/a%00b/join"), ("POST", "/api/games/a%00b/rematch")):
            r = await http.request(method, path, json={"seat": 0, "invite": "x"})
            notes[f"{method} {path}"] = f"{r.status_code} {r.json().get('code')}"
    async with websockets.connect(base.replace("http", "ws") + "/ws/a%00b") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        notes["ws /ws/a%00b"] = json.loads(await asyncio.wait_for(ws.recv(), 10)).get("code")


async def spectators(base: str, seconds: float, notes: dict[str, Any]) -> None:
    game = await new_game(base, [{"kind": "me"}, {"kind": "computer", "level": "basic"}])
    url = base.replace("http", "ws") + f"/ws/{game['id']}"
    opened, answers = [], []
    try:
        for _ in range(24):
            ws = await websockets.connect(url)
            opened.append(ws)
            await ws.send(json.dumps({"type": "hello", "since": 0}))
            answers.append(json.loads(await asyncio.wait_for(ws.recv(), 10)).get("code", "welcome"))
        async with websockets.connect(url) as player:
            await player.send(json.dumps({"type": "hello", "token": game["tokens"]["0"], "since": 0}))
            notes["seat 0"] = json.loads(await asyncio.wait_for(player.recv(), 10)).get("code", "welcome")
    finally:
        for ws in opened:
            await ws.close()
    notes["spectators"] = {code: answers.count(code) for code in sorted(set(answers))}


async def idle(base: str, seconds: float, notes: dict[str, Any]) -> None:
    await asyncio.sleep(seconds)


ATTACKS: dict[str, Attack] = {"idle": idle, "replay-brackets": replay_brackets, "ws-brackets": ws_brackets,
                              "replay-record": replay_record, "nul-id": nul_id, "spectators": spectators}


async def run(base: str, name: str, seconds: float, record: str | None) -> dict[str, Any]:
    stop, out = multiprocessing.Event(), multiprocessing.Queue()
    pinging = multiprocessing.Process(target=probe, args=(base, stop, out))
    pinging.start()
    notes: dict[str, Any] = {}
    if record is not None:
        RECORD["text"] = record
    await asyncio.sleep(0.5)
    try:
        await asyncio.wait_for(ATTACKS[name](base, seconds, notes), seconds + 120)
    finally:
        stop.set()
    times: list[float] = out.get(timeout=60)
    pinging.join(10)
    p99 = statistics.quantiles(times, n=100, method="inclusive")[98] if len(times) >= 2 else max(times)
    return {"attack": name, "probes": len(times), "max_ms": round(max(times), 1), "p99_ms": round(p99, 1), **notes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="http://127.0.0.1:8731")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--record", help="a long valid record for replay-record")
    parser.add_argument("attacks", nargs="*", default=list(ATTACKS))
    args = parser.parse_args()
    record = Path(args.record).read_text() if args.record else None
    for name in args.attacks:
        print(json.dumps(asyncio.run(run(args.base, name, args.seconds, record))), flush=True)


if __name__ == "__main__":
    main()
