"""Prompt files in ``prompts/``, rendered by one strict jinja environment.

Only shipped template files are templates. Everything else (persona text, memory
text, user messages) enters as data: ``{{ }}`` typed by a user stays literal.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path


def json_text(value) -> str:
    """``value`` as one line of JSON: newlines and quotes escaped, so text cannot start a new line."""
    return json.dumps(value, ensure_ascii=False)


class PromptLibrary:
    """The shipped templates; jinja2 is imported at the first render (a start that renders nothing skips it)."""

    def __init__(self, prompts_dir: Path) -> None:
        self.prompts_dir = prompts_dir
        self._env = None
        self._env_lock = threading.Lock()

    @property
    def env(self):
        """The jinja environment, built at first use (two threads rendering first build one)."""
        if self._env is None:
            with self._env_lock:
                if self._env is None:
                    self._env = self._new_env()
        return self._env

    def _new_env(self):
        import jinja2

        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(self.prompts_dir)),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=False,
            auto_reload=False,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        env.filters["json_text"] = json_text
        return env

    def render(self, name: str, **context) -> str:
        return self.env.get_template(name).render(**context).strip() + "\n"

    def names(self) -> list[str]:
        return sorted(p.name for p in self.prompts_dir.glob("*.j2"))

    def persona_system_text(self, persona) -> str:
        """A surface persona's own text: its template file rendered, or its inline text as is."""
        if persona.template:
            import jinja2

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
