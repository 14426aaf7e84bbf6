"""Reading the player's lines: prompt_toolkit at a terminal, a plain line reader otherwise.

At a terminal the prompt has line editing, a history (up and down arrows) and completion
(Tab) of the actions and commands, and after an action of the card names of your hand and
the words of the legal moves. Piped or scripted input is read line by line, so
``printf 'draw\\n' | canasta play`` works as it always did.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO

from prompt_toolkit import PromptSession
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

InputFn = Callable[[str], str]


@dataclass
class Candidates:
    """What may be completed now: the legal moves' texts, the cards in hand and the commands."""

    moves: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)


class MoveCompleter(Completer):
    """Completes the first word from the actions and commands, later words from the legal moves and the hand."""

    def __init__(self, source: Callable[[], Candidates]) -> None:
        self.source = source

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        words = text.split()
        current = "" if not words or text.endswith(" ") else words[-1]
        done = words if current == "" else words[:-1]
        cands = self.source()
        options: list[str] = []
        if not done:
            options = sorted({m.split()[0] for m in cands.moves if m} | set(cands.commands))
        else:
            verb = done[0].lower()
            prefix = [w.lower() for w in done]
            for m in cands.moves:  # the next word of each legal move that begins as the line does
                mw = m.split()
                if len(mw) > len(done) and [w.lower() for w in mw[:len(done)]] == prefix:
                    options.append(mw[len(done)])
            if verb in ("meld", "add", "discard", "take"):  # then any card still in hand, suits as you hold them
                left = Counter(cands.hand)
                left.subtract(w for w in done[1:])
                options.extend(c for c, k in left.items() if k > 0 and (verb != "add" or fits_meld(c, done)))
        seen: set[str] = set()
        for word in options:
            if word in seen or not word.lower().startswith(current.lower()):
                continue
            seen.add(word)
            yield Completion(word, start_position=-len(current))


def fits_meld(card: str, words: list[str]) -> bool:
    """Whether ``card`` may follow ``add TARGET ...``: a card of the meld's rank or a wild card ('W': wild cards
    only). Before the target, or for a meld named by id (#3), only the legal moves' words are offered."""
    if len(words) < 2 or words[1].startswith("#"):
        return False
    target, rank = words[1].upper(), card[:-1].upper() if card != "JK" else "JK"
    wild = rank in ("2", "JK")
    return wild if target == "W" else wild or rank == target.replace("T", "10")


#: The longest line read as a move or command: the longest move (a whole hand laid down) is well under it.
MAX_LINE = 300


class PromptReader:
    """An input function on prompt_toolkit: history, line editing and completion."""

    def __init__(self, source: Callable[[], Candidates], *, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.session: PromptSession[str] = PromptSession(history=InMemoryHistory(), completer=MoveCompleter(source),
                                                         complete_while_typing=False, input=input, output=output)
        # a paste gone wrong is cut as it arrives: redrawing a line of thousands of characters at every key would
        # take tens of seconds; one character past the limit is kept so that the session refuses the line
        self.session.default_buffer.on_text_changed += self._bound

    @staticmethod
    def _bound(buffer: Buffer) -> None:
        if len(buffer.text) > MAX_LINE + 1:
            buffer.text = buffer.text[:MAX_LINE + 1]

    def __call__(self, prompt: str) -> str:
        return self.session.prompt(prompt)


class PlainReader:
    """Lines from a stream (piped input); the prompt is written to ``out`` so a transcript reads well."""

    def __init__(self, stream: IO[str] | None = None, out: IO[str] | None = None) -> None:
        self.stream = stream or sys.stdin
        self.out = out or sys.stdout

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        buffer = getattr(self.stream, "buffer", None)  # bytes, so that a line of another encoding is not fatal
        raw = buffer.readline() if buffer is not None else self.stream.readline()
        if not raw:
            raise EOFError
        line = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
        text = line.rstrip("\n")
        self.out.write(text + "\n")  # echo, so that a piped session's output shows what was typed
        return text


def is_interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


__all__ = ["MAX_LINE", "Candidates", "InputFn", "MoveCompleter", "PlainReader", "PromptReader", "fits_meld", "is_interactive"]
