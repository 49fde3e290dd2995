"""Memory with a past, made the way a user makes it: real flushes over several days.

The LLM is the oracle of ``tests/support/oracle.py`` (filter rules and judge verdicts
from tables); the clock moves from one day to the next. Used by the review tests and by
the screenshots, so both show memory as a real history leaves it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from monchat.core.types import Message, content_message_id, format_ts, local_now
from tests.support.oracle import Judgement, Oracle, Rule

SENDAI = "仙台に住んでいる"
KANAZAWA = "金沢に住んでいる（仙台から引っ越した）"
KANAZAWA_EDITED = "金沢の近江町市場の近くに住んでいる"
CAT = "猫のミケを飼っている"
GREEN = "毎食、緑茶を飲む"
GREEN_AGAIN = "最近は緑茶ばかり飲んでいる"
SEED = 7  # base + the fixed lifestyle and project personas (whose rules `growing` uses); runs stay comparable


class Clock:
    """A clock a test moves; ``None`` means the real time."""

    def __init__(self, now: datetime | None = None) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now or local_now()


def say(app, when: datetime, text: str, role: str = "user", persona: str = "hana") -> str:
    """Log one message as ChatService would (a deterministic id); returns the id."""
    ts = format_ts(when)
    message = Message(id=content_message_id(ts, role, text, persona), ts=ts, role=role, text=text, persona=persona)
    app.logbook.append(message)
    return message.id


def flush(app, clock: Clock, when: datetime):
    clock.now = when
    return app.flush.run(seed=SEED)


def oracle() -> Oracle:
    """Filter rules for the sentences below; the green-tea comparison is one the judge is unsure of."""
    return Oracle(
        rules=[Rule("仙台に住", SENDAI, "home/city", "explicit", 0.9),
               Rule("金沢に引っ越", KANAZAWA, "home/city", "correction", 0.9),
               Rule("ミケ", CAT, "pet/cat", "explicit", 0.95),
               Rule("緑茶を飲", GREEN, "drink/daily", "fact", 0.9),
               Rule("緑茶ばかり", GREEN_AGAIN, "drink/daily", "fact", 0.9)],
        judgements={(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9, reasoning="moved"),
                    (GREEN, GREEN_AGAIN): Judgement("SUPERSEDE", 0.3, reasoning="maybe the same habit")})


def unsure_green_tea(app, clock: Clock, day1: datetime, leaning: str = "SUPERSEDE") -> dict:
    """Two days about green tea; the judge leans to ``leaning`` but is unsure. Returns the judge row."""
    backend = app.backends.pinned
    backend.judgements[(GREEN, GREEN_AGAIN)] = Judgement(leaning, 0.3, reasoning="maybe the same habit")
    say(app, day1.replace(hour=12), "毎食、緑茶を飲んでる")
    flush(app, clock, day1.replace(hour=22))
    day3 = day1 + timedelta(days=2)
    say(app, day3.replace(hour=12), "最近も緑茶ばかり")
    flush(app, clock, day3.replace(hour=22))
    rows = [r for r in app.memory.queue() if r.action == "judge"]
    assert len(rows) == 1 and rows[0].verdict == leaning, rows
    return rows[0]


def memory_with_history(app, clock: Clock, day1: datetime) -> dict:
    """Layer 1 memories, a superseded one with a history chain of three, evidence, and a judge row.

    Day 1: the user says where they live, about their cat and their green tea (flush).
    Day 3: they moved to Kanazawa (a supersession of Layer 1, approved), and "green tea again"
    (the judge is unsure: it waits for review). Then the user rewords the Kanazawa memory.
    Returns ``{"judge": row, "kanazawa": id, "sendai": id}``.
    """
    memory = app.memory
    say(app, day1.replace(hour=9), "覚えておいて：仙台に住んでるよ")
    say(app, day1.replace(hour=9, minute=1), "了解、覚えておくね！", role="assistant")
    say(app, day1.replace(hour=12), "うちの猫のミケがまた寝てる")
    say(app, day1.replace(hour=12, minute=30), "毎食、緑茶を飲んでる")
    flush(app, clock, day1.replace(hour=22))
    day3 = day1 + timedelta(days=2)
    say(app, day3.replace(hour=10), "先週、金沢に引っ越したんだ。仙台はもう離れたよ")
    say(app, day3.replace(hour=12), "最近も緑茶ばかり")
    flush(app, clock, day3.replace(hour=22))
    rows = memory.queue()
    supersede = next(r for r in rows if r.action == "supersede")
    memory.approve(str(supersede.id))
    kanazawa = next(m for m in memory.list(all=True) if m.text == KANAZAWA)
    edited = memory.edit(kanazawa.id, KANAZAWA_EDITED)
    sendai = next(m for m in memory.list(all=True) if m.text == SENDAI)
    judge = next(r for r in memory.queue() if r.action == "judge")
    return {"judge": judge, "kanazawa": edited.id, "sendai": sendai.id}


RAMEN = "ラーメンが好き"
SUSHI = "寿司が好き"
FOOD_DIGEST = "ラーメンと寿司が好き"


def cold_food(app, clock: Clock, day1: datetime) -> None:
    """Two food memories on day 1; a hundred days later they are cold and a flush digests them."""
    backend = app.backends.pinned
    backend.rules += [Rule("ラーメン", RAMEN, "food/likes", "explicit", 0.9),
                      Rule("寿司", SUSHI, "food/likes", "explicit", 0.9),
                      Rule("テニス", "テニスを始めた", "sport/tennis", "explicit", 0.9)]
    backend.digest = lambda slot, memories: {"text": FOOD_DIGEST, "covers": [mid for mid, _ in memories]}
    say(app, day1.replace(hour=12), "覚えておいて：ラーメンが好き")
    say(app, day1.replace(hour=12, minute=5), "覚えておいて：寿司も好き")
    flush(app, clock, day1.replace(hour=22))
    later = day1 + timedelta(days=100)
    say(app, later.replace(hour=12), "テニスを始めた")
    flush(app, clock, later.replace(hour=22))


CONCISE = "簡潔な答えが好き"
DETAIL = "コードについては詳しい説明が好き"


def growing(app, clock: Clock, day: datetime) -> dict:
    """What the inbox's tabs and the browser's preference chain show: a preference in two versions (the
    newer approved), a slot lint names by its canonical name, a skill and a question memory could not
    answer twice (a gap), one flush a day from ``day``. Returns ``{"preference": id}``, the newer version."""
    backend = app.backends.pinned
    backend.rules += [Rule("簡潔", CONCISE, "communication/answer-length", "preference", 0.9, persona="lifestyle"),
                      Rule("詳しく", DETAIL, "communication/answer-length", "preference", 0.9, persona="lifestyle"),
                      Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9, persona="project"),
                      Rule("実家", "実家は盛岡にある", "home/town", "explicit", 0.9),
                      Rule("dog's name", "asked what my dog's name is", "pet/dog", "recall", 0.8, persona="project")]
    # (at most three items a persona: the base persona's rules above already fill its three)
    say(app, day.replace(hour=20), "答えは簡潔なのが好き。実家は盛岡だよ")
    say(app, day.replace(hour=20, minute=5), "ギターを弾いた. what's my dog's name again?")
    flush(app, clock, day.replace(hour=22))
    later = day + timedelta(days=1)
    say(app, later.replace(hour=20), "でもコードは詳しく説明してほしい。今日もギター")
    say(app, later.replace(hour=20, minute=5), "I told you my dog's name, you forgot it")
    flush(app, clock, later.replace(hour=22))
    row = next(r for r in app.memory.queue() if r.action == "supersede" and r.text == DETAIL)
    app.memory.approve(str(row.id))
    return {"preference": row.memory_id}


def two_cat_wordings(app, backend: Oracle, clock: Clock, day1: datetime) -> None:
    """One sentence kept in two wordings (the judge says COEXIST): 猫を二匹飼っている and ユーザーは猫を二匹飼っている。,
    from two days' flushes: what Merge duplicates… is for."""
    backend.rules = [Rule("二匹", "猫を二匹飼っている", "pet/cat", "explicit", 0.95)]
    say(app, day1.replace(hour=12), "うちは猫を二匹飼っている")
    flush(app, clock, day1.replace(hour=22))
    backend.rules = [Rule("二匹", "ユーザーは猫を二匹飼っている。", "Pet/Cat", "explicit", 0.95)]
    backend.judgements = {("猫を二匹飼っている", "ユーザーは猫を二匹飼っている。"): Judgement("COEXIST", 0.9)}
    say(app, day1.replace(hour=12) + timedelta(days=1), "猫を二匹飼ってると大変")
    flush(app, clock, day1.replace(hour=22) + timedelta(days=1))
