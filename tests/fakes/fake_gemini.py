"""A tiny fake Gemini Developer API server for tests (standard library only).

Extended from shared/reference/examples/fake_gemini.py. It imitates the REST
calls that `google-genai` (3.x, also 2.x) makes in Gemini-API mode, under any
version prefix (`/v1/...` or `/v1beta/...`):

    POST   /{v}/models/{model}:generateContent
    POST   /{v}/models/{model}:streamGenerateContent?alt=sse   (Server-Sent Events)
    POST   /{v}/models/{model}:countTokens        -> {"totalTokens": N}
    GET    /{v}/models                            -> {"models": [...]}
    GET    /{v}/models/{model}                    -> one model
    POST   /{v}/cachedContents                    -> create a cache
    GET    /{v}/cachedContents                    -> {"cachedContents": [...]}
    GET    /{v}/cachedContents/{id}               -> one cache
    PATCH  /{v}/cachedContents/{id}               -> update ttl / expireTime
    DELETE /{v}/cachedContents/{id}               -> 200 with body {}

Rules it follows because the SDK depends on them:
* Success is always status 200 (the SDK raises APIError for anything else,
  even 204). Errors use {"error": {"code", "message", "status"}}; the SDK maps
  4xx to `errors.ClientError` and 5xx to `errors.ServerError`.
* Streaming sends one `data: <json>` event per chunk, separated by a blank
  line; finishReason and the final usageMetadata come on the last chunk.
* Like the real API, a generateContent request that sets `cachedContent`
  together with systemInstruction, tools or toolConfig gets 400 INVALID_ARGUMENT.
* An unknown cache name gets `server.missing_cache_code` (403 PERMISSION_DENIED
  by default; the real API's exact answer here is unverified).
* An unknown model gets the real API's 404 NOT_FOUND wording.

Start it with `start()` (port 0 lets the OS pick a free port on 127.0.0.1);
stop it with `server.shutdown(); server.server_close()`.

Knobs on the returned server object:

    server.reply_chunks      list of text pieces; streamed one per event,
                             joined for generateContent
    server.structured_reply  None, or f(request body) -> the text of a structured (responseJsonSchema)
                             generateContent reply (a model that reads the request)
    server.error             None, or (code, status) such as (429, "RESOURCE_EXHAUSTED"),
                             or (code, status, message), to answer every request
                             with that error
    server.mode              "ok" | "midstream_error" (first chunk, then an error event)
    server.faults            a script for the next generate calls, one entry each, consumed in
                             order: None (answer normally), ("status", CODE, STATUS) (an API
                             error), ("stall", SECONDS) (wait, then answer) or ("reset",) (drop
                             the connection with a TCP RST, no answer)
    server.thoughts_tokens   None, or the thoughtsTokenCount reported in usageMetadata
    server.cache_min_tokens  None, or a minimum; cachedContents create then
                             fails with the real API's "too small" 400 when the
                             cache's estimated size (characters / 4) is below it
    server.models            dict model id -> inputTokenLimit (others get 404)
    server.no_cache_models   model ids whose cachedContents create gets the 404
                             "not supported for createCachedContent"
    server.missing_cache_code  403 or 404: the answer for an unknown cache name
    server.caches            dict name -> cachedContent JSON (delete an entry
                             to make a cache "expire")
    server.requests          list of {"method", "path", "headers", "body"} received

Helpers: `server.generate_bodies()` (bodies of generate calls, stream or not),
`server.calls(method, fragment)` (requests whose path contains fragment).
"""

import itertools
import json
import threading
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

from tests.fakes import http

KEPT_HEADERS = ("content-type", "x-goog-api-key", "user-agent", "x-goog-api-client")
STAMP = "2025-01-01T00:00:00.000000Z"


def generate_response(text, finish="STOP", cached_tokens=0, thoughts_tokens=None):
    """One generateContent response (also one SSE chunk of a stream)."""
    candidate = {"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    usage = {
        "promptTokenCount": 1200,
        "candidatesTokenCount": 5,
        "totalTokenCount": 1205,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 1200}],
    }
    if thoughts_tokens is not None:
        usage["thoughtsTokenCount"] = thoughts_tokens
    if cached_tokens:
        usage["cachedContentTokenCount"] = cached_tokens
        usage["cacheTokensDetails"] = [{"modality": "TEXT", "tokenCount": cached_tokens}]
    return {
        "candidates": [candidate],
        "usageMetadata": usage,
        "modelVersion": "gemini-2.5-flash",
        "responseId": "abc123",
    }


def model_json(model_id, input_limit):
    return {
        "name": f"models/{model_id}",
        "displayName": model_id,
        "inputTokenLimit": input_limit,
        "outputTokenLimit": 65536,
        "supportedGenerationMethods": ["generateContent", "countTokens", "createCachedContent"],
    }


def _text_length(obj):
    """Characters of text inside a request fragment (for the cache size check)."""
    if isinstance(obj, dict):
        return sum(_text_length(v) for v in obj.values())
    if isinstance(obj, list):
        return sum(_text_length(v) for v in obj)
    return len(obj) if isinstance(obj, str) else 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # needed for chunked streaming

    def log_message(self, *args):  # keep test output quiet
        pass

    # ---- request and response plumbing ---------------------------------
    def _read_json(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length)) if length else None

    def _send_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_error(self, code, status, message):
        self._send_json(code, {"error": {"code": code, "message": message, "status": status}})

    def _send_sse(self, events):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for event in events:
            payload = ("data: " + json.dumps(event) + "\r\n\r\n").encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(payload), payload))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _model_not_found(self, model_id, method):
        # The real API's wording for an unknown model.
        self._send_error(404, "NOT_FOUND",
                         f"models/{model_id} is not found for API version v1beta, or is not supported "
                         f"for {method}. Call ListModels to see the list of available models and their "
                         "supported methods.")

    def _missing_cache(self, name):
        code = self.server.missing_cache_code
        status = "PERMISSION_DENIED" if code == 403 else "NOT_FOUND"
        self._send_error(code, status, f"CachedContent not found (or permission denied): {name}")

    # ---- dispatch ------------------------------------------------------
    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_PATCH(self):
        self._handle("PATCH")

    def do_DELETE(self):
        self._handle("DELETE")

    def _handle(self, method):
        srv = self.server
        body = self._read_json()
        headers = {k: v for k, v in self.headers.items() if k.lower() in KEPT_HEADERS}
        with srv.lock:
            srv.requests.append({"method": method, "path": self.path, "headers": headers, "body": body})

        if srv.error:
            code, status, *message = srv.error
            return self._send_error(code, status, message[0] if message else "fake error")

        # "/v1beta/models/gemini-2.5-flash:generateContent" -> "models/gemini-2.5-flash:generateContent"
        path = urlsplit(self.path).path
        resource = path.lstrip("/").split("/", 1)[1] if path.count("/") > 1 else ""

        if resource.startswith("models/") and ":" in resource:
            model_id, action = resource[len("models/"):].split(":", 1)
            return self._model_action(model_id, action, body or {})
        if resource.startswith("models/") and method == "GET":
            model_id = resource[len("models/"):]
            if model_id not in srv.models:
                return self._model_not_found(model_id, "get")
            return self._send_json(200, model_json(model_id, srv.models[model_id]))
        if resource == "models" and method == "GET":
            return self._send_json(200, {"models": [model_json(m, n) for m, n in srv.models.items()]})
        if resource == "cachedContents":
            if method == "POST":
                return self._create_cache(body or {})
            if method == "GET":
                return self._send_json(200, {"cachedContents": list(srv.caches.values())})
        if resource.startswith("cachedContents/"):
            return self._cache_item(method, resource, body or {})
        self._send_error(404, "NOT_FOUND", f"not found: {self.path}")

    # ---- models --------------------------------------------------------
    def _model_action(self, model_id, action, body):
        srv = self.server
        if model_id not in srv.models:
            return self._model_not_found(model_id, action)
        if action == "countTokens":
            return self._send_json(200, {"totalTokens": max(1, _text_length(body.get("contents")) // 4)})
        if action not in ("generateContent", "streamGenerateContent"):
            return self._send_error(404, "NOT_FOUND", f"unknown method {action}")
        with srv.lock:
            fault = srv.faults.pop(0) if srv.faults else None
        if fault is not None:
            if fault[0] == "status":
                return self._send_error(fault[1], fault[2], f"fake {fault[2].lower()}")
            if fault[0] == "stall":
                time.sleep(fault[1])
            elif fault[0] == "reset":
                return http.reset_connection(self)
        cached = body.get("cachedContent")
        if cached and any(k in body for k in ("systemInstruction", "tools", "toolConfig")):
            return self._send_error(
                400, "INVALID_ARGUMENT",
                "CachedContent can not be used with GenerateContent request setting "
                "system_instruction, tools or tool_config.")
        if cached and cached not in srv.caches:
            return self._missing_cache(cached)
        cached_tokens = srv.caches[cached]["usageMetadata"]["totalTokenCount"] if cached else 0

        if action == "generateContent":
            schema = (body.get("generationConfig") or {}).get("responseJsonSchema")
            if schema is not None and srv.structured_reply is not None:  # a model that reads the request
                return self._send_json(200, generate_response(srv.structured_reply(body)))
            return self._send_json(200, generate_response("".join(srv.reply_chunks), cached_tokens=cached_tokens,
                                                          thoughts_tokens=srv.thoughts_tokens))
        chunks = srv.reply_chunks
        if srv.mode == "midstream_error":
            return self._send_sse([
                generate_response(chunks[0], finish=None),
                {"error": {"code": 500, "message": "fake stream failure", "status": "INTERNAL"}},
            ])
        events = [generate_response(c, finish=None) for c in chunks[:-1]]
        events.append(generate_response(chunks[-1], cached_tokens=cached_tokens,
                                        thoughts_tokens=srv.thoughts_tokens))
        self._send_sse(events)

    # ---- cachedContents -----------------------------------------------
    def _create_cache(self, body):
        srv = self.server
        model_id = str(body.get("model", "")).removeprefix("models/")
        if model_id not in srv.models or model_id in srv.no_cache_models:
            return self._model_not_found(model_id, "createCachedContent")
        tokens = max(1, _text_length([body.get("contents"), body.get("systemInstruction")]) // 4)
        if srv.cache_min_tokens and tokens < srv.cache_min_tokens:
            return self._send_error(
                400, "INVALID_ARGUMENT",
                f"Cached content is too small. total_token_count={tokens}, "
                f"min_total_token_count={srv.cache_min_tokens}")
        name = f"cachedContents/test-cache-{next(srv.cache_ids)}"
        srv.caches[name] = {
            "name": name,
            "model": body.get("model"),
            "displayName": body.get("displayName", ""),
            "createTime": STAMP,
            "updateTime": STAMP,
            "expireTime": "2025-01-01T01:00:00.000000Z",
            "usageMetadata": {"totalTokenCount": tokens},
        }
        self._send_json(200, srv.caches[name])

    def _cache_item(self, method, name, body):
        srv = self.server
        if name not in srv.caches:
            return self._missing_cache(name)
        if method == "DELETE":
            del srv.caches[name]
            return self._send_json(200, {})
        if method == "PATCH":
            srv.caches[name]["updateTime"] = "2025-01-01T00:30:00.000000Z"
            if "expireTime" in body:
                srv.caches[name]["expireTime"] = body["expireTime"]
            if "ttl" in body:
                srv.caches[name]["expireTime"] = "2025-01-01T01:30:00.000000Z"
        self._send_json(200, srv.caches[name])


class FakeGeminiServer(http.LoopbackServer):
    def calls(self, method, fragment=""):
        """Requests with this HTTP method whose path contains ``fragment``."""
        with self.lock:
            return [r for r in self.requests if r["method"] == method and fragment in r["path"]]

    def generate_bodies(self):
        """Bodies of generateContent and streamGenerateContent calls, in order."""
        return [r["body"] for r in self.calls("POST", "enerateContent")]


def start(host="127.0.0.1", port=0):
    """Start the fake server on a daemon thread and return it.

    The bound port is `server.server_address[1]`. Call `server.shutdown()` and
    `server.server_close()` when the test is done.
    """
    server = FakeGeminiServer(Handler, (host, port))
    server.reply_chunks = ["Hel", "lo!"]
    server.structured_reply = None
    server.error = None
    server.mode = "ok"
    server.cache_min_tokens = None
    server.models = {"gemini-2.5-flash": 1048576, "gemini-2.5-pro": 1048576}
    server.no_cache_models = set()
    server.missing_cache_code = 403
    server.caches = {}
    server.cache_ids = itertools.count(1)
    server.faults = []
    server.thoughts_tokens = None
    return http.start(server)


if __name__ == "__main__":  # manual use: python -m tests.fakes.fake_gemini
    s = start()
    print(f"fake Gemini API on http://127.0.0.1:{s.server_address[1]} (Ctrl+C to stop)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        s.shutdown()
