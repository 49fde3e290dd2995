"""Words for a model known to be small (core: ``backends/model_size.py``): the welcome and the flush dialog.

Plain words: "lasting memory", never "Layer 1"; what to use instead, with the command to get it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ..translation import arg


def small_model_warning(label: str) -> str:
    """Said before a flush (and in the welcome) when the backend's model is known to be small."""
    return arg(QCoreApplication.translate(
        "SmallModel", "This is a small model (%1 parameters): memory built with it will be unreliable. It often "
                      "takes its own instructions for what you said, so a flush with it puts nothing into lasting "
                      "memory without your approval. For memory you can rely on, use a larger model: through "
                      "Ollama (for example: ollama pull gemma3:4b), LM Studio, or Gemini; choose it in Settings."),
        label)


def small_model_note(label: str) -> str:
    """The flush summary's note: what the flush held back because the model is small."""
    return arg(QCoreApplication.translate(
        "SmallModel", "The model is small (%1 parameters): nothing from this flush went into lasting memory "
                      "without your approval; it waits in the review queue."), label)
