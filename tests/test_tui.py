"""The terminal game, driven by scripted input.

The tests named ``test_item_N_...`` cover the numbered defects of issue 18 ("The terminal game, as
players tried it"); each failed on the terminal game as it was before.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from canasta.cards import format_card
from canasta.cli import app
from canasta.engine.actions import ASK, DISCARD, MELD, YES
from canasta.engine.game import Game
from canasta.errors import OptionError
from canasta.notation import format_action
from canasta.players import BasicPlayer, hint
from canasta.players.random_player import RandomPlayer
from canasta.record import parse_record, replay_record
from canasta.tui import TerminalGame, parse_levels, run_play
from canasta.tui.session import help_text
from canasta.tui.view import rank_plural

runner = CliRunner()


def scripted(lines: Iterable[str], echo: io.StringIO | None = None) -> Callable[[str], str]:
    """An input function that replays ``lines`` and then hits end of input; ``echo`` gets the prompts."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            line = next(it)
        except StopIteration:
            raise EOFError from None
        if echo is not None:
            echo.write(prompt + line + "\n")
        return line

    return read


def run(lines: Iterable[str], **kw: Any) -> str:
    out = io.StringIO()
    args: dict[str, Any] = {"variant": "classic", "players": 4, "seed": 3, "rules": {}, "seat": 0, "load": None}
    if kw.get("load") is not None or kw.get("resume"):
        args = {}
    args.update(kw)
    run_play(**args, input_fn=scripted(lines, out), output=out)
    return out.getvalue()


def session(game: Game, seat: int = 0, lines: Iterable[str] = (), *, width: int = 110, height: int = 24,
            screen: bool = False, **kw: Any) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, highlight=False, color_system=None,
                      force_terminal=screen)
    return TerminalGame(game, seat, scripted(lines, out), console, screen=screen, **kw), out


def test_session_commands_errors_and_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # seed 3, seat 0: the hand holds As Ac and the pile shows Ad; a meld before drawing is illegal
    text = run(["help", "moves", "hint", "discard Zz", "frobnicate", "meld Kh Kc 2d", "99", "2",
                "table", f"save {save}", "quit"])
    assert "Classic Canasta, 4 players, seed 3" in text
    assert "take Kh Kd" in text                      # help
    assert "1 draw" in text and "2 take As Ac" in text  # moves
    assert "hint: take As Ac" in text
    assert "'Zz' is not a card" in text              # notation error, re-prompted
    assert "unknown action 'frobnicate'" in text
    assert "[rule: draw-first]" in text              # illegal action names the rule
    assert "There is no move 99" in text
    assert "Your hand" in text and "Stock" in text
    assert f"Saved to {save}" in text
    assert "Game left unfinished" in text
    assert "Traceback" not in text
    saved = json.loads(save.read_text())
    assert saved["seat"] == 0 and saved["game"]["history"][0][1] == "take"  # move 2 was the take
    resumed = run(["quit"], load=save)
    assert f"Resumed {save}" in resumed
    assert "aces ×3" in resumed  # the meld made by the take, restored from the file


def test_end_of_input_ends_cleanly() -> None:
    text = run([])
    assert "End of input" in text


def test_bad_save_path_is_reported(tmp_path: Path) -> None:
    text = run([f"save {tmp_path}/no/such/dir/x.json", "save", "quit"])
    assert "Cannot save to" in text and "save needs a file name" in text


def test_bad_seat_and_bad_load(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="seat"):
        run(["quit"], seat=4)
    with pytest.raises(OptionError, match="cannot read"):
        run(["quit"], load=tmp_path / "missing.json")


class HintTyper:
    """Types BasicPlayer's hint at every prompt (Enter at the end-of-hand pause): plays a whole game."""

    def __init__(self, seat: int, out: io.StringIO | None = None) -> None:
        self.seat = seat
        self.session: TerminalGame | None = None
        self.out = out
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        assert self.session is not None
        self.prompts.append(prompt)
        if self.out is not None:
            self.out.write(prompt + "\n")
        if prompt.startswith("Press Enter"):
            return "scores" if self.prompts.count(prompt) == 1 else ""
        game = self.session.game
        action, _ = hint(game.observation(self.seat), game.legal_actions())
        return format_action(action)


def play_through(typer_: HintTyper, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> str:
    real_run = TerminalGame.run

    def run_and_capture(self: TerminalGame) -> None:
        typer_.session = self
        real_run(self)

    monkeypatch.setattr(TerminalGame, "run", run_and_capture)
    out = io.StringIO()
    if typer_.out is None:
        typer_.out = out
    run_play(input_fn=typer_, output=out, **kw)
    return out.getvalue()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_game_through_the_prompt(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = play_through(HintTyper(1), monkeypatch, variant="classic", players=players, seed=5,
                        rules={"target_score": 1500}, seat=1)
    assert "End of hand 1" in text and "melded cards" in text and "game score" in text
    assert "Game over" in text and (" wins with " in text or " win with " in text)
    assert "Not allowed" not in text and "Traceback" not in text


def test_item_2_pause_after_each_hand_and_the_scores_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2: the score sheet stays on screen until Enter; 'scores' shows the running sheet."""
    typer_ = HintTyper(0)
    text = play_through(typer_, monkeypatch, variant="classic", players=4, seed=5, rules={"target_score": 1500}, seat=0)
    end = text.index("End of hand 1")
    pause = text.index("Press Enter for the next hand", end)
    between = text[end:pause]
    assert "game score" in between  # the sheet ...
    assert "Seat 1:" not in between and "Seat 3:" not in between  # ... and no move of the next hand before Enter
    after = text[pause + len("Press Enter"):]
    sheet = after[:after.index("Press Enter")]
    assert "hand" in sheet and "now" in sheet  # the running sheet printed by 'scores' at the pause
    assert sum(p.startswith("Press Enter") for p in typer_.prompts) >= 2  # it waits again after 'scores'


def test_table_is_shown_at_the_start_of_each_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    typer_ = HintTyper(0)
    lines = iter(range(12))
    real_call = HintTyper.__call__

    def limited(self: HintTyper, prompt: str) -> str:
        if next(lines, None) is None:
            raise EOFError
        return real_call(self, prompt)

    monkeypatch.setattr(HintTyper, "__call__", limited)
    text = play_through(typer_, monkeypatch, variant="classic", players=2, seed=8, rules={}, seat=0)
    turns = text.count("Your turn: draw or take the pile.")
    assert turns >= 3
    assert text.count("Seat 1: ") >= 2  # the computer's actions are printed as they happen
    # every turn start is preceded by a fresh table
    assert text.count("Cards in hand: ") >= turns


def position_before_ask() -> tuple[Game, int]:
    """A 4-player position where the seat to act (a BasicPlayer) is about to ask 'may I go out?'."""
    for seed in range(20):
        game = Game("classic", 4, seed, {"target_score": 1500})
        players = [BasicPlayer(s) for s in range(4)]
        while not game.is_over:
            actor = game.actor
            action = players[actor].choose(game.observation(actor), game.legal_actions())
            if action.kind == ASK:
                return game, actor
            game.apply(action)
    raise AssertionError("no position with an ask found")


def test_human_answers_computer_partner(tmp_path: Path) -> None:
    game, asker = position_before_ask()
    save = tmp_path / "ask.json"
    save.write_text(game.to_json())
    partner = (asker + 2) % 4
    text = run(["maybe", "yes", "quit"], load=save, seat=partner)
    assert f"Seat {asker} (partner): ask" in text
    assert "asks: may I go out? Answer yes or no." in text
    assert "unknown action 'maybe'" in text  # re-prompted
    assert "You answered yes" in text
    # the partner goes on with the turn after the answer
    assert f"Seat {asker} (partner): " in text.split("You answered yes")[1]


def test_computer_partner_answers_human(tmp_path: Path) -> None:
    game, asker = position_before_ask()
    save = tmp_path / "ask.json"
    save.write_text(game.to_json())
    text = run(["ask", "quit"], load=save, seat=asker)
    partner = (asker + 2) % 4
    assert f"Seat {partner} (partner): answers yes" in text or f"Seat {partner} (partner): answers no" in text


def test_cli_play_with_input() -> None:
    result = runner.invoke(app, ["play", "--seed", "2", "--players", "2"], input="help\nmoves\nbogus\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Classic Canasta, 2 players, seed 2" in result.output
    assert "1 draw" in result.output
    assert "unknown action 'bogus'" in result.output
    assert "Game left unfinished" in result.output


def test_cli_piped_session_confirms_the_first_move_and_ends_at_end_of_input(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """What CI runs: printf 'draw\\n' | canasta play --players 2 --seed 1; no autosave file appears."""
    monkeypatch.delenv("CANASTA_AUTOSAVE", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "1"], input="draw\n")
    assert result.exit_code == 0, result.output
    assert "> draw" in result.output and "You drew " in result.output  # the move echoed and confirmed
    assert "End of input" in result.output and "Traceback" not in result.output
    assert not list(tmp_path.rglob("*.json"))


def test_cli_play_end_of_input_and_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "--seed", "2"], input="draw\n")
    assert result.exit_code == 0 and "End of input" in result.output
    result = runner.invoke(app, ["play", "--seat", "7"], input="")
    assert result.exit_code == 2 and "seat" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = runner.invoke(app, ["play", "--load", str(bad)], input="")
    assert result.exit_code == 2 and "not a saved game" in result.output


# ------------------------------------------------------------------ item 1: resume in your seat
def test_item_1_a_save_resumes_in_your_seat_with_your_levels(tmp_path: Path) -> None:
    save = tmp_path / "mine.json"
    text = run([f"save {save}", "quit"], seat=2, levels={-1: "random"})
    assert f"resume with: canasta play --load {save}" in text
    out = io.StringIO()
    captured: list[TerminalGame] = []
    real_run = TerminalGame.run

    def capture(self: TerminalGame) -> None:
        captured.append(self)
        real_run(self)

    TerminalGame.run = capture  # type: ignore[method-assign]
    try:
        run_play(load=save, input_fn=scripted(["quit"]), output=out)
    finally:
        TerminalGame.run = real_run  # type: ignore[method-assign]
    assert "you are seat 2" in out.getvalue()
    (resumed,) = captured
    assert resumed.seat == 2 and resumed.levels == {0: "random", 1: "random", 3: "random"}
    assert all(isinstance(p, RandomPlayer) for p in resumed.bots.values())


def test_item_1_options_that_conflict_with_a_save_are_refused(tmp_path: Path) -> None:
    save = tmp_path / "mine.json"
    run([f"save {save}", "quit"], seat=2)
    for kw, word in [({"seat": 0}, "--seat 0"), ({"variant": "samba"}, "--variant"), ({"players": 2}, "--players"),
                     ({"seed": 99}, "--seed"), ({"rules": {"target_score": "1500"}}, "--rule"),
                     ({"levels": {-1: "expert"}}, "--level")]:
        with pytest.raises(OptionError, match=word):
            run(["quit"], load=save, **kw)
    # options that agree are accepted
    assert "Resumed" in run(["quit"], load=save, seat=2, variant="classic", players=4, seed=3)


# ------------------------------------------------------------------ item 3: line editing
def test_item_3_completion_of_actions_commands_and_cards() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from canasta.tui.prompt import Candidates, MoveCompleter

    cands = Candidates(moves=["draw", "take As Ac", "meld 9s 9d 9c", "discard 4d"], hand=["9s", "9d", "9c", "4d"],
                       commands=["help", "moves", "hint"])
    comp = MoveCompleter(lambda: cands)

    def words(text: str) -> list[str]:
        return [c.text for c in comp.get_completions(Document(text), CompleteEvent())]

    assert words("h") == ["help", "hint"]
    assert set(words("")) >= {"draw", "take", "meld", "discard", "moves"}
    assert words("take ")[0] == "As" and words("take As ")[0] == "Ac"  # the legal move's card first
    assert set(words("meld 9s ")) == {"9d", "9c", "4d"}  # the legal move's next card and the hand's others
    assert words("disc") == ["discard"]


def test_item_3_the_terminal_prompt_has_history() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from canasta.tui.prompt import Candidates, PromptReader

    with create_pipe_input() as pipe:
        reader = PromptReader(lambda: Candidates(), input=pipe, output=DummyOutput())
        pipe.send_text("meld 9s 9d 9c\r")
        assert reader("> ") == "meld 9s 9d 9c"
        pipe.send_text("\x1b[A\r")  # the up arrow recalls the last line
        assert reader("> ") == "meld 9s 9d 9c"
        pipe.send_text("dra\x1b[Dw\x1b[C\r")  # left and right arrows edit the line
        assert reader("> ") == "drwa"


# ------------------------------------------------------------------ item 4: computer levels
def test_item_4_levels_for_every_seat_or_one() -> None:
    assert parse_levels(["expert"]) == {-1: "expert"}
    assert parse_levels(["basic,1=expert", "3=random"]) == {-1: "basic", 1: "expert", 3: "random"}
    with pytest.raises(OptionError, match="the levels are"):
        parse_levels(["genius"])
    game = Game("classic", 4, 1)
    tg, _ = session(game, 0, levels={1: "random", 2: "basic", 3: "random"})
    assert isinstance(tg.bots[1], RandomPlayer) and isinstance(tg.bots[2], BasicPlayer)
    result = runner.invoke(app, ["play", "--seed", "1", "--level", "1=random", "--level", "expert"], input="quit\n")
    assert result.exit_code == 0 and "vs expert/random" in result.output
    result = runner.invoke(app, ["play", "--seed", "1", "--level", "0=expert"], input="quit\n")
    assert result.exit_code == 2 and "which is yours" in result.output


# ------------------------------------------------------------------ item 5: game records
def test_item_5_record_writes_the_game_record_redacted_for_your_seat(tmp_path: Path) -> None:
    mine, full = tmp_path / "game.txt", tmp_path / "full.txt"
    text = run(["take As Ac", f"record {mine}", f"record {full} full", "quit"])
    assert f"Wrote the game record to {mine}" in text
    record = parse_record(mine.read_text())
    assert record.redacted_for == 0 and "??" in mine.read_text()
    replayed = replay_record(full.read_text())  # the full record replays, move by move
    assert replayed.history[0][1].kind == "take"


def test_item_5_replay_of_a_saved_position_says_what_it_is(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run([f"save {save}", "quit"])
    result = runner.invoke(app, ["replay", str(save)])
    assert result.exit_code == 2
    assert "is a saved game" in result.output and f"canasta play --load {save}" in result.output
    assert len(result.output) < 600  # not kilobytes of JSON echoed back


# ------------------------------------------------------------------ item 6: meld names
def test_item_6_melds_of_a_rank_are_named_in_words() -> None:
    from canasta.tui.view import humanize, meld_text

    ace_set = {"id": 1, "kind": "set", "rank": "A", "cards": ["As", "As", "Ah"], "wild_index": -1,
               "canasta": False, "natural": True}
    assert meld_text(ace_set, "samba").plain == "#1 aces ×3"
    run_meld = {"id": 2, "kind": "run", "rank": None, "cards": ["4h", "5h", "6h", "7h"], "wild_index": -1,
                "canasta": False, "natural": True}
    assert meld_text(run_meld, "samba").plain == "#2 run 4h-7h"
    assert humanize("your side already has a meld of Ks: 'One team ...'") == \
        "your side already has a meld of kings: 'One team ...'"
    assert humanize("As are dead (a closed natural canasta)") == "aces are dead (a closed natural canasta)"
    assert humanize("you do not hold As") == "you do not hold As"  # a card stays a card


def test_item_6_samba_table_reads_aces_not_as() -> None:
    game = Game("samba", 4, 1)
    bots = [BasicPlayer(s) for s in range(4)]
    for _ in range(60):
        game.apply(bots[game.actor].choose(game.observation(game.actor), game.legal_actions()))
    tg, out = session(game, 0)
    tg.render()
    text = out.getvalue()
    assert "#1 fives ×7 canasta" in text
    assert " 5s:" not in text and "#1 5" not in text


def test_item_6_add_by_rank_names_the_meld_where_melds_have_ids() -> None:
    """In Samba 'add K Kc' means the side's one set of kings; with none, the message says 'kings', not 'Ks'."""
    game = Game("samba", 4, 1)
    bots = [BasicPlayer(s) for s in range(4)]
    while True:
        obs = game.observation(0)
        adds = [a for a in game.legal_actions() if a.kind == "add"] if game.actor == 0 else []
        if adds:
            break
        game.apply(bots[game.actor].choose(obs, game.legal_actions()))
    target = adds[0]
    meld = next(m for m in obs["melds"][obs["side"]] if m["id"] == target.target - 100)
    tg, out = session(game, 0)
    before = len(game.history)
    card = format_action(target).split()[-1]
    tg.command(f"add {meld['rank']} {card}")
    assert len(tg.game.history) == before + 1 and tg.game.history[-1][1] == target
    have = {m["rank"] for m in tg.game.observation(0)["melds"][0] if m["kind"] == "set"}
    missing = next(r for r in ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "A") if r not in have)
    tg.command(f"add {missing} 2c")
    text = out.getvalue()
    assert f"Your side has no meld of {rank_plural(missing)}" in text and "e.g. 'add #" in text


# ------------------------------------------------------------------ item 7: replay's winner
def test_item_7_replay_names_the_winner_with_the_higher_score(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = tmp_path / "full.txt"
    game = Game("classic", 2, 4, {"target_score": 1000})
    bots = [BasicPlayer(s) for s in range(2)]
    while not game.is_over:
        game.apply(bots[game.actor].choose(game.observation(game.actor), game.legal_actions()))
    from canasta.record import export_record

    full.write_text(export_record(game))
    result = runner.invoke(app, ["replay", str(full)])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    w = game.winner
    assert w is not None
    assert last == f"side {w} wins with {game.scores[w]}; side {1 - w} {game.scores[1 - w]}"
    assert game.scores[w] > game.scores[1 - w]


# ------------------------------------------------------------------ item 8: messages
def test_item_8_messages_say_which_cards_and_which_file(tmp_path: Path) -> None:
    text = run(["draw", "meld 5s 5h 5d", "merge #1 #2", "quit"])
    assert "you do not hold those cards: you lack" in text
    assert "Classic Canasta has no 'merge' action" in text and "merge names no cards" not in text
    from canasta.tui.view import humanize

    assert humanize("take the pile (1 cards): taking") == "take the pile (1 card): taking"
    record = tmp_path / "record.txt"
    run([f"record {record} full", "quit"])
    result = runner.invoke(app, ["legal", str(record)])
    assert result.exit_code == 2 and str(record) in result.output and "canasta replay" in result.output
    result = runner.invoke(app, ["play", "--seat", "-1"], input="")
    assert result.exit_code == 2 and "seat" in result.output and "Classic Canasta, 4 players" not in result.output
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps({"variant": "classic", "teams": [{"hands": [[]]}, {"hands": [[]]}]}))
    result = runner.invoke(app, ["play", "--load", str(hand)], input="")
    assert result.exit_code == 2 and "scorekeeper hand" in result.output and "canasta score" in result.output
    assert "schema None" not in result.output


# ------------------------------------------------------------------ item 9: help and moves
def test_item_9_help_shows_the_notes_of_the_variant_played() -> None:
    assert "Samba:" not in help_text("classic") and "Burraco:" not in help_text("classic")
    assert "Samba:" in help_text("samba") and "Burraco:" not in help_text("samba")
    text = run(["help", "quit"], variant="samba", players=4, seed=1)
    assert "'merge #3 #5'" in text and "pozzetto" not in text


def test_item_9_moves_are_grouped_and_paged() -> None:
    game = Game("samba", 4, 0)
    bots = [BasicPlayer(s) for s in range(4)]
    while not (game.actor == 0 and len(game.legal_actions()) >= 30):
        assert not game.hand_results, "no position with many moves"
        game.apply(bots[game.actor].choose(game.observation(game.actor), game.legal_actions()))
    legal = game.legal_actions()
    tg, out = session(game, 0, lines=["", "q"], width=80, height=8)
    tg.page = True
    tg.list_moves(legal, "")
    text = out.getvalue()
    assert "more groups" in text  # paged: the second page waited for Enter, the third was stopped with q
    lines = text.splitlines()
    assert len(lines) < len(legal)  # grouped: several moves a line
    assert any(line.startswith("discard: ") for line in lines) or "discard" not in text[:len(text)]
    tg2, out2 = session(game, 0)
    tg2.list_moves(legal, "discard")
    shown = out2.getvalue()
    assert "discard" in shown and "meld" not in shown.split("\n", 1)[1]


# ------------------------------------------------------------------ item 10: what happened
def test_item_10_taking_the_pile_lists_the_cards_gained() -> None:
    for seed in range(10):
        game = Game("classic", 4, seed)
        bots = [BasicPlayer(s) for s in range(4)]
        while not game.hand_results:
            take = [a for a in game.legal_actions() if a.kind == "take"]
            if game.actor == 0 and take and len(game.pile) >= 3:
                tg, out = session(game, 0)
                pile = [c for c in game.observation(0)["pile"]]
                tg.command(format_action(take[0]))
                text = out.getvalue()
                assert f"(the pile, {len(pile)} cards: into your hand " in text
                gained = text.split("into your hand ")[1].split(")")[0].split()
                assert sorted(gained) == sorted(c for c in pile[:-1] if c not in ("3h", "3d"))
                return
            game.apply(bots[game.actor].choose(game.observation(game.actor), game.legal_actions()))
    raise AssertionError("no take of a pile of three cards or more found")


def test_item_10_why_the_pile_is_frozen() -> None:
    from canasta.tui.view import pile_status

    obs = Game("classic", 2, 1).observation(0)
    assert "frozen until your side melds" in pile_status(obs, "classic").plain
    obs["opened"] = [True, True]
    obs["pile"] = ["5h", "2c", "9s"]
    obs["frozen"] = True
    assert "FROZEN by 2c" in pile_status(obs, "classic").plain
    obs["frozen"] = False
    assert "not frozen" in pile_status(obs, "classic").plain


def test_item_10_computer_red_threes_feet_and_pozzetti_are_announced() -> None:
    """The events found by playing: a computer's red three laid out, a foot or a pozzetto picked up."""
    found: dict[str, bool] = {}
    for variant, marker in [("classic", "lays out 3"), ("hand-and-foot", "picks up the foot"),
                            ("burraco", "pozzetto"), ("american", "bonus card")]:
        for seed in range(6):
            game = Game(variant, 4, seed)
            tg, out = session(game, 0)
            tg.bots[0] = BasicPlayer(0)
            for _ in range(400):
                if game.is_over or len(game.hand_results) > 0:
                    break
                actor = game.actor
                action = tg.bots[actor].choose(game.observation(actor), game.legal_actions())
                tg.step(actor, action)
            assert not any(w in out.getvalue() for w in ("You lays", "You picks", "You gets", "You adds"))
            if any(marker in line and line.startswith("Seat") for line in out.getvalue().splitlines()):
                found[variant] = True
                break
    assert found == {"classic": True, "hand-and-foot": True, "burraco": True, "american": True}


# ------------------------------------------------------------------ item 11: undo, confirmation
def test_item_11_undo_takes_back_the_melds_of_this_turn() -> None:
    game = Game("classic", 4, 3)
    tg, out = session(game, 0)
    assert tg.command("take As Ac")
    meld = next(a for a in tg.game.legal_actions() if a.kind == MELD)
    before = tg.game.to_json()
    tg.command(format_action(meld))
    assert tg.game.to_json() != before
    tg.command("undo")
    assert tg.game.to_json() == before
    assert "Taken back: " + format_action(meld) in out.getvalue()
    tg.command("undo")
    assert "Nothing to undo" in out.getvalue()  # not past the take: the pile's cards were seen
    discard = next(a for a in tg.game.legal_actions() if a.kind == DISCARD)
    tg.command(format_action(discard))
    assert not tg.undo_stack


def test_item_11_discarding_after_a_partners_yes_asks_first() -> None:
    game, asker = position_before_ask()
    game.apply(game.legal_actions()[[a.kind for a in game.legal_actions()].index(ASK)])
    game.apply(next(a for a in game.legal_actions() if a.kind == YES))
    if game.phase == "draw":
        game.apply(next(a for a in game.legal_actions() if a.kind == "draw"))
    discard = next(a for a in game.legal_actions() if a.kind == DISCARD)
    assert len(game.hand_cards(asker)) > 1
    tg, out = session(game, asker, lines=["no", "yes"])
    before = game.to_json()
    tg.play(discard)
    assert "Discard anyway?" in out.getvalue() and "Not discarded" in out.getvalue()
    assert tg.game.to_json() == before
    tg.play(discard)
    assert tg.game.to_json() != before and "a penalty" in out.getvalue()


# ------------------------------------------------------------------ item 12: the 80x24 screen
@pytest.mark.parametrize("variant", ["classic", "samba", "burraco", "hand-and-foot"])
def test_item_12_the_screen_fits_80x24(variant: str) -> None:
    game = Game(variant, 4, 3)
    tg, out = session(game, 0, width=80, height=24, screen=True)
    tg.bots[0] = BasicPlayer(0)
    frames = 0
    for _ in range(300):
        if game.is_over or game.hand_results:
            break
        if game.actor == 0:
            tg.render()
            frame = out.getvalue().rsplit("\x1b[2J\x1b[H", 1)[1]
            lines = frame.rstrip("\n").split("\n")
            assert len(lines) <= 23, frame  # the 24th line is the prompt
            assert lines[0].startswith("─") and "last moves" in frame and "Your hand" in "".join(lines[-4:])
            frames += 1
        actor = game.actor
        tg.step(actor, tg.bots[actor].choose(game.observation(actor), game.legal_actions()))
    assert frames >= 5


def test_item_12_last_moves_stay_in_view() -> None:
    game = Game("classic", 4, 3)
    tg, out = session(game, 0, ["draw"], width=80, height=24, screen=True)
    tg.bots[0] = BasicPlayer(0)
    tg.command("draw")
    discard = next(a for a in game.legal_actions() if a.kind == DISCARD)
    tg.command(format_action(discard))
    while game.actor != 0:
        tg.computer_turn()
    tg.render()
    frame = out.getvalue().rsplit("\x1b[2J\x1b[H", 1)[1]
    assert "You drew" in frame and "Seat 1: " in frame and "Seat 3: " in frame


# ------------------------------------------------------------------ item 13: autosave and --resume
def test_item_13_quit_and_ctrl_c_autosave_for_resume(tmp_path: Path) -> None:
    autosave = tmp_path / "auto.json"
    text = run(["take As Ac", "quit"], autosave=autosave)
    assert "canasta play --resume" in text and autosave.exists()
    resumed = run(["quit"], resume=True, autosave=autosave)
    assert "Resumed" in resumed and "aces ×3" in resumed

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    autosave.unlink()
    run_play(variant="classic", players=2, seed=1, seat=0, autosave=autosave, input_fn=interrupt, output=out)
    assert "Interrupted" in out.getvalue() and autosave.exists()
    with pytest.raises(OptionError, match="no autosaved game"):
        run(["quit"], resume=True, autosave=tmp_path / "none.json")


def test_item_13_cli_resume_uses_the_autosave_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CANASTA_AUTOSAVE", str(tmp_path / "auto.json"))
    result = runner.invoke(app, ["play", "--seed", "4", "--seat", "1"], input="quit\n")
    assert result.exit_code == 0 and "canasta play --resume" in result.output
    result = runner.invoke(app, ["play", "--resume"], input="quit\n")
    assert result.exit_code == 0 and "you are seat 1" in result.output


# ------------------------------------------------------------------ issue 50: what the screen says is what happened
# The tests named ``test_issue50_item_N_...`` cover the numbered defects of issue 50; each failed before.
def log_text(tg: TerminalGame) -> str:
    return "\n".join(tg.entry_text(e).plain for e in tg.log)


def test_issue50_item_1_an_undone_meld_leaves_the_log() -> None:
    tg, out = session(Game("classic", 4, 11), 0)
    for line in ("draw", "meld Kh Kd 2s"):
        tg.command(line)
    assert "meld Kh Kd 2s" in log_text(tg)
    tg.command("undo")
    assert "meld Kh Kd 2s" not in log_text(tg)
    tg.command("discard 6h")
    assert "meld Kh Kd 2s" not in log_text(tg) and "discard 6h" in log_text(tg)
    assert "Taken back: meld Kh Kd 2s" in out.getvalue()


def test_issue50_item_2_a_hand_and_foot_take_lists_the_cards_taken_and_says_how_many_stay() -> None:
    """The default takes the top seven cards: the log names those seven, not the whole pile."""
    game = Game("hand-and-foot", 4, 3)
    tg, _out = session(game, 0)
    checked = {"you": 0, "computer": 0}
    for _ in range(3000):
        if game.is_over or min(checked.values()) >= 1:
            break
        actor = game.actor
        action, _ = hint(game.observation(actor), game.legal_actions())
        pile = list(game.observation(0)["pile"])
        hand_no = game.hand_no
        tg.step(actor, action)
        if action.kind != "take" or game.hand_no != hand_no or len(pile) <= 7:
            continue
        line = next(tg.entry_text(e).plain for e in reversed(tg.log) if e.actor == actor)
        assert f"the top 7 cards of the pile; {len(pile) - 7} stay" in line, line
        if actor != 0:
            assert ": " + " ".join(pile[-7:]) + ")" in line, line
            assert f"{len(pile)} cards" not in line, line
        checked["you" if actor == 0 else "computer"] += 1
    assert min(checked.values()) >= 1, checked


def test_issue50_item_3_a_new_game_keeps_the_unfinished_autosave_and_says_how_to_resume(tmp_path: Path) -> None:
    autosave = tmp_path / "auto.json"
    run(["take As Ac", "quit"], autosave=autosave)
    first = autosave.read_text()
    text = " ".join(run(["quit"], seed=99, autosave=autosave).split())
    assert f"An unfinished game is kept in {autosave}: resume it with 'canasta play --load {autosave}'" in text
    assert autosave.read_text() == first  # not replaced
    second = tmp_path / "auto-2.json"
    assert json.loads(second.read_text())["game"]["seed"] == 99
    assert "resume with: canasta play --resume" in text
    resumed = run(["quit"], resume=True, autosave=autosave)  # the newest: the game just left
    assert f"Resumed {second}" in resumed and autosave.read_text() == first
    third = " ".join(run(["quit"], seed=5, autosave=autosave).split())
    assert "2 unfinished games are kept" in third and f"canasta play --load {autosave}" in third


def test_issue50_item_7_a_pasted_long_line_is_refused_in_one_line() -> None:
    line = "meld " + " ".join(["Kh", "Kd", "2s"] * 3332)
    tg, out = session(Game("classic", 4, 11), 0, [line, "draw"])
    assert tg.read("> ") == "draw"  # the long line is refused, the next one read
    said = out.getvalue().strip().splitlines()
    assert said[-2] == "That line is longer than 300 characters, the most a move or command takes. Type it again."
    assert tg.game.to_json() == Game("classic", 4, 11).to_json()


def test_issue50_item_5_replaying_a_redacted_record_says_how_to_write_a_full_one(tmp_path: Path) -> None:
    tg, out = session(Game("classic", 4, 11), 0)
    tg.command("draw")
    tg.command(f"record {tmp_path / 'mine.txt'}")
    assert "'record " in out.getvalue() and " full' writes one that canasta replay checks" in out.getvalue()
    result = runner.invoke(app, ["replay", str(tmp_path / "mine.txt")])
    assert result.exit_code == 2 and "'record FILE full' in canasta play writes one" in result.output
    tg.command(f"record {tmp_path / 'full.txt'} full")
    assert runner.invoke(app, ["replay", str(tmp_path / "full.txt")]).exit_code == 0


def test_issue50_item_6_save_and_record_do_not_write_over_a_file_of_another_kind(tmp_path: Path) -> None:
    notes = tmp_path / "important.txt"
    notes.write_text("my notes\n")
    tg, out = session(Game("classic", 4, 11), 0)
    tg.command(f"save {notes}")
    tg.command(f"record {notes}")
    assert notes.read_text() == "my notes\n"
    said = " ".join(out.getvalue().split())  # the console wraps long paths (pytest-xdist's are long)
    assert said.count(f"{notes} exists and is not a") == 2
    save, record = tmp_path / "game.json", tmp_path / "game.txt"
    for _ in range(2):  # a save or a record of ours is replaced without a question
        tg.command(f"save {save}")
        tg.command(f"record {record}")
        tg.command("draw")
    assert json.loads(save.read_text())["game"]["history"] and record.read_text().startswith("[")
    assert " ".join(out.getvalue().split()).count("exists and is not a") == 2


def test_issue50_item_8_a_loaded_game_keeps_the_hands_moves_and_this_turns_undo(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    tg, _ = session(Game("classic", 4, 11), 0)
    for line in ("draw", "meld Kh Kd 2s", f"save {save}"):
        tg.command(line)
    before = log_text(tg)
    out = io.StringIO()
    box: list[TerminalGame] = []

    def capture(self: TerminalGame) -> None:
        box.append(self)

    original = TerminalGame.run
    TerminalGame.run = capture  # type: ignore[method-assign]
    try:
        run_play(load=save, input_fn=scripted([]), output=out)
    finally:
        TerminalGame.run = original  # type: ignore[method-assign]
    resumed = box[0]
    assert "You drew" in before and "You drew" in log_text(resumed) and "meld Kh Kd 2s" in log_text(resumed)
    resumed.command("undo")
    assert "Taken back: meld Kh Kd 2s" in out.getvalue()
    hand = [format_card(c) for c in resumed.game.hand_cards(0)]
    assert {"Kh", "Kd", "2s"} <= set(hand) and "meld Kh Kd 2s" not in log_text(resumed)


def test_issue50_item_9_ending_the_hand_by_declining_the_pile_is_said_in_words() -> None:
    from canasta.engine.actions import END, Action

    tg, _ = session(Game("classic", 4, 11), 0)
    before = tg.game.observation(0)
    tg.announce(2, Action(END, (), 0), before, before)
    tg.announce(0, Action(END, (), 0), before, before)
    text = log_text(tg)
    assert "Seat 2 (partner): declines the pile with the stock used up; the hand ends" in text
    assert "You declined the pile with the stock used up" in text and ": end" not in text


def test_issue50_item_10_a_json_list_and_a_bad_seat_in_a_save_are_named_for_what_they_are(tmp_path: Path) -> None:
    listed = tmp_path / "list.json"
    listed.write_text("[1,2,3]")
    with pytest.raises(OptionError) as info:
        run(["quit"], load=listed)
    assert "game record" not in str(info.value) and "JSON object" in str(info.value)
    save = tmp_path / "seat.json"
    tg, _ = session(Game("classic", 4, 11), 0)
    tg.command(f"save {save}")
    data = json.loads(save.read_text())
    data["seat"] = 7
    save.write_text(json.dumps(data))
    with pytest.raises(OptionError) as info:
        run(["quit"], load=save)
    assert "--seat" not in str(info.value) and "names seat 7" in str(info.value)


def test_issue50_item_11_unknown_actions_name_this_variants_and_file_names_are_quoted(tmp_path: Path) -> None:
    tg, out = session(Game("classic", 4, 11), 0)
    tg.command("frobnicate")
    said = " ".join(out.getvalue().split())
    assert "unknown action 'frobnicate'; actions are: draw, take" in said
    assert not {"merge", "special", "keep"} & set(said.replace(",", " ").replace(".", " ").split())
    samba, out = session(Game("samba", 4, 11), 0)
    samba.command("frobnicate")
    assert "merge" in out.getvalue()
    spaced = tmp_path / "my game.json"
    tg.command(f"save {spaced}")
    assert f"canasta play --load '{spaced}'" in " ".join(session_output(tg).split())
    assert "issue" not in runner.invoke(app, ["--help"]).output


def session_output(tg: TerminalGame) -> str:
    file = tg.console.file
    return file.getvalue() if isinstance(file, io.StringIO) else ""


def test_issue50_item_9_the_pile_line_says_what_takes_it_in_hand_and_foot_and_samba() -> None:
    tg, _ = session(Game("hand-and-foot", 4, 3), 0)
    pile = next(line.plain for line in table_lines_of(tg) if line.plain.startswith("Stock"))
    assert pile.endswith("top 9d · takes the top 7 cards"), pile
    assert "'books 1/0/0 of 2/2/1' counts clean/dirty/wild books made" in help_text("hand-and-foot")
    assert "a run (an escalera)" in help_text("samba")
    samba = Game("samba", 4, 3)
    rng = __import__("random").Random(5)
    for _ in range(5000):  # play until a black three lies on top of the pile
        if (samba.pile and format_card(samba.pile[-1]) in ("3s", "3c")) or samba.is_over:
            break
        samba.apply(rng.choice(samba.legal_actions()))
    top = format_card(samba.pile[-1])
    assert top in ("3s", "3c")
    tg, _ = session(samba, 0)
    pile = next(line.plain for line in table_lines_of(tg) if line.plain.startswith("Stock"))
    assert f"blocked: {top} on top" in pile and "not frozen" not in pile, pile


def table_lines_of(tg: TerminalGame) -> list[Any]:
    from canasta.tui.view import table_lines

    return table_lines(tg.game.observation(tg.seat), tg.who, tg.side_label, tg.pile_blocked(), 80,
                       getattr(tg.game.variant, "pile_pickup", None))


def test_issue50_item_11_tab_after_add_offers_only_cards_that_fit_the_meld() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from canasta.tui.prompt import Candidates, MoveCompleter

    cands = Candidates(moves=["add 5 5h", "discard 4d"], hand=["5h", "5c", "4d", "Kh", "2c", "JK", "10s"], commands=[])
    comp = MoveCompleter(lambda: cands)

    def words(text: str) -> set[str]:
        return {c.text for c in comp.get_completions(Document(text), CompleteEvent())}

    assert words("add 5 ") == {"5h", "5c", "2c", "JK"}
    assert words("add 5 5h ") == {"5c", "2c", "JK"}
    assert words("add W ") == {"2c", "JK"} and words("add 10 ") == {"10s", "2c", "JK"}
    assert words("add ") == {"5"}  # the meld first: the legal moves' targets


def test_issue50_item_11_scores_mid_hand_say_the_hand_counts_when_it_ends() -> None:
    tg, out = session(Game("classic", 4, 11), 0)
    tg.command("scores")
    assert "Hand 1 in play: its points count when it ends; the game ends at 5000." in out.getvalue()
    feet, out = session(Game("hand-and-foot", 4, 3), 0)
    feet.command("scores")
    assert "the game is 4 hands." in out.getvalue()


def test_issue50_item_7_the_terminal_prompt_cuts_a_paste_as_it_arrives() -> None:
    """A long paste is cut in the prompt's buffer (redrawing thousands of characters at every key is what took tens
    of seconds); the one character kept past the limit makes the session refuse the line."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from canasta.tui.prompt import MAX_LINE, Candidates, PromptReader

    with create_pipe_input() as pipe:
        reader = PromptReader(lambda: Candidates(), input=pipe, output=DummyOutput())
        pipe.send_text("meld " + "Kh " * 3332 + "\r")
        assert reader("> ") == ("meld " + "Kh " * 3332)[:MAX_LINE + 1]
