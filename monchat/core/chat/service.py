"""ChatService: one turn is exactly one LLM call.

A turn reads the prompt memory (Layers 1–2, chosen at the last flush) and the
Layer 3 window (the last 12 hours of messages, as much as fits the backend's
context with room for the reply: ``core/chat/window.py``), renders the system prompt —
byte-identical until the memory or the persona changes, so the backend's prompt
cache is hit — logs the user's message to disk, then makes the one call and
logs the reply. A failure mid-reply logs the partial text marked ``partial``;
a stop by the user logs it marked ``stopped``.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from dataclasses import dataclass, field
from typing import Callable, Protocol

from ..backends.base import Backend
from ..backends.registry import BackendRegistry
from ..errors import BackendError, GateClosed, InputError, KnownError, StorageError
from ..logs.history import History, merge_history
from ..logs.files import FlushGate, LogBook
from ..records.long_text import TURN_CUT_MARK, TURN_TEXT_CHARS, bounded  # noqa: F401 (re-exported)
from ..vocabulary.states import GateState, ReplyStatus
from ..logs.off_record import expire_quietly
from ..personas.library import PersonaRegistry, SurfacePersona
from ..prompts import PromptLibrary
from ..settings import Settings
from ..store.messages import MessageArchive
from ..types import Clock, Message, Turn, Usage, check_text, format_ts, local_now, new_message_id
from .window import MESSAGE_FRAME, FittedWindow, fit_window, reply_room, window_start

log = logging.getLogger(__name__)

TOKEN_MEMO = 4096  # texts whose token counts are remembered per model (a window or two)


class PromptMemory(Protocol):
    """What the system prompt carries from memory (implemented by MemoryService)."""

    def prompt_items(self) -> tuple[list, list]:
        """(Layer 1 items, Layer 2 items) chosen for the prompt; each has ``.text``."""

    def prompt_hint(self) -> str:
        """The one "ask about it if it comes up" line for the prompt, or ""."""

    def revision(self) -> str:
        """Changes whenever ``prompt_items`` or ``prompt_hint`` would change."""


class NoMemory:
    def prompt_items(self) -> tuple[list, list]:
        return [], []

    def prompt_hint(self) -> str:
        return ""

    def revision(self) -> str:
        return "empty"


@dataclass
class TurnResult:
    user: Message
    reply: Message | None
    usage: Usage
    system_prompt: str
    stopped: bool = False
    warnings: list[str] = field(default_factory=list)
    left_out: int = 0  # older messages of the window not sent, to fit the context
    meter: ContextMeter | None = None  # what the next turn would send: the GUI shows it without reading again


@dataclass
class ContextMeter:
    """Tokens of the current prompt against the backend's context."""

    system_tokens: int
    window_tokens: int  # the recent messages that are sent
    context_length: int
    left_out: int = 0  # older messages of the window not sent: they would not fit with room for a reply

    @property
    def total(self) -> int:
        return self.system_tokens + self.window_tokens


def gate_error(gate: FlushGate) -> GateClosed:
    return GateClosed(
        f"{gate.unflushed_files} log files are waiting for a flush; chat is paused at {gate.stop_at}.",
        "Run a flush (the Flush button, or `monchat flush`); chat reopens when it completes.",
    )


class ChatService:
    def __init__(self, settings: Settings, logbook: LogBook, archive: MessageArchive,
                 personas: PersonaRegistry, prompts: PromptLibrary, backends: BackendRegistry,
                 memory: PromptMemory | None = None, clock: Clock = local_now,
                 flush_running: Callable[[], bool] = lambda: False,
                 take_back: Callable[[list[str]], object] | None = None) -> None:
        """Args:
            flush_running: whether a flush runs now (then the gate does not pause chat: ``FlushGate``).
            take_back: message ids → taken out of every file (``memory/scrub.py``): what an edit replaced.
        """
        self.settings = settings
        self.logbook = logbook
        self.archive = archive
        self.history = History(logbook, archive)
        self.personas = personas
        self.prompts = prompts
        self.backends = backends
        self.memory = memory or NoMemory()
        self.clock = clock
        self.flush_running = flush_running
        self.take_back = take_back
        self._prompt_cache: dict[str, tuple[str, str]] = {}  # persona id -> (revision key, prompt)
        self._off_record: dict[str, bool] = {}  # persona id -> this session's choice (else the persona's default)
        self._token_counts: dict[tuple[str, str], dict[str, int]] = {}  # (backend, model) -> text -> tokens
        self._lock = threading.Lock()

    # ---- pieces a turn is made of -------------------------------------
    def gate(self) -> FlushGate:
        gate = self.logbook.gate(self.settings.gate.warn_files, self.settings.gate.stop_files)
        return dataclasses.replace(gate, flushing=True) if self.flush_running() else gate

    def persona(self, persona_id: str | None = None) -> SurfacePersona:
        return self.personas.surface_persona(persona_id or self.settings.chat.persona)

    def backend_for(self, persona: SurfacePersona) -> Backend:
        return self.backends.for_persona(persona)

    def system_prompt(self, persona: SurfacePersona) -> str:
        """The rendered system prompt, re-rendered only when memory or persona changed."""
        key = f"{self.memory.revision()}|{persona.source}|{hash(persona.to_toml())}"
        with self._lock:
            cached = self._prompt_cache.get(persona.id)
            if cached and cached[0] == key:
                return cached[1]
        layer1, layer2 = self.memory.prompt_items() if persona.receives_memory else ([], [])
        hint = self.memory.prompt_hint() if persona.receives_memory else ""
        prompt = self.prompts.system_prompt(persona, layer1, layer2, hint)
        with self._lock:
            self._prompt_cache[persona.id] = (key, prompt)
        return prompt

    # ---- off the record (core/logs/off_record.py) -----------------------------
    def off_record(self, persona_id: str | None = None) -> bool:
        """Whether a chat with this persona is off the record now: the session's choice, else its default."""
        persona_id = persona_id or self.settings.chat.persona
        return self._off_record.get(persona_id, persona_id in self.settings.off_record.personas)

    def set_off_record(self, persona_id: str | None, value: bool) -> None:
        """Go off the record (or back on it) with this persona, for this session."""
        self._off_record[persona_id or self.settings.chat.persona] = bool(value)

    def window(self, now=None, off_record: bool = True) -> list[Message]:
        """Layer 3: the last N hours of messages, archived or not, each once, oldest first.

        Messages replaced by a later edit or regeneration are left out. The start moves in steps
        (``core/chat/window.py``), so the window covers up to a quarter more than N hours. ``off_record``: with the
        off-the-record messages not yet removed (what the window shows, and what a chat off the record sends);
        a chat on the record never sends them (its reply would carry their words into the logs a flush reads).
        """
        now = now or self.clock()
        start = window_start(now, self.settings.chat.window_hours)
        messages = self.history.since(start, cut=True)
        off = self.logbook.off_record
        if off_record and off is not None:
            expire_quietly(off, now, self.settings.off_record.hours)
            messages = merge_history(messages, off.since(start))
        replaced = {m.replaces for m in messages if m.replaces}
        return [m for m in messages if m.id not in replaced and m.text.strip()]

    def older(self, epoch: float, limit: int = 50) -> list[Message]:
        """The ``limit`` messages before ``epoch``, archived or not, oldest first (scrolling back)."""
        return self.history.before(epoch, limit, cut=True)

    @staticmethod
    def turns_of(messages: list[Message]) -> list[Turn]:
        return [Turn(m.role, m.text) for m in messages]

    def context_meter(self, persona_id: str | None = None) -> ContextMeter:
        """What the next turn sends: the system prompt and the part of the window that fits."""
        persona = self.persona(persona_id)
        backend = self.backend_for(persona)
        system = self.system_prompt(persona)
        return self._meter(backend, system, self.window(off_record=self.off_record(persona.id)))

    def _meter(self, backend: Backend, system: str, window: list[Message]) -> ContextMeter:
        fitted = self.fit(backend, system, window)
        return ContextMeter(self.counter(backend)(system), fitted.sent_tokens, backend.context_length(),
                            len(fitted.left_out))

    def _window_after(self, seen: list[Message], *logged: Message | None) -> list[Message]:
        """The window once ``logged`` joined the ``seen`` one: what ``window()`` reads now, without reading."""
        start = window_start(self.clock(), self.settings.chat.window_hours)
        by_id = {m.id: m for m in seen}
        by_id.update((m.id, m) for m in logged if m is not None)
        messages = sorted((m for m in by_id.values() if m.dt.timestamp() >= start),
                          key=lambda m: (m.dt.timestamp(), m.id))
        replaced = {m.replaces for m in messages if m.replaces}
        return [m for m in messages if m.id not in replaced and m.text.strip()]

    def fit(self, backend: Backend, system: str, history: list[Message], new_text: str = "") -> FittedWindow:
        """The part of ``history`` sent with ``system`` and ``new_text``, within the backend's context.

        A message longer than TURN_TEXT_CHARS is sent cut, with a mark (``bounded``): counting and
        sending 50 MB at every turn took half a minute and gigabytes; the log and the archive keep it whole.
        """
        history = [bounded(m) for m in history]
        count = self.counter(backend)
        context = backend.context_length()
        budget = context - reply_room(context) - count(system) - MESSAGE_FRAME
        new_tokens = count(new_text) + MESSAGE_FRAME if new_text else 0
        return fit_window(history, count, budget, new_tokens)

    def counter(self, backend: Backend) -> Callable[[str], int]:
        """``backend.count_text``, remembered per model: each turn re-counts a window that mostly did not change."""
        memo = self._token_counts.setdefault((backend.name, backend.model), {})

        def count(text: str) -> int:
            tokens = memo.get(text)
            if tokens is None:
                if len(memo) >= TOKEN_MEMO:
                    memo.clear()
                tokens = memo[text] = backend.count_text(text)
            return tokens
        return count

    # ---- turns ---------------------------------------------------------
    def send(self, text: str, *, persona_id: str | None = None,
             on_chunk: Callable[[str], None] | None = None,
             stop: threading.Event | None = None) -> TurnResult:
        """Log the user's message, make one LLM call, log the reply.

        Raises:
            GateClosed: too many unflushed files (no call is made, nothing logged).
            InputError: the message is empty.
            BackendError: the call failed (the user's message stays logged).
            StorageError: the message could not be logged (it says so: nothing was sent), or the database
                failed after it was logged.
        """
        if not text.strip():
            raise InputError("The message is empty.", "Type something to send.")
        return self._turn(text, persona_id, on_chunk, stop, replaces="")

    def regenerate(self, *, persona_id: str | None = None, on_chunk=None, stop=None) -> TurnResult:
        """Ask again for the last reply; the new reply replaces the old one.

        When the last message is the user's (its reply failed before a word arrived), it is
        answered now: that is what Retry does.
        """
        window = self.window(off_record=self.off_record(persona_id))
        users = [m for m in window if m.role == "user"]
        if not window or not users:
            raise InputError("There is no reply to regenerate.", "Send a message first.")
        if window[-1].role == "user":
            return self._call(window[-1], window[:-1], persona_id, on_chunk, stop, replaces="", seen=window)
        last_reply = window[-1]
        return self._call(users[-1], window[:-1], persona_id, on_chunk, stop, replaces=last_reply.id, seen=window)

    def edit_last(self, text: str, *, persona_id: str | None = None, on_chunk=None, stop=None) -> TurnResult:
        """Replace the last user message with ``text`` and answer it again.

        The new message replaces the old one and the new reply replaces the old reply; once the new one is
        logged, the old message and its reply are taken out of every file (``take_back``).
        """
        if not text.strip():
            raise InputError("The message is empty.", "Type something to send.")
        window = self.window(off_record=self.off_record(persona_id))
        user_positions = [i for i, m in enumerate(window) if m.role == "user"]
        if not user_positions:
            raise InputError("There is no message to edit.", "Send a message first.")
        position = user_positions[-1]
        old_reply = next((m for m in window[position + 1:] if m.role == "assistant"), None)
        old = [window[position].id] + ([old_reply.id] if old_reply else [])
        try:
            result = self._turn(text, persona_id, on_chunk, stop, replaces=old[0], history=window[:position],
                                reply_replaces=old_reply.id if old_reply else "", seen=window)
        except BackendError:  # the new message is logged: it replaces the old one all the same
            self._take_back(old)
            raise
        self._take_back(old)
        return result

    def _take_back(self, ids: list[str]) -> None:
        """A disk that refuses now leaves the old words marked replaced (read by no flush); Delete finishes."""
        try:
            if self.take_back is not None:
                self.take_back(ids)
        except StorageError as exc:
            log.warning("the edited-away message is still on disk (%s); delete it to take it out", exc.message)

    def _turn(self, text, persona_id, on_chunk, stop, replaces: str,
              history: list[Message] | None = None, reply_replaces: str = "",
              seen: list[Message] | None = None) -> TurnResult:
        gate, persona_id = self.gate(), persona_id or self.settings.chat.persona
        if gate.state == GateState.STOP and not self.off_record(persona_id):  # off the record adds no backlog
            raise gate_error(gate)
        try:
            check_text(text, "the message")
        except ValueError as exc:
            raise InputError(f"{str(exc).capitalize()}.", "Type the message again; monchat cannot store it as "
                             "it is.") from None
        user = Message(id=new_message_id(), ts=format_ts(self.clock()), role="user", text=text,
                       persona=persona_id, replaces=replaces, off_record=self.off_record(persona_id))
        try:
            persona = self.persona(persona_id)
            backend = self.backend_for(persona)
        except BaseException:
            # Nothing can answer now (unknown persona, backend misconfigured): the words are kept anyway.
            self._log_user(user)
            raise
        user.backend, user.model = backend.name, backend.model
        self._log_user(user)  # on disk before the model is asked
        if history is None:
            history = seen = self.window(off_record=user.off_record)  # the one read of the logs this turn makes
        # The gate was open when the message was accepted; if this message opened the file
        # that closes it, it is still answered (never a logged message left without a reply).
        return self._call(user, history, persona.id, on_chunk, stop, replaces=reply_replaces, persona=persona,
                          check_gate=False, seen=seen)

    def _call(self, user: Message, history: list[Message], persona_id, on_chunk, stop, replaces: str,
              persona: SurfacePersona | None = None, check_gate: bool = True,
              seen: list[Message] | None = None) -> TurnResult:
        """Args:
            history: the messages sent before ``user`` (fitted to the context here).
            seen: the whole window this turn read; with it the result carries the next turn's meter.
        """
        if check_gate:
            gate = self.gate()
            if gate.state == GateState.STOP and not (user.off_record and self.off_record(persona_id)):
                raise gate_error(gate)
        persona = persona or self.persona(persona_id)
        backend = self.backend_for(persona)
        revision = self.memory.revision() if persona.receives_memory else ""
        system = self.system_prompt(persona)  # off the record too: reading memory is fine, writing it is not
        off = user.off_record or self.off_record(persona.id)  # a reply said off the record is logged there
        history = [m for m in history if m.id != user.id]
        text = bounded(user).text
        if persona.post_history_instructions:
            # A card's trailing instruction rides on the last user turn (data, not template).
            text = f"{text}\n\n({persona.post_history_instructions})"
        fitted = self.fit(backend, system, history, text)
        if fitted.left_out:
            log.info("window: %s older message(s) not sent, to fit %s's context of %s tokens",
                     len(fitted.left_out), backend.describe(), backend.context_length())
        turns = self.turns_of(fitted.sent) + [Turn("user", text)]
        reply = backend.stream(system, turns, temperature=persona.temperature, stop=stop)
        try:
            for piece in reply:
                if on_chunk:
                    on_chunk(piece)
        except KnownError:
            self._log_reply(reply.text, ReplyStatus.PARTIAL, persona, backend, replaces, reply.usage, revision, off)
            raise
        except Exception:
            log.exception("backend %s crashed mid-reply", backend.describe())
            self._log_reply(reply.text, ReplyStatus.PARTIAL, persona, backend, replaces, reply.usage, revision, off)
            raise
        status = ReplyStatus.STOPPED if reply.stopped else ReplyStatus.OK
        message = self._log_reply(reply.text, status, persona, backend, replaces, reply.usage, revision, off)
        for warning in reply.usage.warnings:
            log.warning("%s", warning)
        meter = None if seen is None else self._meter(backend, system, self._window_after(seen, user, message))
        return TurnResult(user=user, reply=message, usage=reply.usage, system_prompt=system,
                          stopped=reply.stopped, warnings=list(reply.usage.warnings),
                          left_out=len(fitted.left_out), meter=meter)

    def _log_user(self, user: Message) -> None:
        """Append the user's message; a disk that cannot take it is an error that says it was not saved."""
        try:
            self._book(user).append(user)
        except StorageError as exc:
            raise type(exc)(f"Your message was not saved and not sent: {exc.message}", exc.hint) from exc

    def _log_reply(self, text: str, status: ReplyStatus, persona, backend, replaces: str,
                   usage: Usage, revision: str = "", off_record: bool = False) -> Message | None:
        """``revision``: the prompt memory's revision the reply was written with ("" without memory), so a
        later 👍/👎 knows which memories were in its prompt (``memory/feedback.py``)."""
        if not text and status != ReplyStatus.OK:
            return None
        message = Message(id=new_message_id(), ts=format_ts(self.clock()), role="assistant", text=text,
                          persona=persona.id, backend=backend.name, model=backend.model,
                          status=status, replaces=replaces, usage=usage.counts(),
                          memory_revision="" if revision == "empty" else revision, off_record=off_record)
        self._book(message).append(message)
        return message

    def _book(self, message: Message) -> LogBook:
        """Where a message is logged: off the record in its own files, which no flush reads."""
        if message.off_record:
            if self.logbook.off_record is None:  # a bug: never log an off-the-record message where a flush reads
                raise RuntimeError("off-the-record message without an off-the-record log")
            return self.logbook.off_record
        return self.logbook
