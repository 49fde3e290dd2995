"""The guard's word lists, per language: which words a distillation may add to what the user said.

A capable model distils ("User's editor is VS Code" from "I write it in VS Code", 「毎朝走っている」 from
「今朝も走ってきた」): it says who (user, ユーザー), how often and how sure (usually, 最近, よく), when (morning,
週末), the everyday verb a habit is worded with (drinks, 飲む, 住む), and the *category noun* that names what the
user's words are an example of (editor, hobby, drink, 趣味, 好物, 出身). None of these is a claim about the user
by itself, so ``guard.adds_words`` does not count them; every other word an item adds — a name, a number, a
thing, a kanji of a claim — still has to be in the lines it cites (or in a kept memory it restates).

The lists are justified by the labelled corpus in ``tests/data/guard_corpus/`` (honest distillations written the
way capable models write them), not by one case: a word is here when honest distillations add it and no junk case
of the corpus needs it to be caught. ``benchmarks/run --only guard`` measures both sides (docs/benchmarks.md).
What a distilling word may never be: a noun that is itself a claim (dog, coffee, 犬, 珈琲), a number or a name.
Words of liking and disliking (likes, hates, 好き, 苦手) are distilling words, and ``LIKING``/``DISLIKING`` keep
them honest: an item leaning the other way from its cited lines ("Likes cilantro" citing "I hate cilantro") is
refused by ``guard_lean.turned``.
"""

from __future__ import annotations

# English: words any sentence needs; never content.
FUNCTION_WORDS = frozenset("""
a an the and or but nor so yet if then than that this these those there here what which who whom whose
when where why how all any both each few more most other some such no not only own same too very
can could will would shall should may might must do does did done doing be is am are was were been being
have has had having i me my mine myself we us our ours you your yours he him his she her hers it its
they them their theirs one ones of in on at by for with about against between into through during before
after above below to from up down out off over under again further once just also as per via
get got gets getting make makes made lot lots thing things something anything everything way ways
really quite rather much many still even ever now new own bit kind sort
without within since until while because though although across around near instead almost longer another
""".split())

# English distilling words: who, how often and how sure, the everyday verbs of a habit, and times and days
# (each line the filter reads comes with its "when").
DISTILLING_EN = frozenset("""
user users person someone likes like liked liking loves love loved enjoys enjoy enjoyed fond favourite favorite
prefers prefer preferred preference preferences often usually sometimes always never regularly recently
currently lately mostly generally seems seem seemed apparently probably maybe tends tend tended
talks talk talked talking mentions mention mentioned says say said tells told wants want wanted
wishes hopes plans plan planning planned interested interest interests habit habits feels feel felt
thinks think thought considers keen asks ask asked asking forgot forgotten remember remembers
drinks drink drank eats eat ate lives live lived works work worked plays play played practises practise
practised practices practice practiced uses use used goes go went does started starts start begins began
studies study studied learns learn learned learning every daily each especially answer answers reply replies
response responses today tonight morning mornings afternoon afternoons evening evenings night nights weekend
weekends weekday weekdays day days week weeks monday tuesday wednesday thursday friday saturday sunday
keeps keep keeping kept continues continue continuing routine routinely consistently based owns own tries
trying tried currently main regular weekly nightly
reads read reading watches watch watched watching listens listen listened listening writes write wrote writing
cooks cook cooked cooking bakes bake baked baking visits visit visited visiting going takes take took taking
prepares prepare prepared preparing saves save saved saving commutes commute commuted commuting grows grow grew
growing supports support supported dislikes dislike disliked hates hate hated
""".split())

# English category nouns: what a distillation names the user's example by ("editor is VS Code", "favourite
# drink is green tea", "hometown is Osaka"). A name of a kind of thing, never the thing.
CATEGORY_EN = frozenset("""
editor editors ide language languages tool tools stack framework frameworks setup hobby hobbies pastime
job occupation profession career role field workplace city town country hometown hometowns home area region
pet pets food foods dish dishes meal meals cuisine drink beverage beverages snack snacks breakfast lunch dinner
sport sports exercise workout game games genre genres music artist band book books author series show shows
movie movies film films brand brands device devices browser shell distro os system platform
name named called family goal goals target schedule activity activities place spot location transport commute
choice type style trip trips travel vacation holiday holidays bread exam course class
""".split())

# Japanese distilling words, removed before content is compared (hiragana never counts anyway): who, how often,
# how sure, the everyday verbs a distillation words a habit with ("緑茶を飲む" from "今日も緑茶"), the suffixes
# a distillation ends with (勉強中, コーヒー派), and times and days (each line the filter reads comes with its
# "when"). Matched as written, longest first.
DISTILLING_JA = ("ユーザー", "ユーザ", "大好き", "好き", "好み", "好む", "最近", "時々", "話題", "傾向", "習慣",
                 "気に入", "興味", "関心", "話", "日課", "言って", "言った", "様子", "特に", "毎日", "毎食",
                 "毎", "飲", "食べ", "住", "働", "弾", "飼", "練習", "始め", "始まっ", "勉強", "答え", "返事", "聞い",
                 "尋ね", "忘れ", "今日", "今朝", "今夜", "今晩", "朝", "昼", "夕方", "夜", "晩", "週末", "平日",
                 "月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜",
                 "続け", "続い", "継続", "普段", "現在", "定期的", "頻繁", "使っ", "使う", "使用", "利用", "愛用",
                 "在住", "勤務", "勤め", "所属", "担当", "予定", "計画", "希望", "目標", "自分", "本人", "練習中", "勉強中", "派",
                 "的", "用", "常", "いつも", "通っ", "通う", "通い", "行っ", "行く", "行き", "見に", "曜日", "歴", "約",
                 "くらい", "育て", "困っ", "嫌い", "苦手", "月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日",
                 "日曜日")

# Japanese category nouns (as CATEGORY_EN): 趣味はギター, 好物はラーメン, 出身は大阪.
CATEGORY_JA = ("趣味", "仕事", "職業", "職場", "好物", "飲み物", "食べ物", "料理", "言語", "エディタ", "エディター",
               "ツール", "ペット", "出身", "地元", "住まい", "自宅", "種類", "名前", "ジャンル", "音楽", "スポーツ",
               "ゲーム", "作品", "番組", "運動", "場所", "朝食", "昼食", "夕食", "朝ごはん", "昼ごはん", "晩ごはん",
               "開発", "環境", "家族", "メイン", "お気に入り", "定番", "通勤", "旅行", "ブラウザ", "ブラウザー", "バンド",
               "作家", "転職")

# Which way a statement leans: an item may not turn the user's "hate" into "likes" (a swapped word the distilling
# lists would otherwise let through). An item leaning one way where its cited lines lean only the other is refused.
LIKING = (frozenset("likes like liked loves love loved enjoys enjoy enjoyed fond favourite favorite prefers "
                    "prefer preferred".split()), ("好き", "好み", "好む", "気に入"))
DISLIKING = (frozenset("dislikes dislike disliked hates hate hated detest detests".split()), ("嫌い", "苦手", "嫌"))

DISTILLING_WORDS = DISTILLING_EN | CATEGORY_EN
# Longest first, so 朝ごはん goes before 朝 and ユーザー before ユーザ.
JA_WORDS = tuple(sorted(set(DISTILLING_JA + CATEGORY_JA), key=len, reverse=True))
