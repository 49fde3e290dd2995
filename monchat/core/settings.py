"""``settings.toml`` with typed defaults.

Every value has a default of a fixed type. Loading never crashes: an unknown
key, a value of the wrong type or out of range is reported as a warning and the
default is used instead.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import tomli_w

from .paths import write_private


@dataclass
class ChatSettings:
    persona: str = "hana"
    window_hours: int = 12
    language: str = ""  # "" follows the system; "ja" or "en"
    ctrl_enter_sends: bool = False  # False: Enter sends, Shift+Enter is a newline
    user_name: str = ""  # what {{user}} in an imported character card becomes ("" : "the user" / ユーザー)


@dataclass
class BackendSettings:
    name: str = "auto"  # auto (local backends only) | ollama | openai | gemini | embedded
    model: str = ""  # overrides the chosen backend's own model when set
    escalation: str = ""  # "gemini:gemini-2.5-pro", "ollama:qwen3:14b" or "" for none


@dataclass
class OllamaSettings:
    host: str = ""  # "" → OLLAMA_HOST → http://127.0.0.1:11434
    model: str = "gemma3:4b"
    num_ctx: int = 8192
    keep_alive: str = "30m"
    timeout_s: float = 120.0
    parallel: int = 1  # calls at once: the server's OLLAMA_NUM_PARALLEL (Ollama's default 1); no more are sent


@dataclass
class OpenAISettings:
    base_url: str = ""  # "" → OPENAI_BASE_URL → http://127.0.0.1:1234/v1 (LM Studio)
    model: str = ""  # "" → the server's first chat model
    context_length: int = 0  # 0 → what the server says, else 4096
    timeout_s: float = 120.0
    # auto: a JSON schema, and json_object (with the schema) once a server refuses one (remembered per address);
    # json_object: always, for a server known to take no schema (llama_cpp.server); json_schema: never fall back
    json_mode: str = "auto"
    parallel: int = 0  # calls at once (llama-server --parallel); 0 → 1 on this machine or network, 4 elsewhere


@dataclass
class GeminiSettings:
    model: str = "gemini-2.5-flash"
    api_version: str = "v1beta"
    base_url: str = ""  # "" → Google's endpoint
    cache_ttl_s: int = 3600
    timeout_s: float = 120.0
    flush_thinking_budget: int = 0  # flush calls' thinking tokens: 0 off (2.5 Flash); Pro ≥ 128; -1 not sent


@dataclass
class EmbeddedSettings:
    model_path: str = ""  # a catalog name (monchat models list) or a .gguf path; "" → the bundled SmolLM2-135M
    # n_ctx: the most context loaded; a model trained for less gets its own (from the GGUF header)
    n_ctx: int = 4096
    threads: int = 0  # 0 → the physical cores this process may use
    max_tokens: int = 512


@dataclass
class GateSettings:
    warn_files: int = 3
    stop_files: int = 5


@dataclass
class FlushSettings:
    fixed_personas: list = field(default_factory=lambda: ["lifestyle", "project"])
    seed: int = -1  # -1 → a fresh seed per flush (always recorded)
    layer2_threshold: float = 0.5
    judge_confidence: float = 0.7
    auto_approve_confidence: float = 0.8
    ask_before_layer1: bool = False
    layer1_cap: int = 50
    layer2_hours: int = 24
    half_life_days: float = 90.0
    preference_half_life_days: float = 60.0  # a preference's confidence halves in this many days without evidence
    auto_approve_preferences: bool = False  # a new version of a preference is applied without asking (when sure)
    review_deadline_days: int = 7
    memory_token_budget: int = 1500
    parallel: int = 0  # a flush's calls at once; 0 → the backend's (ollama.parallel, openai.parallel, embedded 1,
    # Gemini 4); a local server is never sent more than it answers at once, a cloud may be sent this many
    retries: int = 3  # a flush call failing transiently (429, 5xx, timeout) is asked again this many times
    retry_delay_s: float = 1.0  # the first wait before a retry; each later one doubles (with jitter)


@dataclass
class BackgroundSettings:
    reflect: bool = True  # after judging, one call looks back over the flush (insights and gaps for the inbox)
    diary: bool = True  # one call per local day with new user messages writes that day's page
    gap_hint: bool = True  # the chat prompt may carry one "ask about X if it comes up" line
    # A structural gap (background/neighbours.py) once a topic has this many messages in 30 days (0: off)
    structural_gap_after: int = 5
    skill_half_life_days: float = 30.0  # a skill use's experience point halves in this many days
    lint: bool = True  # knowledge lint at each flush: structure and grounding rules (background/lint.py)
    lint_llm: bool = True  # and its one LLM call: which same-family pairs of memories contradict
    warm_start: bool = True  # the window warms the backend after a flush (core/chat/warm.py); the CLI with --warm


@dataclass
class GraphSettings:
    """The graph of what you talk about (core/background/graph.py): five signals' weights and the thresholds."""

    enabled: bool = True  # rebuilt at each flush
    weight_co_occurrence: float = 0.3
    weight_session_overlap: float = 0.2
    weight_adamic_adar: float = 0.15
    weight_type_affinity: float = 0.1
    weight_similarity: float = 0.25
    edge_threshold: float = 0.35  # an edge below it is held (stored, not drawn)
    max_nodes: int = 120  # the nodes with the most sessions
    bridge_threshold: float = 0.5  # a bridge between two old clusters is queued at this weight
    two_hop_threshold: float = 1.0  # Adamic–Adar of two nodes never in one session
    missing_threshold: float = 0.75  # share of a cluster a node outside it has held edges to


@dataclass
class TierSettings:
    """Temperature tiers (core/records/tiers.py): days since a memory (or archive day) was last touched."""

    hot_days: float = 14.0  # up to this many idle days: hot (full text)
    warm_days: float = 60.0  # up to this: warm (full text, after hot when the budget is tight)
    cold_days: float = 180.0  # up to this: cold (a slot's cold memories become one digest); beyond: frozen
    evidence_stretch: float = 0.25  # each evidence day after the first stretches the idle days' limits by this
    max_stretch: float = 3.0  # at most this many times
    digest: bool = True  # the flush asks for digests of cold slots (one call per slot)
    digest_min_items: int = 2  # a slot needs this many cold memories for a digest
    digest_max_slots: int = 3  # digest calls per flush at most


@dataclass
class McpSettings:
    """The MCP server (``monchat mcp``, core/transfer/mcp_server.py): read-only unless the user allows proposing."""

    allow_propose: bool = False  # propose_memory may put proposals into the review queue (never into memory)


@dataclass
class OffRecordSettings:
    """Off-the-record chats (core/logs/off_record.py): their own log files, read by no flush, removed after ``hours``."""

    hours: int = 24
    personas: list = field(default_factory=list)  # surface persona ids whose chats start off the record


@dataclass
class Settings:
    chat: ChatSettings = field(default_factory=ChatSettings)
    backend: BackendSettings = field(default_factory=BackendSettings)
    ollama: OllamaSettings = field(default_factory=OllamaSettings)
    openai: OpenAISettings = field(default_factory=OpenAISettings)
    gemini: GeminiSettings = field(default_factory=GeminiSettings)
    embedded: EmbeddedSettings = field(default_factory=EmbeddedSettings)
    gate: GateSettings = field(default_factory=GateSettings)
    flush: FlushSettings = field(default_factory=FlushSettings)
    background: BackgroundSettings = field(default_factory=BackgroundSettings)
    graph: GraphSettings = field(default_factory=GraphSettings)
    tiers: TierSettings = field(default_factory=TierSettings)
    mcp: McpSettings = field(default_factory=McpSettings)
    off_record: OffRecordSettings = field(default_factory=OffRecordSettings)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _between(low: float, high: float) -> Callable[[Any], bool]:
    """A range check; NaN and infinities never pass."""
    return lambda v: math.isfinite(v) and low <= v <= high


def _unit(v) -> bool:
    return math.isfinite(v) and 0.0 <= v <= 1.0


YEAR_HOURS = 24 * 366

# Every numeric setting has a real range: a value that passes can never break chat or a flush
# (e.g. a window of 10^8 hours overflows date arithmetic). A failing value falls back to its default.
CHECKS: dict[str, Callable[[Any], bool]] = {
    "chat.persona": lambda v: 0 < len(v) <= 40,
    "chat.window_hours": _between(1, 24 * 30),
    "chat.language": lambda v: v in ("", "ja", "en"),
    "chat.user_name": lambda v: len(v) <= 40 and "\n" not in v,
    "backend.name": lambda v: v in ("auto", "ollama", "openai", "gemini", "embedded"),
    "openai.context_length": _between(0, 10_000_000),
    "background.structural_gap_after": _between(0, 10000),
    "background.skill_half_life_days": _between(1, 3650),
    "openai.timeout_s": _between(1, 3600),
    "openai.json_mode": lambda v: v in ("auto", "json_schema", "json_object"),
    "ollama.num_ctx": _between(512, 1_048_576),
    "ollama.timeout_s": _between(1, 3600),
    "ollama.parallel": _between(1, 64),
    "openai.parallel": _between(0, 64),
    "gemini.cache_ttl_s": _between(60, 7 * 24 * 3600),
    "gemini.timeout_s": _between(1, 3600),
    "gemini.api_version": lambda v: v in ("v1", "v1beta", "v1alpha"),
    "gemini.flush_thinking_budget": _between(-1, 32_768),
    "embedded.n_ctx": _between(256, 131_072),
    "embedded.threads": _between(0, 256),
    "embedded.max_tokens": _between(1, 32_768),
    "gate.warn_files": _between(1, 1000),
    "gate.stop_files": _between(1, 1000),
    "flush.fixed_personas": lambda v: all(isinstance(x, str) for x in v) and len(v) <= 2,
    "flush.seed": _between(-1, 2**31 - 1),
    "flush.layer2_threshold": _unit,
    "flush.judge_confidence": _unit,
    "flush.auto_approve_confidence": _unit,
    "flush.layer1_cap": _between(1, 10_000),
    "flush.layer2_hours": _between(1, YEAR_HOURS),
    "flush.half_life_days": _between(1, 36_500),
    "flush.preference_half_life_days": _between(1, 36_500),
    "flush.review_deadline_days": _between(1, 3650),
    "flush.memory_token_budget": _between(100, 1_000_000),
    "flush.parallel": _between(0, 16),
    "flush.retries": _between(0, 10),
    "flush.retry_delay_s": _between(0.0, 60.0),
    **{f"graph.weight_{k}": _between(0.0, 10.0) for k in ("co_occurrence", "session_overlap", "adamic_adar",
                                                          "type_affinity", "similarity")},
    "graph.edge_threshold": _unit,
    "graph.max_nodes": _between(2, 1000),
    "graph.bridge_threshold": _unit,
    "graph.two_hop_threshold": _between(0.0, 100.0),
    "graph.missing_threshold": _unit,
    "tiers.hot_days": _between(0, 36_500),
    "tiers.warm_days": _between(0, 36_500),
    "tiers.cold_days": _between(0, 36_500),
    "tiers.evidence_stretch": _between(0, 10),
    "tiers.max_stretch": _between(1, 100),
    "tiers.digest_min_items": _between(1, 50),
    "tiers.digest_max_slots": _between(0, 50),
    "off_record.hours": _between(1, 24 * 365),
    "off_record.personas": lambda v: all(isinstance(x, str) and 0 < len(x) <= 40 for x in v) and len(v) <= 200,
}


def _coerce(value: Any, default: Any) -> Any:
    """Return ``value`` as the default's type, or raise TypeError."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
    elif isinstance(default, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif isinstance(default, str):
        if isinstance(value, str):
            return value
    elif isinstance(default, list):
        if isinstance(value, list):
            return list(value)
    raise TypeError(f"expected {type(default).__name__}, got {type(value).__name__}")


def settings_from_dict(raw: dict) -> tuple[Settings, list[str]]:
    """Build settings from parsed TOML; return them with a warning per bad value."""
    settings = Settings()
    warnings: list[str] = []
    for section_name, section_raw in raw.items():
        if not any(f.name == section_name for f in dataclasses.fields(Settings)):
            warnings.append(f"unknown section [{section_name}] ignored")
            continue
        if not isinstance(section_raw, dict):
            warnings.append(f"[{section_name}] must be a table; defaults used")
            continue
        section = getattr(settings, section_name)
        names = {f.name for f in dataclasses.fields(section)}
        for key, value in section_raw.items():
            dotted = f"{section_name}.{key}"
            if key not in names:
                warnings.append(f"unknown setting {dotted} ignored")
                continue
            default = getattr(section, key)
            try:
                coerced = _coerce(value, default)
            except TypeError as exc:
                warnings.append(f"{dotted}: {exc}; using default {default!r}")
                continue
            check = CHECKS.get(dotted)
            if check and not check(coerced):
                warnings.append(f"{dotted}: {value!r} is out of range; using default {default!r}")
                continue
            setattr(section, key, coerced)
    if settings.gate.warn_files > settings.gate.stop_files:
        warnings.append("gate.warn_files is above gate.stop_files; using defaults 3 and 5")
        settings.gate = GateSettings()
    return settings, warnings


def empty_model_names(settings: Settings) -> list[str]:
    """The backends (``"ollama"``, ``"gemini"``) whose model name is empty: nothing could answer with them.

    ``backend.model`` may be empty (no override) and so may ``embedded.model_path`` (the bundled model).
    """
    return [name for name in ("ollama", "gemini") if not getattr(settings, name).model.strip()]


def load_settings(path: Path) -> tuple[Settings, list[str]]:
    """Read ``settings.toml``; a missing file means all defaults."""
    if not path.exists():
        return Settings(), []
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return Settings(), [f"{path} is not valid TOML ({exc}); all defaults used, the file was left as it is"]
    except RecursionError:
        return Settings(), [f"{path} is nested too deeply to read; all defaults used, the file was left as it is"]
    return settings_from_dict(raw)


def save_settings(settings: Settings, path: Path) -> None:
    write_private(path, tomli_w.dumps(settings.to_dict()))


def set_value(settings: Settings, dotted: str, text: str) -> None:
    """Set one value from text (``monchat`` CLI and GUI use this). Raises SettingsError."""
    from .errors import SettingsError

    section_name, _, key = dotted.partition(".")
    section = getattr(settings, section_name, None)
    if section is None or not hasattr(section, key):
        raise SettingsError(f"There is no setting {dotted}.", "See `monchat settings` for the list.")
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        value = text
    if isinstance(getattr(section, key), str) and not isinstance(value, str):
        value = text  # a text setting takes the text as typed (keep_alive "-1", persona "2024")
    # Validate against the current values, so pairs (gate.warn_files ≤ gate.stop_files) see both.
    current = settings.to_dict()
    current[section_name][key] = value
    fixed, warnings = settings_from_dict(current)
    if warnings:
        raise SettingsError(f"{dotted}: {text!r} is not accepted.", warnings[0])
    setattr(section, key, getattr(getattr(fixed, section_name), key))
