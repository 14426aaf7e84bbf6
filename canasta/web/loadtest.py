"""``canasta loadtest``: concurrent games of computer players over WebSockets.

Each game has every seat held by a client of this process, playing the random
player on what the server sends; the time from sending an action to its ack is
one round trip. Without ``--url`` a server is started on 127.0.0.1 (a separate
process, so client and server do not share an event loop; SQLite in a temporary
directory) and stopped afterwards.

Every table is created and every seat connected first; then the measured window
of ``seconds`` begins (only actions sent inside it count). Each seat waits a
random think time, uniform between half and one and a half times ``think``,
before acting, so the games do not act in step. Games that end are replaced by
new ones. A seat never sends faster than the server's per-connection message
rate (``canasta.web.app.RATE``): with ``--think 0`` a fast server would
otherwise refuse the excess as a flood, which is the limit working, not a fault.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from canasta.notation import format_action, parse_action
from canasta.players import get_player

#: the variant every load-test table plays (the server's default)
LOAD_VARIANT = "classic"


def _no_answer_needed(raw: str | bytes) -> bool:
    """An update with no legal actions for this seat, no winner and no pause at a hand's end: the load
    client need not parse it.

    (Three updates in four are other seats' moves; parsing them all made the client, not the
    server, the bottleneck of the measurement.)
    """
    return (isinstance(raw, str) and raw.startswith('{"type":"update"') and '"legal":[]' in raw
            and '"winner":null' in raw and '"pause":null' in raw)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.errors: dict[str, int] = {}
        self.games_started = 0
        self.games_finished = 0
        #: the measured window: round trips of actions sent inside it count
        self.window = (0.0, 0.0)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def measuring(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


async def _seat(url: str, game_id: str, seat: int, token: str, stats: Stats, go: asyncio.Event,
                think: float, rng: random.Random) -> bool:
    """Play one seat until the game ends or time is up. True when the game ended."""
    import websockets

    from canasta.web.app import RATE

    player = get_player("random", seed=f"{game_id}/{seat}")
    gap, last_sent = 1.0 / RATE, 0.0
    async with websockets.connect(f"{url.replace('http', 'ws', 1)}/ws/{game_id}", max_size=2**22,
                                  open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        await go.wait()
        pending: float | None = None
        clicked_on = 0  # the last hand whose end this seat clicked on from (every seat is a player's)
        try:
            async with asyncio.timeout_at(asyncio.get_running_loop().time() + stats.window[1] - time.monotonic()):
                async for raw in ws:
                    if _no_answer_needed(raw):
                        continue
                    message = json.loads(raw)
                    kind = message.get("type")
                    if kind == "ack" and pending is not None:
                        if stats.measuring(pending):
                            stats.rtts.append(time.monotonic() - pending)
                        pending = None
                    elif kind == "error":
                        stats.error(str(message.get("code")))
                        pending = None
                    elif kind == "update":
                        state = message["state"]
                        if state["obs"]["winner"] is not None:
                            return True
                        pause = state.get("pause")
                        if pause and seat in pause["waiting"] and pause["hand"] > clicked_on:
                            # the table waits at a hand's end for every player: click on, as a player would
                            clicked_on = pause["hand"]
                            wait = last_sent + gap - time.monotonic()
                            if wait > 0:
                                await asyncio.sleep(wait)
                            last_sent = time.monotonic()
                            await ws.send(json.dumps({"type": "next"}))
                        if state["legal"] and pending is None:
                            if think > 0:
                                # a random think time with mean ``think``: players are not in step with each other
                                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                            legal = [parse_action(t) for t in state["legal"]]
                            action = player.choose(state["obs"], legal)
                            wait = last_sent + gap - time.monotonic()
                            if wait > 0:  # stay within the server's message rate
                                await asyncio.sleep(wait)
                            pending = last_sent = time.monotonic()
                            await ws.send(json.dumps({"type": "action", "action": format_action(action),
                                                      "version": message["version"]}))
        except TimeoutError:
            return False
    return False


async def _create(http: Any, players: int, index: int, n: int) -> dict[str, Any]:
    body = {"players": players, "seed": f"load-{index}-{n}", "seats": [{"kind": "me"}] * players,
            "rules": {"target_score": 1}}
    r = await http.post("/api/games", json=body)
    if r.status_code != 200:
        try:
            why = r.json().get("message", r.text)
        except ValueError:
            why = r.text
        raise RuntimeError(f"the server refused to create a game ({r.status_code}): {why}")
    game: dict[str, Any] = r.json()
    return game


async def _slot(url: str, http: Any, players: int, stats: Stats, go: asyncio.Event, think: float, index: int,
                first: dict[str, Any]) -> None:
    rng = random.Random(index)
    game, n = first, 1
    while True:
        stats.games_started += 1
        done = await asyncio.gather(*(_seat(url, game["id"], s, game["tokens"][str(s)], stats, go, think, rng)
                                      for s in range(players)))
        if any(done):
            stats.games_finished += 1
        if time.monotonic() >= stats.window[1]:
            return
        game = await _create(http, players, index, n)
        n += 1


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _cpu_seconds(pid: int | None) -> float | None:
    """CPU time (user + system) of a process so far, from /proc (None where that cannot be read)."""
    if pid is None:
        return time.process_time()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _cpu_share(before: float | None, after: float | None, seconds: float) -> float | None:
    return None if before is None or after is None else round(100 * (after - before) / seconds, 1)


async def _run(url: str, games: int, seconds: float, players: int, think: float,
               server_pid: int | None = None) -> dict[str, Any]:
    """Set every game up (tables created, seats connected), then measure for ``seconds``."""
    import httpx

    stats = Stats()
    go = asyncio.Event()
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        setup = time.monotonic()
        gate = asyncio.Semaphore(16)

        async def create(i: int) -> dict[str, Any]:
            async with gate:
                return await _create(http, players, i, 0)

        firsts = await asyncio.gather(*(create(i) for i in range(games)))
        slots = [asyncio.create_task(_slot(url, http, players, stats, go, think, i, firsts[i])) for i in range(games)]
        await asyncio.sleep(min(5.0, 0.5 + games * players / 400))  # let the seats connect
        cpu = (_cpu_seconds(None), _cpu_seconds(server_pid) if server_pid is not None else None)
        start = time.monotonic()
        stats.window = (start, start + seconds)
        go.set()
        await asyncio.sleep(seconds)
        cpu_end = (_cpu_seconds(None), _cpu_seconds(server_pid) if server_pid is not None else None)
        await asyncio.gather(*slots)
    elapsed = time.monotonic() - start
    return {
        "games": games, "players": players, "seconds": round(seconds, 2), "setup_s": round(start - setup, 2),
        "games_started": stats.games_started, "games_finished": stats.games_finished,
        "actions": len(stats.rtts), "actions_per_s": round(len(stats.rtts) / seconds, 1),
        "rtt_p50_ms": round(_percentile(stats.rtts, 0.50) * 1000, 2),
        "rtt_p99_ms": round(_percentile(stats.rtts, 0.99) * 1000, 2),
        "rtt_max_ms": round(max(stats.rtts, default=0.0) * 1000, 2),
        "errors": stats.errors, "think_s": think, "elapsed_s": round(elapsed, 2),
        # share of one core used during the measured window (100 = one core busy throughout)
        "client_cpu_pct": _cpu_share(cpu[0], cpu_end[0], seconds),
        "server_cpu_pct": _cpu_share(cpu[1], cpu_end[1], seconds),
    }


def run_loadtest(games: int = 10, seconds: float = 10.0, players: int = 4, url: str | None = None,
                 think: float = 0.0) -> dict[str, Any]:
    """Run the load test; starts (and stops) a local server unless ``url`` is given."""
    if games < 1 or seconds <= 0:
        raise ValueError("games must be at least 1 and seconds positive")
    from canasta.variants import find_variant

    counts = find_variant(LOAD_VARIANT).player_counts
    if players not in counts:
        raise ValueError(f"{LOAD_VARIANT} is played by {', '.join(map(str, counts))} players, not {players}")
    if url is not None:
        return asyncio.run(_run(url.rstrip("/"), games, seconds, players, think))
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        log = Path(tmp) / "server.log"  # a file, not a pipe nobody reads: a chatty server must not block
        with log.open("wb") as err:
            proc = subprocess.Popen([sys.executable, "-m", "canasta.cli", "serve", "--port", str(port),
                                     "--database", str(Path(tmp) / "load.db"), "--bot-delay", "0",
                                     # one client making every table: the per-client limits are not under test
                                     "--games-per-minute", "0", "--sockets-per-client", "0",
                                     "--messages-per-second", "0"],
                                    stdout=subprocess.DEVNULL, stderr=err)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_up(base, proc, log)
            result = asyncio.run(_run(base, games, seconds, players, think, server_pid=proc.pid))
            result["server"] = "local (SQLite)"
            return result
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def _wait_up(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    import httpx

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text(errors='replace').strip()[-2000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.05)
    raise RuntimeError("the server did not start within 30 s")


def render_loadtest(result: dict[str, Any]) -> str:
    lines = [f"{result['games']} concurrent games of {result['players']} computer players for {result['seconds']} s"
             f" ({result['games_started']} started, {result['games_finished']} finished;"
             f" think time {result['think_s']} s on average; set up in {result['setup_s']} s)",
             f"actions: {result['actions']} ({result['actions_per_s']}/s)",
             f"round trip: p50 {result['rtt_p50_ms']} ms, p99 {result['rtt_p99_ms']} ms, max {result['rtt_max_ms']} ms"]
    if result.get("server_cpu_pct") is not None:
        lines.append(f"CPU during the window: server {result['server_cpu_pct']}% of a core, "
                     f"load client {result['client_cpu_pct']}%")
    if result["errors"]:
        lines.append("errors: " + ", ".join(f"{k} {v}" for k, v in sorted(result["errors"].items())))
    return "\n".join(lines)
