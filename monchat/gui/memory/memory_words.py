"""Words for memory in the window's language: views, states, kinds, preference categories, and topics.

A slot key (``food/oden``, ``communication/answer-length``) is how the program files a memory: lowercase
English, ``/`` between a topic and what about it. The window never shows it as it is: ``topic`` turns it
into words a user reads ("food and drink: oden" / 「食べ物: oden」), a known topic in the window's language,
any other with its ``_`` and ``-`` as spaces; the raw key stays in the tooltip (``topic_tip``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...core.memory import Kind, State, View
from ..translation import arg, ui_language


class MemoryWords:
    """The words; a class so that lupdate files them under the context "MemoryWords"."""

    @staticmethod
    def tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
        return QCoreApplication.translate("MemoryWords", text, disambiguation, n)

    def view_name(self, view: View) -> str:
        return {View.NEW: self.tr("New from the last flush"), View.LAYER1: self.tr("Lasting"),
                View.LAYER2: self.tr("Recent"), View.WAITING: self.tr("Pending"), View.DORMANT: self.tr("Dormant"),
                View.HISTORY: self.tr("History"), View.ALL: self.tr("All")}[view]

    def state_name(self, state: State) -> str:
        return {State.ACTIVE: self.tr("active"), State.CANDIDATE: self.tr("candidate"),
                State.QUEUED: self.tr("waiting for review"), State.PENDING: self.tr("pending"),
                State.DORMANT: self.tr("dormant"), State.SUPERSEDED: self.tr("replaced"),
                State.RETRACTED: self.tr("taken back"), State.FORGOTTEN: self.tr("forgotten"),
                State.REJECTED: self.tr("rejected"), State.RETRACTION: self.tr("a taking back")}[state]

    def kind_name(self, kind: str, slot: str = "") -> str:
        """How a memory was said; an imported one's is where it came from (a file says no more, issue 45)."""
        if slot.partition("/")[0].strip().casefold() == "imported":
            return self.topic(slot)
        return {Kind.EXPLICIT: self.tr("said outright"), Kind.CORRECTION: self.tr("a correction"),
                Kind.FACT: self.tr("a fact"), Kind.HABIT: self.tr("a habit"),
                Kind.RETRACTION: self.tr("a taking back"), Kind.SKILL: self.tr("a skill"),
                Kind.PREFERENCE: self.tr("a preference")}.get(kind, kind)

    def listed(self, names) -> str:
        """Names in a row, with the window language's separator (「、」 in Japanese)."""
        return self.tr(", ").join(names)

    def evidence_days(self, days: int) -> str:
        """On how many days the user's own messages back a memory; none (an import, so far) says so plainly."""
        if not days:
            return self.tr("No message of yours backs it yet")
        return self.tr("Evidence on 1 day") if days == 1 else arg(self.tr("Evidence on %1 days"), days)

    def category_name(self, category: str | None) -> str:
        """A preference's category (core/memory/preferences.py CATEGORIES) in the window's language."""
        return {"writing": self.tr("writing style"), "tech": self.tr("tech choice"),
                "design": self.tr("design principle"), "pace": self.tr("pace"), "aesthetic": self.tr("aesthetic"),
                "food": self.tr("food and drink"), "communication": self.tr("communication"),
                "learning": self.tr("learning"), "money": self.tr("money"),
                "social": self.tr("social")}.get(category or "", category or "")

    def topic_name(self, topic: str) -> str:
        """A slot's first part (a topic of the interests and the graph) as a word of the window's language."""
        key = (topic or "").strip().casefold()
        return self.known_word(key) or spaced(key) or self.tr("other")

    def known_word(self, key: str) -> str:
        """A slot word the window has a word for ("" when it has none)."""
        known = {"home": self.tr("home"), "drink": self.tr("drinks"), "food": self.tr("food"),
                 "hobby": self.tr("hobbies"), "study": self.tr("studies"), "skill": self.tr("skills"),
                 "work": self.tr("work"), "job": self.tr("work"), "pet": self.tr("pets"),
                 "family": self.tr("family"), "friend": self.tr("friends"), "friends": self.tr("friends"),
                 "partner": self.tr("partner"), "health": self.tr("health"), "travel": self.tr("travel"),
                 "music": self.tr("music"), "sport": self.tr("sport"), "sports": self.tr("sport"),
                 "book": self.tr("books"), "books": self.tr("books"), "game": self.tr("games"),
                 "games": self.tr("games"), "place": self.tr("places"), "people": self.tr("people"),
                 "person": self.tr("people"), "profile": self.tr("about you"), "project": self.tr("projects"),
                 "schedule": self.tr("plans"), "plan": self.tr("plans"), "plans": self.tr("plans"),
                 "hobbies": self.tr("hobbies"), "pets": self.tr("pets"), "career": self.tr("work"), "school": self.tr("school"), "language": self.tr("languages"),
                 "sleep": self.tr("sleep"), "other": self.tr("other"), "writing": self.tr("writing style"),
                 "tech": self.tr("tech choice"), "design": self.tr("design principle"), "pace": self.tr("pace"),
                 "aesthetic": self.tr("aesthetic"), "communication": self.tr("communication"),
                 "learning": self.tr("learning"), "money": self.tr("money"), "social": self.tr("social")}
        return known.get(key.strip().casefold(), "")

    def topic(self, slot: str, whole: bool = False) -> str:
        """A slot in words: its topic, then what about it (``health/sleep`` → "health: sleep", 「健康：睡眠」).

        Words after the topic are shown in the window's language or not at all: a Japanese window leaves out an
        English slot word it has no word for (the key stays in the tooltip), never "健康：sleep". An imported item's
        slot (``imported/chatgpt``) names where it came from. ``whole``: every word, where two slots of one topic
        must differ (a lint finding that one is filed unlike the other)."""
        topic, _, rest = (slot or "").partition("/")
        if topic.strip().casefold() == "imported":
            return arg(self.tr("imported from %1"), self.source_name(rest))
        name = self.topic_name(topic)
        parts = [spaced(part) for part in rest.split("/") if spaced(part)]
        english = whole or ui_language() == "en"
        about = " ".join(w for part in parts if (w := self.known_word(part) or (part if english or not part.isascii()
                                                                                else "")))
        return arg(self.tr("%1: %2"), name, about) if about else name

    def source_name(self, source: str) -> str:
        """Where imported memories came from (an import's format or proposer) in words."""
        key = spaced(source).casefold()
        return {"chatgpt": "ChatGPT", "claude": "Claude", "pasted": self.tr("a list you pasted"),
                "pasted list": self.tr("a list you pasted"), "monchat": self.tr("a monchat export"),
                "monchat export": self.tr("a monchat export"), "monchat json": self.tr("a monchat export"),
                "monchat markdown": self.tr("a monchat export")}.get(key, spaced(source))

    def topic_tip(self, slot: str) -> str:
        return arg(self.tr("Filed by the program as “%1”"), slot)

    def count_change(self, count: int, delta: int) -> str:
        """A topic's count this week and its change since the last look (what "1 (+1)" meant)."""
        if delta > 0:
            return arg(self.tr("%1 (%2 more than last time)"), count, delta)
        if delta < 0:
            return arg(self.tr("%1 (%2 fewer than last time)"), count, -delta)
        return arg(self.tr("%1 (as last time)"), count)


    def topic_count(self, topic: str, count: int, delta: int) -> str:
        """"food and drink: 1 (1 more than last time)": what the flush's "food 1 (+1)" meant."""
        return arg(self.tr("%1: %2"), self.topic_name(topic), self.count_change(count, delta))


def spaced(key: str) -> str:
    """``answer-length`` → "answer length"."""
    return " ".join(key.replace("_", " ").replace("-", " ").split())


memory_words = MemoryWords()
