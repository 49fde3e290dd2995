"""Any OpenAI-compatible server (LM Studio, llama.cpp's llama-server, vLLM, LocalAI, OpenRouter)
through the official ``openai`` client.

Design notes:

- The base URL comes from settings (``openai.base_url``), else ``OPENAI_BASE_URL``, else LM
  Studio's ``http://127.0.0.1:1234/v1``; the key from ``OPENAI_API_KEY`` or the OS keyring,
  never a file. A local server needs no key: a placeholder is sent (the client insists on one).
- The client's own retries are off (``max_retries=0``): a chat turn is not repeated behind the
  user's back, and flush calls retry under ``complete_json``'s policy, which knows which
  faults are transient (``openai_errors.translate`` marks 429, 500/502/503/504, timeouts, dropped
  connections).
- Structured output asks for ``response_format: json_schema`` with ``max_tokens`` set to the answer room
  (``json_answer_reserve``), falling back once to ``json_object`` for a server that takes no schema
  (``openai_json.py``); the answer's shape is checked either way.
- Replies and answers stream and are read one way (``openai_stream.py``: text, finish reason, usage). A
  stream that ends without a ``finish_reason`` was cut off (``ReplyCutOff``, transient): the chat logs what
  arrived as partial; a flush call is asked again, and structured calls to that server then run one at a
  time (``PARALLEL_CALLS`` 1, state ``openai.one_at_a_time.<base url>``).
- A stop closes the stream at once, even before the first token (``stop_watch.py``).
- The context: ``openai.context_length``, else what the server taught or states, else 4096
  (``openai_context.py``: llama_cpp.server states nothing and is learned from its refusal; the flush then
  plans again). At 2,048 or less the answer room is 640 tokens and the schema is stated as a short example,
  so a flush still fits (short filter instructions, shorter texts and chunks); below 2,048 it does not.
- ``openai.model`` may be empty: the server's first chat model (not an embedding model) is
  used, which is what a user with one model loaded in LM Studio expects.
"""

from __future__ import annotations

import logging
import math
import threading
from typing import Callable, Iterator

import openai

from ..errors import BackendUnreachable, KnownError, MalformedReply, ModelNotFound
from ..privacy.cloud import is_local_url
from ..tokens import count_turns
from ..types import Coded, Turn
from .addresses import DEFAULT_BASE_URL, resolve_base_url  # noqa: F401 (re-exported)
from .base import Backend, DoctorReport, Reply, chat_messages, key_source_of
from .model_size import ModelSize, listed_size
from .openai_context import ASSUMED as DEFAULT_CONTEXT_LENGTH
from .openai_context import CONTEXT_KEY, NO_KEY, filler, learn_context, server_context
from .openai_stated import Stated, stated
from .openai_errors import no_api, stream_cut_off, translate
from .openai_json import SCHEMA, JsonMode, checked, response_format, schema_in_system
from .openai_stream import StreamEnd, texts
from .retry import RetryPolicy
from .stop_watch import close_on_stop

log = logging.getLogger(__name__)

LOCAL_PARALLEL, CLOUD_PARALLEL = 1, 4  # calls at once when openai.parallel is 0 (PARALLEL_CALLS)
ONE_AT_A_TIME_KEY = "openai.one_at_a_time.{url}"  # "1": the server cuts a running reply off when another arrives
SMALL_CONTEXT = 2048  # at most this: the answer room is the small one (SMALL_ANSWER_RESERVE)
SMALL_ANSWER_RESERVE = 640  # as the embedded model's: the flush asks for shorter texts (asking/ask.py)
SHORT_ANSWER = 0.75  # an answer cut at "length" before this share of max_tokens was cut by the context


class OpenAICompatBackend(Backend):
    """Chat and structured output through a server that speaks the OpenAI chat API."""

    name = "openai"
    CONTEXT_SETTING = "openai.context_length"
    PROBE_TIMEOUT_S = 1.5
    FLUSH_LINE = 4  # a flush's calls ready at once; the server is sent PARALLEL_CALLS of them (base.py)
    DOCTOR_TIMEOUT_S = 5.0

    def __init__(self, model: str, *, base_url: str = "", api_key: Callable[[], str | None] = lambda: None,
                 context_length: int = 0, timeout_s: float = 120.0, state=None, json_mode: str = "auto",
                 parallel: int = 0, retry: RetryPolicy | None = None) -> None:
        super().__init__(model, retry=retry)
        self.base_url = resolve_base_url(base_url)
        self.parallel = parallel  # openai.parallel: 0 → LOCAL_PARALLEL here, CLOUD_PARALLEL elsewhere
        self._api_key = api_key
        self._context_setting = context_length
        self.timeout_s = timeout_s
        self._state = state
        self.json_mode = JsonMode(json_mode, state, self.base_url)  # the response_format this server takes
        self._lock = threading.Lock()
        self._client_obj: openai.OpenAI | None = None
        self._client_key: str | None = None
        self._server_context: int | None = None
        self._context_said = ""  # where the server stated it (doctor)
        self._stated_obj: Stated | None = None
        self._context_asked = False
        self._learned: int | None = None  # the context this object learned from the server's refusal
        self._one_at_a_time = self._stored(ONE_AT_A_TIME_KEY) == "1"
        self._one_lock = threading.Lock()  # held by each structured call once the server interrupts
        self.hold: Callable[[], None] = lambda: None  # raises while the destination is not agreed to (registry)

    @property
    def PARALLEL_CALLS(self) -> int:  # type: ignore[override]  # noqa: N802 (the backend's class constant, per server)
        """Calls in flight at once: what the server answers at once, no more, or a call sent beyond it waits in
        the server's queue, where a chat turn asked later lines up behind it (``CallTurns`` cannot put it first).
        ``openai.parallel`` when set; else 1 for a server on this machine or network: llama_cpp.server answers
        one request at a time, llama-server answers ``-np/--parallel`` at once (1 in older builds; newer ones
        default to "-1 = auto", 4 slots sharing one cache), LM Studio its "Max Concurrent Predictions" (4 by
        default where offered): a server that answers more is told in ``openai.parallel``. A server elsewhere (OpenRouter, vLLM) serves many:
        CLOUD_PARALLEL. A server found to cut a running reply off when another request arrives is asked one
        call at a time whatever the setting."""
        if self._one_at_a_time:
            return 1
        if self.parallel > 0:
            return self.parallel
        return LOCAL_PARALLEL if self.is_local() else CLOUD_PARALLEL

    def _stored(self, key: str) -> str | None:
        return self._state.get_state(key.format(url=self.base_url)) if self._state is not None else None

    def _store(self, key: str, value: str) -> None:
        if self._state is not None:
            self._state.set_state(key.format(url=self.base_url), value)

    # ---- client ----------------------------------------------------------
    def _client(self, timeout_s: float | None = None) -> openai.OpenAI:
        self.hold()  # every request starts here: none goes to a destination not agreed to (issue 36)
        key = self._api_key() or NO_KEY
        if timeout_s is not None:  # doctor and probe: a short-lived client of their own
            return openai.OpenAI(base_url=self.base_url, api_key=key, max_retries=0, timeout=timeout_s)
        with self._lock:
            if self._client_obj is None or key != self._client_key:
                if self._client_obj is not None:
                    self._client_obj.close()
                self._client_obj = openai.OpenAI(base_url=self.base_url, api_key=key, max_retries=0,
                                                 timeout=self.timeout_s)
                self._client_key = key
            return self._client_obj

    def close(self) -> None:
        with self._lock:
            if self._client_obj is not None:
                self._client_obj.close()
                self._client_obj = None

    def where(self) -> str:
        return self.base_url

    def is_local(self) -> bool:
        return is_local_url(self.base_url)

    # ---- models ------------------------------------------------------------
    def list_models(self, timeout_s: float | None = None) -> list[str]:
        """The ids the server's ``/models`` lists (settings dialog, ``doctor``, a 404's hint).

        Raises:
            BackendError: the server could not be asked.
        """
        return [entry.id for entry in self._model_entries(timeout_s)]

    def _model_entries(self, timeout_s: float | None = None) -> list:
        client = self._client(timeout_s)
        try:
            return list(client.models.list())
        except openai.NotFoundError as exc:
            raise no_api(self.base_url, exc) from exc
        except openai.OpenAIError as exc:
            raise translate(exc, self.base_url, self.timeout_s) from exc
        finally:
            if timeout_s is not None:
                client.close()

    def _model(self) -> str:
        """The model to ask: the setting, else the server's first chat model."""
        if self.model:
            return self.model
        chat_models = [m for m in self.list_models() if "embed" not in m.lower()]
        if not chat_models:
            raise ModelNotFound(f"The server at {self.base_url} lists no chat model.",
                                "Load a model in LM Studio (or start the server with one), or set openai.model.")
        self.model = chat_models[0]
        log.info("openai: no model set; using the server's first, %s", self.model)
        return self.model

    def _model_size(self) -> ModelSize | None:
        """llama.cpp's ``llama-server`` states ``meta.n_params`` per model in ``/v1/models``; LM Studio and Ollama in
        their own APIs (``openai_stated``); else the name tells (``Backend.model_size``)."""
        return listed_size(self._model_entries(self.DOCTOR_TIMEOUT_S), self._model()) or self._stated().size

    def context_length(self) -> int:
        """The setting; else what the server taught (remembered), what it states, or 4096 (``openai_context``)."""
        if self._context_setting > 0:
            return self._context_setting
        learned = self._stored(CONTEXT_KEY)
        if learned and learned.isdigit():
            return int(learned)
        if not self._context_asked:
            self._context_asked = True
            try:
                self._server_context, self._context_said = self._context_from_server(
                    self._model_entries(self.DOCTOR_TIMEOUT_S))
            except KnownError as exc:
                log.info("openai: the context length could not be asked (%s)", exc.message)
            if not self._server_context:
                log.warning("openai: %s states no context; %s tokens assumed (set openai.context_length to the "
                            "context the model is loaded with)", self.base_url, DEFAULT_CONTEXT_LENGTH)
        return self._server_context or DEFAULT_CONTEXT_LENGTH

    def context_assumed(self) -> bool:
        """Whether ``context_length`` is a guess (nothing set, stated or learned): doctor and status say so."""
        self.context_length()
        return not (self._context_setting > 0 or (self._stored(CONTEXT_KEY) or "").isdigit() or self._server_context)

    def context_source(self) -> str:
        """Where ``context_length`` comes from, for doctor."""
        if self._context_setting > 0:
            return "set in openai.context_length"
        if (self._stored(CONTEXT_KEY) or "").isdigit():
            return "learned from the server, asked once for this address"
        if self._server_context:
            return self._context_said or "as the server says"
        return ("assumed: the server does not say; set openai.context_length to the context the model is "
                "loaded with")

    def _stated(self) -> Stated:
        """What LM Studio's or Ollama's own API states (context, size), asked once per object."""
        if self._stated_obj is None:
            self._stated_obj = stated(self.base_url, self._api_key() or NO_KEY, self.model, self.DOCTOR_TIMEOUT_S)
        return self._stated_obj

    def json_answer_reserve(self) -> int:
        """A small context (2,048 or less: llama_cpp.server's default) keeps the embedded model's small answer
        room, so the instructions and a chunk of the log still fit; the flush then asks for shorter texts."""
        if self.context_length() <= SMALL_CONTEXT:
            return min(SMALL_ANSWER_RESERVE, self.context_length() // 2)
        return super().json_answer_reserve()

    def _context_from_server(self, entries: list) -> tuple[int | None, str]:
        return server_context(self, entries)

    def _learn_context(self, messages: list[dict], estimate: int | None = None) -> None:
        learn_context(self, messages, estimate)

    # ---- streaming ---------------------------------------------------------
    def _stream(self, system: str, turns: list[Turn], temperature: float | None,
                reply: Reply) -> Iterator[str]:
        end = StreamEnd(count_turns(system, turns))
        reply.usage = end.usage
        extra = {"temperature": temperature} if temperature is not None else {}
        chunks = None
        watching = threading.Event()
        try:
            chunks = self._client().chat.completions.create(  # type: ignore[call-overload]  # plain role/content dicts (chat_messages); the SDK wants its TypedDicts
                model=self._model(), messages=chat_messages(system, turns), stream=True,
                stream_options={"include_usage": True}, **extra)
            close_on_stop(chunks, reply.stop, watching)
            yield from texts(chunks, end)
        except Exception as exc:
            if reply.stop.is_set():  # the stream closed at the user's stop, before its first token
                return
            if isinstance(exc, openai.OpenAIError):
                raise self._translate(exc) from exc
            raise
        finally:
            reply.usage = end.usage  # the server's count once its last chunk came
            watching.set()
            if chunks is not None:
                chunks.close()  # a stopped reply closes the HTTP stream, so the server stops generating
        if reply.stop.is_set():
            return
        if end.finish is None:  # a bare [DONE] or an empty stream: cut off, never a whole reply
            if not end.anything:  # llama_cpp.server's answer to a request over its context
                self._learn_context(chat_messages(system, turns))
            raise stream_cut_off(self.base_url, end.anything)
        if end.finish == "length":
            reply.usage.warnings.append(Coded(f"The server at {self.base_url} cut the reply at its length limit.",
                                              "cut_at_length"))

    # ---- structured output --------------------------------------------------
    def _schema_system(self, system: str, schema: dict) -> str:
        """The system text with the schema stated (``openai_json.schema_in_system``), short at a small context."""
        return schema_in_system(system, schema, small=self.context_length() <= SMALL_CONTEXT)

    def count_json_request(self, system: str, turns: list[Turn], schema: dict) -> int:
        """Counted as the json_object request (the schema in the system text): the larger of the two."""
        return math.ceil(count_turns(self._schema_system(system, schema), turns) * self.ESTIMATE_MARGIN)

    def _complete_json(self, system: str, turns: list[Turn], schema: dict, temperature: float) -> str:
        if self._one_at_a_time:  # this server interrupts a running reply: one call at a time
            with self._one_lock:
                return self._complete_json_once(system, turns, schema, temperature)
        return self._complete_json_once(system, turns, schema, temperature)

    def _complete_json_once(self, system: str, turns: list[Turn], schema: dict, temperature: float) -> str:
        def ask(mode: str) -> str:
            # json_object also states the schema in the system text, for a server that only reads that
            stated = system if mode == SCHEMA else self._schema_system(system, schema)
            return self._ask_json(stated, turns, temperature, response_format(mode, schema))
        try:
            raw = self.json_mode.answer(ask)
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc
        return checked(raw, schema)

    def _ask_json(self, system: str, turns: list[Turn], temperature: float, answer_format: dict) -> str:
        """Streamed, so a flush shows the answer's tokens as they arrive (a chunk is about a token).
        ``max_tokens`` is the answer room the flush sized its request for."""
        end = StreamEnd(count_turns(system, turns))
        self.last_usage = end.usage
        pieces, chunks = [], None
        try:
            chunks = self._client().chat.completions.create(  # type: ignore[call-overload]  # plain role/content dicts (chat_messages); the SDK wants its TypedDicts
                model=self._model(), messages=chat_messages(system, turns), stream=True,
                stream_options={"include_usage": True}, temperature=temperature, response_format=answer_format,
                max_tokens=self.json_answer_reserve())
            for text in texts(chunks, end):
                pieces.append(text)
                self._tokens_arrived()
        finally:
            self.last_usage = end.usage
            if chunks is not None:
                chunks.close()
        if end.finish is None:
            if not end.anything:  # llama_cpp.server's answer to a request over its context
                self._learn_context(chat_messages(system, turns))
            if end.anything and not self._one_at_a_time:
                log.warning("openai: %s cut an answer off (no finish reason); asking it one call at a time "
                            "from now on", self.base_url)
                self._one_at_a_time = True
                self._store(ONE_AT_A_TIME_KEY, "1")
            raise stream_cut_off(self.base_url, end.anything)
        answered = self.last_usage.output_tokens or len(pieces)  # a chunk is about a token
        if end.finish == "length" and answered < self.json_answer_reserve() * SHORT_ANSWER:
            # cut long before max_tokens: the server left the answer only what its context had left
            self._learn_context(filler(self.context_length()), end.estimate + answered)
        if end.finish == "length":
            raise MalformedReply(f"The server at {self.base_url} cut the answer off at its length limit.",
                                 "Try again; a larger context (openai.context_length) leaves more room.")
        return "".join(pieces)

    # ---- errors --------------------------------------------------------------
    def _translate(self, exc: Exception) -> KnownError:
        """A failed chat or structured call: a 404 names the models the server has."""
        if isinstance(exc, openai.NotFoundError):
            return self._not_found(exc)
        return translate(exc, self.base_url, self.timeout_s)

    def _not_found(self, exc: Exception) -> KnownError:
        """A 404 on a chat: usually the model; say which models the server has."""
        try:
            models = self.list_models(self.DOCTOR_TIMEOUT_S)
        except KnownError:
            return no_api(self.base_url, exc)
        have = ", ".join(models) if models else "none"
        return ModelNotFound(f"The server at {self.base_url} has no model {self.model!r} (it has: {have}).",
                             "Choose one of those with --model or openai.model, or load the model in LM Studio.")

    # ---- health --------------------------------------------------------------
    def doctor(self) -> DoctorReport:
        """Check the server, the key, the model, the context length and the answer format; never raises."""
        from .openai_doctor import doctor
        return doctor(self)

    def not_running(self) -> KnownError | None:
        """``BackendUnreachable`` (with its remedy) when the server does not answer ``/models`` within 1.5 s."""
        try:
            self.list_models(self.PROBE_TIMEOUT_S)
        except BackendUnreachable as exc:
            return exc
        except KnownError:
            return None  # it answered (a refusal, a missing key): the call or doctor says the rest
        return None

    def probe(self) -> bool:
        """True when the server answers within 1.5 s and has the model (or any, when none is set)."""
        try:
            ids = self.list_models(self.PROBE_TIMEOUT_S)
        except KnownError as exc:
            log.info("openai probe of %s failed: %s", self.base_url, exc.message)
            return False
        return self.model in ids if self.model else any("embed" not in m.lower() for m in ids)

    def key_source(self) -> str:
        """Where the key comes from (``SecretStore.openai_key_source``), for doctor; "" when nothing says."""
        return key_source_of(self._api_key, "openai_key_source")

