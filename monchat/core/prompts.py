"""Prompt files in ``prompts/``, rendered by one strict jinja environment.

Only shipped template files are templates. Everything else (persona text, memory
text, user messages) enters as data: ``{{ }}`` typed by a user stays literal.
"""

from __future__ import annotations

import json
from pathlib import Path

import jinja2


def json_text(value) -> str:
    """``value`` as one line of JSON: newlines and quotes escaped, so text cannot start a new line."""
    return json.dumps(value, ensure_ascii=False)


class PromptLibrary:
    def __init__(self, prompts_dir: Path) -> None:
        self.prompts_dir = prompts_dir
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(prompts_dir)),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=False,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["json_text"] = json_text

    def render(self, name: str, **context) -> str:
        return self.env.get_template(name).render(**context).strip() + "\n"

    def names(self) -> list[str]:
        return sorted(p.name for p in self.prompts_dir.glob("*.j2"))

    def persona_system_text(self, persona) -> str:
        """A surface persona's own text: its template file rendered, or its inline text as is."""
        if persona.template:
            try:
                return self.render(persona.template, persona=persona).strip()
            except jinja2.TemplateNotFound:
                from .errors import PersonaError
                raise PersonaError(f"The persona {persona.id!r} names the template {persona.template!r}, "
                                   "which is not there.",
                                   "Run `monchat personas validate`; set the persona's `system` text or a "
                                   "template that exists.") from None
        return persona.system.strip()

    def system_prompt(self, persona, layer1: list, layer2: list, hint: str = "") -> str:
        """The chat system prompt; deterministic for the same inputs. ``hint``: one knowledge gap to ask
        about if it comes up (or "")."""
        return self.render("system.md.j2", persona=persona,
                           persona_text=self.persona_system_text(persona),
                           layer1=layer1, layer2=layer2, hint=hint)
