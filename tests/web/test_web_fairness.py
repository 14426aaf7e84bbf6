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
from canasta.record import (
    COMMITTED_TAGS,
    PRACTICE,
    Fairness,
    RecordError,
    export_record,
    parse_record,
    replay_record,
    seed_commitment,
    verify_record,
)
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
    parsed = parse_record(record).tags
    setup = {name: parsed[name] for name in COMMITTED_TAGS}
    assert seed_commitment(parsed["Seed"], parsed["Salt"], setup) == shown["commitment"]
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
    tags = parse_record(record).tags
    refit = seed_commitment(other_seed, tags["Salt"], {name: tags[name] for name in COMMITTED_TAGS})
    forged = forged.replace(shown["commitment"], refit)
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


# ------------------------------------------------------------ issue 51 item 4: --verify proves what it says
def played(seed: int | str) -> Game:
    game = Game("classic", 2, seed, SHORT)
    from canasta.players import get_player

    bots = [get_player("basic", seed=s) for s in range(2)]
    while not game.is_over:
        game.apply(bots[game.actor].choose(game.observation(game.actor), game.legal_actions()))
    return game


def test_a_salt_with_a_colon_cannot_move_the_seed() -> None:
    """With ``salt:seed``, the commitment to seed ``x:42`` with salt S is the one to seed ``42`` with salt ``S:x``:
    such a record passed --verify. The salt's format is checked now (32 hex digits, or v2- and 32)."""
    salt = "0123456789abcdef0123456789abcdef"
    published = hashlib.sha256(f"{salt}:x:42".encode()).hexdigest()  # what the table showed: seed "x:42"
    record = export_record(played(42), fairness=Fairness(salt=f"{salt}:x", commitment=published))
    with pytest.raises(RecordError, match="salt is not valid"):
        verify_record(record, published)
    with pytest.raises(ValueError, match="32 hex digits"):
        seed_commitment("42", f"{salt}:x")


def test_records_of_the_first_commitments_still_verify() -> None:
    salt = "0123456789abcdef0123456789abcdef"
    commitment = hashlib.sha256(f"{salt}:7".encode()).hexdigest()
    out = verify_record(export_record(played(7), fairness=Fairness(salt=salt, commitment=commitment)), commitment)
    assert out.startswith(f"verified: {commitment} is the commitment you were shown") and "the seed only" in out


def test_verify_checks_the_commitment_the_player_was_shown(service: GameService, tmp_path: Path) -> None:
    """--verify accepted any self-consistent record: a forger writes the commitment to fit. ``--commitment``
    takes the one the table showed at the start; without it, the output says what it did not check."""
    record, shown = finished_record(service)
    other, _ = finished_record(service)  # another real game: consistent, but not the one this player saw
    assert "is the record's own Commitment tag" in verify_record(other)
    with pytest.raises(RecordError, match="not the game you were shown"):
        verify_record(other, shown["commitment"])
    out = verify_record(record, shown["commitment"].upper())
    assert "is the commitment you were shown" in out and "not covered: Names, Date" in out
    assert "committed: the seed, Variant, RulesVersion, Rules, Players, Shuffle" in out
    with pytest.raises(RecordError, match="64 hex digits"):
        verify_record(record, "xyz")
    for text, commitment, code in ((record, shown["commitment"], 0), (other, shown["commitment"], 2)):
        path = tmp_path / "game.txt"
        path.write_text(text)
        result = CliRunner().invoke(cli_app, ["replay", "--verify", "--commitment", commitment, str(path)])
        assert result.exit_code == code, result.output
    assert shown["commitment"] in shown["verify"]  # the table says how, with this game's commitment


def test_the_commitment_binds_the_tables_setup() -> None:
    setup = {"Variant": "classic", "RulesVersion": "1", "Rules": "{}", "Players": "2", "Shuffle": "hmac-sha256"}
    salt = "v2-" + "0" * 32
    assert seed_commitment("42", salt, setup) != seed_commitment("42", salt, {**setup, "Players": "4"})
    with pytest.raises(ValueError, match="binds the tags"):
        seed_commitment("42", salt)
