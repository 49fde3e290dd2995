"""The conversation: bubbles, composer, the turn in flight, the gate bar."""
