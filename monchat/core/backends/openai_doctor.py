"""``monchat doctor`` for an OpenAI-compatible server: the server, the key, the model, the context, the
answer format. The format is probed with one tiny request (one token at most) while it is unknown, so a
server without JSON schemas (llama_cpp.server answers 500 "Input should be 'text' or 'json_object'") is
known before a flush meets it; what was found is remembered for the address, as a flush would."""

from __future__ import annotations

import openai

from ..errors import AuthFailed, KnownError
from .base import Check, DoctorReport
from .model_size import small_model_check
from .openai_errors import rejects_schema, translate
from .openai_json import AUTO, OBJECT, SCHEMA, response_format

PROBE_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def doctor(backend) -> DoctorReport:
    """Never raises."""
    report = DoctorReport(backend.name, backend.model)
    source = backend.key_source()
    try:
        entries = backend._model_entries(backend.DOCTOR_TIMEOUT_S)
    except AuthFailed as exc:
        report.checks.append(Check("server", True, f"{backend.base_url} answered"))
        report.checks.append(Check("api key", False, exc.message, exc.hint, code=exc.code))
        return report
    except KnownError as exc:
        report.checks.append(Check("server", False, exc.message, exc.hint, code=exc.code))
        return report
    ids = [e.id for e in entries]
    report.checks.append(Check("server", True, f"{backend.base_url} answered; models: {', '.join(ids) or 'none'}"))
    report.checks.append(Check("api key", True, f"from {source}" if source else "none sent (a local server "
                                                                                  "needs none)"))
    model = backend.model or next((m for m in ids if "embed" not in m.lower()), "")
    if not model:
        report.checks.append(Check("model", False, "the server lists no chat model",
                                   "Load a model in LM Studio, or set openai.model.", code="no_model_listed"))
        return report
    if model not in ids:
        report.checks.append(Check("model", False, f"{model!r} is not among the server's models",
                                   f"Choose one of: {', '.join(ids) or 'none'} (openai.model or --model).",
                                   code="model_not_found"))
        return report
    report.model = model
    report.checks.append(Check("model", True, model if backend.model else f"{model} (the server's first)"))
    backend._context_asked = True
    backend._server_context, backend._context_said = backend._context_from_server(entries)
    report.context_length = backend.context_length()
    report.checks.append(Check("context", True, f"{report.context_length} tokens ({backend.context_source()})"))
    size = backend.model_size()  # what the server states, else the model's name ("SmolLM2-135M-…")
    if size is not None and size.small:
        report.checks.append(small_model_check(size))
    report.checks.append(_format_check(backend, model))
    return report


def _format_check(backend, model: str) -> Check:
    """How structured answers are asked for: the setting, what was learned, or one tiny request now."""
    setting = backend.json_mode.setting
    if setting != AUTO:
        return Check("answer format", True, f"{setting} (set in openai.json_mode)")
    if backend.json_mode.remembered() == OBJECT:
        return Check("answer format", True, "json_object with the schema (the server takes no JSON schema; "
                                            "learned earlier)")
    client = backend._client(backend.DOCTOR_TIMEOUT_S)
    try:
        client.chat.completions.create(
            model=model, messages=[{"role": "user", "content": "ok?"}], max_tokens=1,
            response_format=response_format(SCHEMA, PROBE_SCHEMA))
    except openai.OpenAIError as exc:
        if rejects_schema(exc):
            backend.json_mode.remember(OBJECT)
            return Check("answer format", True, "json_object with the schema (the server refused a JSON schema "
                                                "when asked just now)")
        failed = translate(exc, backend.base_url, backend.DOCTOR_TIMEOUT_S)
        return Check("answer format", False, f"a one-token test request failed: {failed.message}", failed.hint,
                     code=failed.code)
    finally:
        client.close()
    return Check("answer format", True, "json_schema (the server takes a JSON schema)")
