"""Fair shuffles: secret 128-bit seeds, a commitment published at the start, the seed revealed at the end.

The attack (issue 20, item 2): seeds were ``secrets.randbelow(10**9)`` (~30 bits) shuffled by
``Random(f"{seed}/{k}")``, so seat 0's 11 cards gave the seed by search; a creator could also choose
the seed without the invitees being told.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from web_helpers import Server

from canasta.cli import app as cli_app
from canasta.engine import chance
from canasta.engine.game import Game
from canasta.record import PRACTICE, RecordError, replay_record, seed_commitment, verify_record
from canasta.web.service import GameService

COMPUTERS = [{"kind": "computer"}, {"kind": "computer"}]
SHORT = {"target_score": 50}  # one hand of two computers: about a hundred actions


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    return GameService(f"sqlite:///{tmp_path / 'fair.db'}")


def finished_record(service: GameService, seed: str | None = None) -> tuple[str, dict[str, Any]]:
    """Two computers play a short game to its end; its record and the fairness shown at the start."""
    gid = service.create_game(variant="classic", players=2, seed=seed, rules=SHORT, seats=COMPUTERS)["id"]
    live = service.get(gid)
    shown = service.fairness(live)
    assert shown is not None
    while service.bot_move(live):
        pass
    assert live.game.is_over
    return service.record(live, None), shown


# ----------------------------------------------------------------- the engine's chance
def test_hmac_stream_is_hmac_sha256_counter_mode_with_rejection() -> None:
    """The documented construction, recomputed independently of canasta.engine.chance."""
    seed, label = "00112233445566778899aabbccddeeff", "1"
    block = hmac.new(seed.encode(), label.encode() + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    pool = int.from_bytes(block, "big")
    draws = []
    for _ in range(20):  # below(108): 7 bits at a time, values >= 108 rejected
        value, pool = pool & 127, pool >> 7
        if value < 108:
            draws.append(value)
    stream = chance.HmacStream(seed, label)
    assert [stream.below(108) for _ in range(len(draws))] == draws


def test_hmac_shuffle_is_a_reproducible_permutation_unlike_the_old_one() -> None:
    seed = "0123456789abcdef0123456789abcdef"
    a, b = Game("classic", 4, seed, shuffle=chance.HMAC_SHA256), Game("classic", 4, seed, shuffle=chance.HMAC_SHA256)
    assert a.to_dict()["stock"] == b.to_dict()["stock"] and a.deals == b.deals
    assert a.deals != Game("classic", 4, seed).deals  # the scheme, not only the seed, decides the deal
    deck = list(range(108))
    chance.stream(chance.HMAC_SHA256, seed, "x").shuffle(deck)
    assert sorted(deck) == list(range(108)) and deck != list(range(108))
    # a saved position keeps its scheme
    assert Game.from_dict(a.to_dict()).shuffle == chance.HMAC_SHA256


def test_unknown_shuffle_is_a_clear_error() -> None:
    from canasta.errors import OptionError

    with pytest.raises(OptionError, match="shuffle must be one of"):
        Game("classic", 4, 1, shuffle="dice")


# ----------------------------------------------------------------------- server seeds
def test_server_seeds_have_128_secret_bits(service: GameService) -> None:
    seeds = set()
    for _ in range(5):
        live = service.get(service.create_game(variant="classic", players=2, seed=None, rules={}, seats=COMPUTERS)["id"])
        assert isinstance(live.seed, str) and len(live.seed) >= 32
        assert int(live.seed, 16) >= 0  # 32 hex digits: 128 bits
        assert live.game.shuffle == chance.HMAC_SHA256
        fair = service.fairness(live)
        assert fair is not None and not fair["practice"] and fair["notice"] is None
        assert "seed" not in fair and "salt" not in fair and live.seed not in str(fair)
        seeds.add(live.seed)
    assert len(seeds) == 5


def test_finished_record_reveals_a_seed_that_matches_the_commitment(service: GameService, tmp_path: Path) -> None:
    record, shown = finished_record(service)
    out = verify_record(record)
    assert out.startswith("verified:") and shown["commitment"] in out
    tags = dict(line[1:-1].split(" ", 1) for line in record.splitlines() if line.startswith("["))
    assert tags["Commitment"] == f'"{shown["commitment"]}"'
    assert seed_commitment(tags["Seed"].strip('"'), tags["Salt"].strip('"')) == shown["commitment"]
    # the command line: exit 0 on the real record
    path = tmp_path / "game.txt"
    path.write_text(record)
    result = CliRunner().invoke(cli_app, ["replay", "--verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output


def test_verify_refuses_a_seed_other_than_the_committed_one(service: GameService, tmp_path: Path) -> None:
    record, shown = finished_record(service)
    seed = next(line for line in record.splitlines() if line.startswith("[Seed "))
    other_seed = "f" * 32
    # a different seed with its own commitment: the commitment no longer matches the published one
    forged = record.replace(seed, f'[Seed "{other_seed}"]')
    with pytest.raises(RecordError, match="commitment does not match"):
        verify_record(forged)
    # a record whose commitment was replaced to fit another seed: it matches, but the deals do not replay
    salt = next(line for line in record.splitlines() if line.startswith("[Salt ")).split('"')[1]
    forged = forged.replace(shown["commitment"], seed_commitment(other_seed, salt))
    with pytest.raises(RecordError):
        verify_record(forged)
    path = tmp_path / "forged.txt"
    path.write_text(record.replace(seed, f'[Seed "{other_seed}"]'))
    result = CliRunner().invoke(cli_app, ["replay", "--verify", str(path)])
    assert result.exit_code != 0 and "commitment does not match" in result.output


def test_running_record_keeps_the_commitment_and_hides_seed_and_salt(service: GameService) -> None:
    gid = service.create_game(variant="classic", players=2, seed=None, rules={},
                              seats=[{"kind": "me"}, {"kind": "computer"}])["id"]
    live = service.get(gid)
    text = service.record(live, 0)
    assert "[Commitment " in text and "[Seed " not in text and "[Salt " not in text
    with pytest.raises(RecordError, match="redacted records have no seed"):
        verify_record(text)


def test_old_records_still_replay_and_say_they_carry_no_commitment() -> None:
    game = Game("classic", 2, 5)
    from canasta.record import export_record

    text = export_record(game)
    assert "[Format " not in text and "[Shuffle " not in text  # a format-1 record, as before
    assert replay_record(text).deals == game.deals
    with pytest.raises(RecordError, match="no \\[Commitment"):
        verify_record(text)
    # a record of a newer format is refused by name
    with pytest.raises(RecordError, match="record format 9"):
        replay_record('[Format "9"]\n' + text)


def test_chosen_seed_is_marked_practice_in_record(service: GameService) -> None:
    record, shown = finished_record(service, seed="42")
    assert shown["practice"] and shown["notice"] == PRACTICE
    assert f'[Practice "{PRACTICE}"]' in record
    assert "note: practice" in verify_record(record)
    # a chosen seed deals as `canasta play --seed 42` does
    assert replay_record(record).deals[0] == Game("classic", 2, 42, SHORT).deals[0]


# ---------------------------------------------------------- every seat is told, over the wire
def test_every_seat_and_spectator_is_told_the_seed_was_chosen(tmp_path: Path,
                                                              make_server: Callable[..., Server]) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'w.db'}")
    with server.http() as http:
        game = http.post("/api/games", json={"players": 2, "seed": "7",
                                             "seats": [{"kind": "me"}, {"kind": "invite"}]}).json()
        gid = game["id"]
        token1 = http.post(f"/api/games/{gid}/join", json={"seat": 1, "invite": game["invites"]["1"]}).json()["token"]
        over_rest = http.get(f"/api/games/{gid}", headers={"X-Seat-Token": token1}).json()
        fair = http.post("/api/games", json={"players": 2}).json()
        fair_rest = http.get(f"/api/games/{fair['id']}").json()
    assert over_rest["fairness"]["practice"] is True and over_rest["fairness"]["notice"] == PRACTICE
    assert fair_rest["fairness"]["practice"] is False and len(fair_rest["fairness"]["commitment"]) == 64
    for token in (game["tokens"]["0"], token1, None):
        ws = server.ws(gid, token)
        welcome = ws.until(lambda m: m.get("type") == "welcome")
        assert welcome["fairness"]["practice"] is True and welcome["fairness"]["notice"] == PRACTICE
        assert welcome["fairness"]["commitment"] == over_rest["fairness"]["commitment"]
        ws.close()
