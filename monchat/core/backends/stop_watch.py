"""Stopping a streamed reply at once: a watcher thread closes the stream the reading thread waits on (its socket
shut down first), even before the first token, so a server evaluating a long prompt stops and the user does not
wait it out (``OpenAICompatBackend._stream``)."""

from __future__ import annotations

import socket
import threading

STOP_POLL_S = 0.05  # how often a stream waiting for its first token looks at the stop event


def close_on_stop(chunks, stop: threading.Event, done: threading.Event) -> None:
    """Close ``chunks`` as soon as ``stop`` is set, even before its first token (a server evaluating a long
    prompt sends nothing for seconds): the read waiting on it ends at once. Ends with ``done``."""
    def watch() -> None:
        while not done.is_set():
            if stop.wait(STOP_POLL_S):
                if not done.is_set():
                    shut_down(chunks)
                return
    threading.Thread(target=watch, name="openai stop watch", daemon=True).start()


def shut_down(chunks) -> None:
    """End the read another thread is blocked in: closing the response alone does not wake a ``recv`` already
    waiting (it waits for the server or the read timeout), so the connection's socket is shut down first."""
    stream = getattr(getattr(chunks, "response", None), "extensions", {}).get("network_stream")
    sock = stream.get_extra_info("socket") if stream is not None else None
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:  # already closed: the read has ended anyway
            pass
    chunks.close()
