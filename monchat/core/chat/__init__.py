"""One chat turn: the service, the Layer 3 window it sends, the warm start, safe links."""
