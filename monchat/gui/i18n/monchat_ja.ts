<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>About</name>
    <message>
        <source>About monchat</source>
        <translation>monchat について</translation>
    </message>
    <message>
        <source>monchat %1</source>
        <translation>monchat %1</translation>
    </message>
    <message>
        <source>A local-first chat that remembers.

Data folder: %1
Settings folder: %2</source>
        <translation>覚えていてくれる、手元で動くチャット。

データフォルダー: %1
設定フォルダー: %2</translation>
    </message>
</context>
<context>
    <name>ActionReasons</name>
    <message>
        <source>A reply is being written: wait for it or stop it first.</source>
        <translation>返信を書いている途中です。終わるのを待つか、止めてからにしてください。</translation>
    </message>
    <message>
        <source>Chat is paused until you flush the waiting log files.</source>
        <translation>待っているログファイルを整理するまで、チャットは一時停止しています。</translation>
    </message>
    <message>
        <source>There is no reply to regenerate yet: send a message first.</source>
        <translation>まだ作り直す返信がありません。先にメッセージを送ってください。</translation>
    </message>
    <message>
        <source>There is no message of yours to edit yet.</source>
        <translation>編集できるあなたのメッセージがまだありません。</translation>
    </message>
    <message>
        <source>A reply is being written: wait for it or stop it, then flush.</source>
        <translation>返信を書いている途中です。終わるのを待つか止めてから整理してください。</translation>
    </message>
    <message>
        <source>A flush is running now (here, in another monchat window or in a terminal): wait for it to finish.</source>
        <translation>いま整理を実行中です（このウィンドウ、別の monchat ウィンドウ、またはターミナルで）。終わるまでお待ちください。</translation>
    </message>
    <message>
        <source>Nothing to flush yet: chat first.</source>
        <translation>まだ整理するものがありません。先にチャットしてください。</translation>
    </message>
    <message>
        <source>Ask for the last reply again</source>
        <translation>最後の返信をもう一度作ってもらう</translation>
    </message>
    <message>
        <source>Change your last message and get a new reply</source>
        <translation>最後のメッセージを書き直して、新しい返信をもらう</translation>
    </message>
    <message>
        <source>Turn the waiting log files into memory</source>
        <translation>待っているログファイルを記憶にまとめる</translation>
    </message>
</context>
<context>
    <name>AnswerFormatBox</name>
    <message>
        <source>Automatic (a JSON schema, else JSON object)</source>
        <translation>自動（JSON スキーマ、だめなら JSON オブジェクト）</translation>
    </message>
    <message>
        <source>JSON schema only</source>
        <translation>JSON スキーマだけ</translation>
    </message>
    <message>
        <source>JSON object with its JSON schema (llama_cpp.server)</source>
        <translation>スキーマ付きの JSON オブジェクト（llama_cpp.server）</translation>
    </message>
    <message>
        <source>How a flush asks the server for structured answers. Servers that refuse a JSON schema are found and remembered automatically.</source>
        <translation>整理のときにサーバーへ決まった形の答えをどう頼むかです。JSON スキーマを受け付けないサーバーは自動で見つけて覚えます。</translation>
    </message>
</context>
<context>
    <name>BackgroundSync</name>
    <message>
        <source>Syncing…</source>
        <translation>同期中…</translation>
    </message>
    <message>
        <source>Sync: folder not found</source>
        <translation>同期：フォルダーが見つかりません</translation>
    </message>
    <message>
        <source>Sync: folder cannot be written</source>
        <translation>同期：フォルダーに書き込めません</translation>
    </message>
    <message>
        <source>Sync stopped (Settings → Sync)</source>
        <translation>同期が止まっています（設定 → 同期）</translation>
    </message>
    <message>
        <source>Synced just now</source>
        <translation>同期しました（たった今）</translation>
    </message>
    <message numerus="yes">
        <source>Synced %n min ago</source>
        <translation>
            <numerusform>%n 分前に同期しました</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n conflict copies</source>
        <translation>
            <numerusform>競合コピー %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Conflict copies are files a sync tool made; monchat never reads them. Settings → Sync lists them.</source>
        <translation>競合コピーは同期ツールが作ったファイルで、monchat は読みません。一覧は 設定 → 同期 にあります。</translation>
    </message>
</context>
<context>
    <name>BackupDialog</name>
    <message>
        <source>Back up and restore</source>
        <translation>バックアップと復元</translation>
    </message>
    <message>
        <source>Back up</source>
        <translation>バックアップ</translation>
    </message>
    <message>
        <source>One file with everything in %1: messages, memory, settings, personas and log files. Safe while you chat.</source>
        <translation>%1 のすべて（メッセージ、記憶、設定、ペルソナ、ログファイル）を1つのファイルにまとめます。チャット中でも安全です。</translation>
    </message>
    <message>
        <source>Back up to a file…</source>
        <translation>ファイルにバックアップ…</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>復元</translation>
    </message>
    <message>
        <source>A backup is restored into an empty folder; then start monchat with MONCHAT_HOME set to that folder. To replace this data folder instead, quit monchat and run: monchat restore FILE --force</source>
        <translation>バックアップは空のフォルダーに復元されます。そのあと MONCHAT_HOME にそのフォルダーを指定して monchat を起動してください。このデータフォルダーを置き換えるには、monchat を終了して monchat restore FILE --force を実行します。</translation>
    </message>
    <message>
        <source>Restore a backup into a folder…</source>
        <translation>バックアップをフォルダーに復元…</translation>
    </message>
    <message>
        <source>monchat backup (*.zip)</source>
        <translation>monchat のバックアップ (*.zip)</translation>
    </message>
    <message>
        <source>Saved %1: %2, %3, %4.</source>
        <translation>%1 に保存しました：%2、%3、%4。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>ファイル %n 個</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n archived message(s)</source>
        <translation>
            <numerusform>アーカイブ済みメッセージ %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies)</source>
        <translation>
            <numerusform>記憶 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Restored %1 and %2 into %3. Start monchat with MONCHAT_HOME=%3 to use them.</source>
        <translation>%1と%2を %3 に復元しました。使うには MONCHAT_HOME=%3 で monchat を起動してください。</translation>
    </message>
    <message>
        <source>An empty folder to restore into</source>
        <translation>復元先の空のフォルダー</translation>
    </message>
</context>
<context>
    <name>CatalogPicker</name>
    <message>
        <source>Use this model</source>
        <translation>このモデルを使う</translation>
    </message>
    <message>
        <source>included</source>
        <translation>同梱</translation>
    </message>
    <message>
        <source> (downloaded)</source>
        <translation>（ダウンロード済み）</translation>
    </message>
    <message>
        <source>%1 — %2, needs %3 GB memory%4</source>
        <translation>%1 — %2、必要なメモリ %3 GB%4</translation>
    </message>
    <message>
        <source>good</source>
        <translation>得意</translation>
    </message>
    <message>
        <source>fair</source>
        <translation>まずまず</translation>
    </message>
    <message>
        <source>limited</source>
        <translation>苦手</translation>
    </message>
    <message>
        <source>poor</source>
        <translation>ほぼ不可</translation>
    </message>
    <message>
        <source>Languages: %1 (Japanese: %2). Context: %3 tokens. Licence: %4.</source>
        <translation>言語: %1（日本語: %2）。コンテキスト: %3 トークン。ライセンス: %4。</translation>
    </message>
    <message>
        <source>Not downloaded yet (%1).</source>
        <translation>まだダウンロードしていません（%1）。</translation>
    </message>
    <message>
        <source>Downloaded and verified.</source>
        <translation>ダウンロード済みで、検証も済んでいます。</translation>
    </message>
    <message>
        <source>Built in: nothing to download.</source>
        <translation>内蔵モデルです。ダウンロードは不要です。</translation>
    </message>
    <message>
        <source>Memory score here (%1): %2 of %3 kept, %4 of %5 retired, %6 invented</source>
        <translation>このコンピューターでの記憶スコア（%1）：%3 件中 %2 件を保持、%5 件中 %4 件を更新済み、作り話 %6 件</translation>
    </message>
</context>
<context>
    <name>ChatPage</name>
    <message>
        <source>Follow the system</source>
        <translation>システムに合わせる</translation>
    </message>
    <message>
        <source>What characters from imported cards call you</source>
        <translation>読み込んだキャラクターカードのキャラがあなたを呼ぶ名前</translation>
    </message>
    <message>
        <source>Ctrl+Enter sends (Enter adds a line)</source>
        <translation>Ctrl+Enter で送信（Enter で改行）</translation>
    </message>
    <message>
        <source>A language change applies the next time monchat starts.</source>
        <translation>言語の変更は次に monchat を起動したときに反映されます。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>送信</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>あなたの名前</translation>
    </message>
</context>
<context>
    <name>ChatTurns</name>
    <message>
        <source>This message is too long to edit here; it stays as it is, whole. Send a new message instead.</source>
        <translation>このメッセージは長すぎるため、ここでは編集できません（全文はそのまま残ります）。新しいメッセージを送ってください。</translation>
    </message>
    <message>
        <source>Stopped before the reply began.</source>
        <translation>返事が始まる前に止めました。</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>再試行</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Show older messages</source>
        <translation>以前のメッセージを表示</translation>
    </message>
    <message>
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <source>No older messages</source>
        <translation>これより前のメッセージはありません</translation>
    </message>
    <message>
        <source>— now talking with %1 —</source>
        <translation>— ここから %1 と話しています —</translation>
    </message>
</context>
<context>
    <name>CloudQuestion</name>
    <message>
        <source>Send to a cloud service?</source>
        <translation>クラウドのサービスに送りますか？</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>送る</translation>
    </message>
    <message>
        <source>%1 (model %2) at %3 is not on this computer or your network.

Each message sends it: this persona&apos;s text, your memory (what monchat remembers about you), and the conversation of the last %4 hours. A flush sends it the unflushed logs.

Send to it? monchat asks only once for this address.</source>
        <translation>%3 の %1（モデル %2）は、このコンピューターにもあなたのネットワークにもありません。

メッセージごとに送られるもの: このペルソナの文章、あなたの記憶（monchat が覚えているあなたのこと）、直近 %4 時間の会話。整理（フラッシュ）では未整理のログが送られます。

送りますか？ この送り先について確認するのは一度だけです。</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Editing your last message — sending replaces it and its reply.</source>
        <translation>最後のメッセージを編集中 — 送信すると、そのメッセージと返事が置き換わります。</translation>
    </message>
    <message>
        <source>Cancel edit</source>
        <translation>編集をやめる</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (what was written so far is kept)</source>
        <translation>返事を止めます（そこまでの文章は残ります）</translation>
    </message>
    <message>
        <source>Chat is paused until you flush: use the Flush button in the banner above. What you type here is kept.</source>
        <translation>整理するまでチャットは一時停止しています。上の帯にある整理ボタンを使ってください。ここに入力した文は残ります。</translation>
    </message>
    <message>
        <source>Message — Ctrl+Enter sends, Enter adds a line</source>
        <translation>メッセージ — Ctrl+Enter で送信、Enter で改行</translation>
    </message>
    <message>
        <source>Message — Enter sends, Shift+Enter adds a line</source>
        <translation>メッセージ — Enter で送信、Shift+Enter で改行</translation>
    </message>
</context>
<context>
    <name>ContextMeterWidget</name>
    <message>
        <source>Context: counting…</source>
        <translation>コンテキスト: 計算中…</translation>
    </message>
    <message>
        <source>Context: %1 / %2 tokens</source>
        <translation>コンテキスト: %1 / %2 トークン</translation>
    </message>
    <message>
        <source>System prompt %1 tokens + recent messages %2 tokens, of a context of %3.</source>
        <translation>システムプロンプト %1 トークン + 最近のメッセージ %2 トークン（コンテキスト長 %3）。</translation>
    </message>
    <message>
        <source>— %1 older messages not sent</source>
        <translation>— 古いメッセージ %1 件は送信しません</translation>
    </message>
    <message>
        <source>%1 older messages of the recent window are not sent, so the reply has room. They stay in the log and reach memory at the next flush.</source>
        <translation>返信の余地を残すため、最近のメッセージのうち古い %1 件は送信しません。ログには残り、次の整理で記憶に届きます。</translation>
    </message>
    <message>
        <source>Context: unknown</source>
        <translation>コンテキスト: 不明</translation>
    </message>
</context>
<context>
    <name>CopyButton</name>
    <message>
        <source>Copied</source>
        <translation>コピーしました</translation>
    </message>
</context>
<context>
    <name>DecisionLine</name>
    <message>
        <source>Undo</source>
        <translation>元に戻す</translation>
    </message>
    <message>
        <source>Put the last decision back as it was</source>
        <translation>最後の操作を元の状態に戻します</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>保存中…</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>完了しました。</translation>
    </message>
    <message numerus="yes">
        <source>%n approved</source>
        <translation>
            <numerusform>%n 件を承認</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rejected</source>
        <translation>
            <numerusform>%n 件を却下</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories merged into the one that says the same; their evidence is together now.</source>
        <translation>
            <numerusform>%n 件の記憶を、同じことを言う記憶にまとめました。根拠も一つになりました。</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message numerus="yes">
        <source>Undone: %n items wait for review again.</source>
        <translation>
            <numerusform>取り消しました: %n 件がまた確認を待っています。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Undone: %n merged memories are back as they were.</source>
        <translation>
            <numerusform>取り消しました: まとめた %n 件の記憶が元に戻りました。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DoctorWords</name>
    <message>
        <source>server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <source>model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>context length</source>
        <translation>コンテキスト長</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <source>connection</source>
        <translation>接続</translation>
    </message>
    <message>
        <source>key accepted</source>
        <translation>キーの受け入れ</translation>
    </message>
    <message>
        <source>model file</source>
        <translation>モデルファイル</translation>
    </message>
    <message>
        <source>model loads</source>
        <translation>モデルの読み込み</translation>
    </message>
    <message>
        <source>how long the model stays loaded</source>
        <translation>モデルを読み込んだままにする時間</translation>
    </message>
    <message>
        <source>model size</source>
        <translation>モデルの大きさ</translation>
    </message>
    <message>
        <source>No API key is set.</source>
        <translation>API キーが設定されていません。</translation>
    </message>
    <message>
        <source>The server lists no chat model: load one in the server.</source>
        <translation>サーバーにチャット用のモデルがありません。サーバーでモデルを読み込んでください。</translation>
    </message>
    <message>
        <source>Something answered at this address, but it is not Ollama.</source>
        <translation>このアドレスで何かが応答しましたが、Ollama ではありません。</translation>
    </message>
    <message>
        <source>The context is set larger than the model was trained for; answers degrade.</source>
        <translation>コンテキストがモデルの学習時より大きく設定されています。答えの質が落ちます。</translation>
    </message>
    <message>
        <source>The keep-alive time is not a duration Ollama understands (30m, 2h or -1).</source>
        <translation>読み込んだままにする時間が Ollama の理解できる形式ではありません（30m、2h、-1 など）。</translation>
    </message>
    <message>
        <source>A small model: memory built with it will be unreliable. For memory you can rely on, use a larger model through Ollama (e.g. gemma3:4b), LM Studio, or Gemini.</source>
        <translation>小さなモデルです。これで作る記憶は当てになりません。頼れる記憶のためには、Ollama（例: gemma3:4b）、LM Studio、Gemini などで、もっと大きなモデルを使ってください。</translation>
    </message>
    <message>
        <source>Not found here, so not used: %1.</source>
        <translation>ここでは見つからないので使いません: %1。</translation>
    </message>
    <message>
        <source>Works: Automatic uses %1.</source>
        <translation>使えます。自動では %1 を使います。</translation>
    </message>
</context>
<context>
    <name>Download</name>
    <message>
        <source>Download</source>
        <translation>ダウンロード</translation>
    </message>
    <message>
        <source>Downloading %1…</source>
        <translation>%1 をダウンロードしています…</translation>
    </message>
    <message>
        <source>Checking the file (SHA-256)…</source>
        <translation>ファイルを確認しています（SHA-256）…</translation>
    </message>
    <message>
        <source>, about %1 s left</source>
        <translation>、残り約 %1 秒</translation>
    </message>
    <message>
        <source>%1 of %2, %3/s%4</source>
        <translation>%2 中 %1、毎秒 %3%4</translation>
    </message>
    <message>
        <source>The download of %1 was cancelled; nothing was installed.</source>
        <translation>%1 のダウンロードを取り消しました。何もインストールされていません。</translation>
    </message>
    <message>
        <source>%1 is downloaded and verified.</source>
        <translation>%1 のダウンロードと検証が終わりました。</translation>
    </message>
</context>
<context>
    <name>DownloadRow</name>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
</context>
<context>
    <name>DroppedWords</name>
    <message>
        <source>Dropped</source>
        <translation>除外</translation>
    </message>
    <message>
        <source>Says nothing: only a number, a list marker, punctuation or one repeated syllable</source>
        <translation>中身がない: 数字や箇条書きの記号、句読点、同じ音の繰り返しだけ</translation>
    </message>
    <message>
        <source>The model gave it no real topic, only a placeholder or a word copied from its instructions</source>
        <translation>モデルがきちんとした話題を付けなかった（仮の名前か、指示から写した言葉だけ）</translation>
    </message>
    <message>
        <source>The assistant&apos;s words, not yours</source>
        <translation>あなたではなく、アシスタントの言葉</translation>
    </message>
    <message>
        <source>Repeats the filter&apos;s own instructions, not your words</source>
        <translation>あなたの言葉ではなく、フィルターへの指示をなぞっている</translation>
    </message>
    <message>
        <source>Says one sentence over and over: the model was stuck in a loop</source>
        <translation>同じ文を何度も繰り返している（モデルが同じところを回っていた）</translation>
    </message>
    <message>
        <source>Shares nothing with your messages it cites</source>
        <translation>根拠に挙げたあなたのメッセージと共通する言葉がない</translation>
    </message>
    <message>
        <source>Says something your messages it cites do not</source>
        <translation>根拠に挙げたあなたのメッセージにないことを言っている</translation>
    </message>
    <message>
        <source>Matches one of your “never remember” rules</source>
        <translation>あなたの「記憶しないこと」のルールに当てはまる</translation>
    </message>
    <message>
        <source>Not backed by your own messages</source>
        <translation>あなた自身の発言に根拠がない</translation>
    </message>
    <message>
        <source>Not in your words (the assistant&apos;s, or none of the line it cites)</source>
        <translation>あなたの言葉にない（アシスタントの言葉か、引用した行のどこにもない）</translation>
    </message>
    <message>
        <source>Not a well-formed proposal</source>
        <translation>形式の正しくない提案</translation>
    </message>
    <message>
        <source>Over the persona&apos;s limit of proposals</source>
        <translation>ペルソナの提案数の上限を超えた</translation>
    </message>
    <message>
        <source>Nothing kept to take back</source>
        <translation>取り消す記憶がない</translation>
    </message>
    <message>
        <source>Already known: it repeats a memory you have</source>
        <translation>既に覚えていること: あなたの記憶の繰り返しです</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export</source>
        <translation>エクスポート</translation>
    </message>
    <message>
        <source>Every message, archived or not (JSONL)</source>
        <translation>すべてのメッセージ（アーカイブ済みも未処理も、JSONL）</translation>
    </message>
    <message>
        <source>The readable memory (Markdown)</source>
        <translation>読みやすい記憶（Markdown）</translation>
    </message>
</context>
<context>
    <name>Failures</name>
    <message>
        <source>Chat is paused until you flush the waiting log files.</source>
        <translation>たまっているログを整理（フラッシュ）するまで、チャットは一時停止中です。</translation>
    </message>
    <message>
        <source>The model server could not be reached.</source>
        <translation>モデルのサーバーに接続できませんでした。</translation>
    </message>
    <message>
        <source>The model is not installed on the server.</source>
        <translation>モデルがサーバーにインストールされていません。</translation>
    </message>
    <message>
        <source>The API key was refused or is missing.</source>
        <translation>API キーが拒否されたか、設定されていません。</translation>
    </message>
    <message>
        <source>The service says too many requests were made; wait a little.</source>
        <translation>リクエストが多すぎるとサービスが応答しました。少し待ってください。</translation>
    </message>
    <message>
        <source>This backend cannot be used on this computer.</source>
        <translation>このバックエンドはこのコンピューターでは使えません。</translation>
    </message>
    <message>
        <source>The model answered in a shape monchat cannot use.</source>
        <translation>モデルの答えが monchat で扱えない形式でした。</translation>
    </message>
    <message>
        <source>The filter&apos;s instructions alone do not fit the model&apos;s context.</source>
        <translation>フィルターの指示だけでモデルのコンテキストに収まりません。</translation>
    </message>
    <message>
        <source>The model server ended the reply before it finished.</source>
        <translation>モデルのサーバーが返事を最後まで書かずに終えました。</translation>
    </message>
    <message>
        <source>A filter could not read some messages, so nothing was changed.</source>
        <translation>読めないメッセージがあったため、何も変更していません。</translation>
    </message>
    <message>
        <source>Pinned memories would fill the whole memory budget of the prompt.</source>
        <translation>ピン留めした記憶だけで、プロンプトの記憶の予算がいっぱいになってしまいます。</translation>
    </message>
    <message>
        <source>The model call failed.</source>
        <translation>モデルの呼び出しに失敗しました。</translation>
    </message>
    <message>
        <source>That cannot be used.</source>
        <translation>それは使えません。</translation>
    </message>
    <message>
        <source>That cannot be found.</source>
        <translation>見つかりません。</translation>
    </message>
    <message>
        <source>The persona could not be used or saved.</source>
        <translation>ペルソナを使うことも保存することもできませんでした。</translation>
    </message>
    <message>
        <source>A setting is not valid.</source>
        <translation>設定の値が正しくありません。</translation>
    </message>
    <message>
        <source>The flush was cancelled; nothing was changed.</source>
        <translation>整理（フラッシュ）を中止しました。何も変更されていません。</translation>
    </message>
    <message>
        <source>A flush is already running.</source>
        <translation>整理はすでに実行中です。</translation>
    </message>
    <message>
        <source>A sync is already running.</source>
        <translation>同期はすでに実行中です。</translation>
    </message>
    <message>
        <source>This computer&apos;s keyring cannot store the key.</source>
        <translation>このコンピューターのキーリングには鍵を保存できません。</translation>
    </message>
    <message>
        <source>Nothing was sent: this service is a cloud you have not agreed to send to here.</source>
        <translation>何も送っていません: このサービスはクラウドで、このパソコンからの送信にまだ同意していません。</translation>
    </message>
    <message>
        <source>monchat could not read or write its data.</source>
        <translation>monchat のデータを読み書きできませんでした。</translation>
    </message>
    <message>
        <source>The disk is full: your message was not saved and not sent.</source>
        <translation>ディスクがいっぱいです。メッセージは保存も送信もされていません。</translation>
    </message>
    <message>
        <source>The model could not be downloaded.</source>
        <translation>モデルをダウンロードできませんでした。</translation>
    </message>
    <message>
        <source>The download was cancelled; nothing was installed.</source>
        <translation>ダウンロードを取り消しました。何もインストールされていません。</translation>
    </message>
    <message>
        <source>There is not enough free disk space for this model.</source>
        <translation>このモデルを入れるだけの空きディスク容量がありません。</translation>
    </message>
    <message>
        <source>The database file is damaged.</source>
        <translation>データベースファイルが壊れています。</translation>
    </message>
    <message>
        <source>The database is in use by another program.</source>
        <translation>データベースが別のプログラムで使用中です。</translation>
    </message>
    <message>
        <source>monchat may not write to its data folder.</source>
        <translation>monchat がデータフォルダに書き込めません。</translation>
    </message>
    <message>
        <source>The data was last used by a newer monchat; this one will not change it.</source>
        <translation>データは新しいバージョンの monchat で使われています。このバージョンでは変更しません。</translation>
    </message>
    <message>
        <source>That could not be done.</source>
        <translation>実行できませんでした。</translation>
    </message>
    <message>
        <source>monchat hit an internal error.</source>
        <translation>monchat の内部でエラーが起きました。</translation>
    </message>
    <message>
        <source>Something went wrong.</source>
        <translation>問題が起きました。</translation>
    </message>
    <message>
        <source>Flush the waiting log files (Memory → Flush); chat reopens afterwards.</source>
        <translation>たまっているログファイルを整理してください（記憶 → 整理）。整理が終わるとチャットを再開できます。</translation>
    </message>
    <message>
        <source>Check that the model server is running (or that you are online) and that its address in Settings is right, then try again.</source>
        <translation>モデルのサーバーが動いているか（またはインターネットにつながっているか）と、設定にあるアドレスが正しいかを確かめてから、もう一度試してください。</translation>
    </message>
    <message>
        <source>Install the model on the server (for Ollama: ollama pull and the model name) or choose another model in Settings.</source>
        <translation>サーバーにモデルを入れるか（Ollama なら ollama pull とモデル名）、設定で別のモデルを選んでください。</translation>
    </message>
    <message>
        <source>Enter a valid Gemini API key in Settings.</source>
        <translation>設定で有効な Gemini の API キーを入力してください。</translation>
    </message>
    <message>
        <source>Wait a minute, then try again.</source>
        <translation>少し待ってから、もう一度試してください。</translation>
    </message>
    <message>
        <source>Choose another backend in Settings; &quot;Test connection&quot; there shows what is missing.</source>
        <translation>設定で別のバックエンドを選んでください。設定の「接続テスト」で、何が足りないかがわかります。</translation>
    </message>
    <message>
        <source>Try again; a larger model follows the format more reliably.</source>
        <translation>もう一度試してください。大きめのモデルのほうが形式をきちんと守ります。</translation>
    </message>
    <message>
        <source>Raise the model&apos;s context in Settings, or shorten the filter persona&apos;s text.</source>
        <translation>設定でモデルのコンテキストを増やすか、フィルターペルソナの文章を短くしてください。</translation>
    </message>
    <message>
        <source>Press Retry. If the reply is empty every time, the server&apos;s context may be smaller than the one set in Settings.</source>
        <translation>「再試行」を押してください。毎回返事が空なら、サーバーのコンテキストが設定の値より小さいのかもしれません。</translation>
    </message>
    <message>
        <source>Unpin a memory you need less, or raise the budget: monchat settings set flush.memory_token_budget N.</source>
        <translation>あまり要らない記憶のピンを外すか、予算を増やしてください（monchat settings set flush.memory_token_budget N）。</translation>
    </message>
    <message>
        <source>Flush again (a busy model often answers the next time), choose a larger model, or flush without the unread messages.</source>
        <translation>もう一度整理するか（混んでいたモデルは次に答えることがよくあります）、より大きなモデルを選ぶか、読めなかったメッセージを除いて整理してください。</translation>
    </message>
    <message>
        <source>Run it again when you are ready; the logs are still there.</source>
        <translation>準備ができたら、もう一度実行してください。ログはそのまま残っています。</translation>
    </message>
    <message>
        <source>Wait for it to finish; its summary shows what changed.</source>
        <translation>終わるまでお待ちください。終わると何が変わったかが表示されます。</translation>
    </message>
    <message>
        <source>Wait a moment; the window syncs again by itself.</source>
        <translation>少し待ってください。ウィンドウがまた自動で同期します。</translation>
    </message>
    <message>
        <source>Free some disk space, then send again; your text is still in the box.</source>
        <translation>ディスクの空きを作ってから、もう一度送信してください。入力した文章は入力欄に残っています。</translation>
    </message>
    <message>
        <source>Check the internet connection and download again; a file that fails its check is never used.</source>
        <translation>インターネット接続を確かめて、もう一度ダウンロードしてください。確認に通らなかったファイルは使われません。</translation>
    </message>
    <message>
        <source>Download it again when you want it.</source>
        <translation>必要になったら、もう一度ダウンロードしてください。</translation>
    </message>
    <message>
        <source>Free some disk space, or choose a smaller model.</source>
        <translation>ディスクの空きを増やすか、もっと小さいモデルを選んでください。</translation>
    </message>
    <message>
        <source>Run `monchat doctor` in a terminal: it says how to recover the file. Your unflushed log files are safe.</source>
        <translation>ターミナルで `monchat doctor` を実行してください。ファイルの復旧方法が表示されます。未整理のログファイルは無事です。</translation>
    </message>
    <message>
        <source>Close other monchat windows or programs using monchat.db, then try again.</source>
        <translation>monchat.db を使っている他の monchat ウィンドウやプログラムを閉じてから、もう一度試してください。</translation>
    </message>
    <message>
        <source>Make the data folder writable by you, then start monchat again.</source>
        <translation>データフォルダを書き込み可能にしてから、monchat を起動し直してください。</translation>
    </message>
    <message>
        <source>Update monchat to the newest version.</source>
        <translation>monchat を最新バージョンに更新してください。</translation>
    </message>
    <message>
        <source>Set the GEMINI_API_KEY environment variable before starting monchat instead; monchat never writes the key to its own files.</source>
        <translation>代わりに、monchat を起動する前に環境変数 GEMINI_API_KEY を設定してください。monchat は鍵を自分のファイルに書き込みません。</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>対処法: %1</translation>
    </message>
    <message>
        <source>A crash report was saved to %1. Please attach it to a bug report.</source>
        <translation>クラッシュレポートを %1 に保存しました。不具合の報告に添付してください。</translation>
    </message>
    <message>
        <source>The details are in monchat.log in the data folder.</source>
        <translation>詳しくはデータフォルダーの monchat.log を見てください。</translation>
    </message>
    <message>
        <source>The service blocked this message and did not answer it.</source>
        <translation>サービスがこのメッセージをブロックし、答えませんでした。</translation>
    </message>
    <message>
        <source>The service ended the reply early; it may be cut off.</source>
        <translation>サービスが返事を途中で終えました。途切れているかもしれません。</translation>
    </message>
    <message>
        <source>The server cut the reply at its length limit; ask it to go on, or raise the limit.</source>
        <translation>サーバーが長さの上限で返事を切りました。続きを頼むか、上限を上げてください。</translation>
    </message>
    <message>
        <source>The model backend added a note to this reply (see monchat.log).</source>
        <translation>モデルのバックエンドがこの返事に注記を付けました（monchat.log を見てください）。</translation>
    </message>
    <message>
        <source>Note from the model backend: %1</source>
        <translation>モデルのバックエンドからの注記: %1</translation>
    </message>
    <message>
        <source>monchat</source>
        <translation>monchat</translation>
    </message>
</context>
<context>
    <name>FileMenu</name>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>Search…</source>
        <translation>検索…</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>インポート…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>エクスポート…</translation>
    </message>
    <message>
        <source>Import memory…</source>
        <translation>記憶をインポート…</translation>
    </message>
    <message>
        <source>Export memory…</source>
        <translation>記憶をエクスポート…</translation>
    </message>
    <message>
        <source>Back up and restore…</source>
        <translation>バックアップと復元…</translation>
    </message>
</context>
<context>
    <name>FilterPersonaDialog</name>
    <message>
        <source>Filter personas</source>
        <translation>フィルターペルソナ</translation>
    </message>
    <message>
        <source>One per line</source>
        <translation>1 行に 1 つ</translation>
    </message>
    <message>
        <source>timeline (fades with time)</source>
        <translation>時系列（時間とともに薄れる）</translation>
    </message>
    <message>
        <source>reinforced (strengthens with repetition)</source>
        <translation>積み重ね（繰り返すほど強まる）</translation>
    </message>
    <message>
        <source>Talent</source>
        <translation>得意分野</translation>
    </message>
    <message>
        <source>Picks up</source>
        <translation>拾うもの</translation>
    </message>
    <message>
        <source>Ignores</source>
        <translation>無視するもの</translation>
    </message>
    <message>
        <source>At most (items per flush)</source>
        <translation>最大件数（1 回の整理あたり）</translation>
    </message>
    <message>
        <source>Style</source>
        <translation>スタイル</translation>
    </message>
    <message>
        <source>Extra instructions</source>
        <translation>追加の指示</translation>
    </message>
    <message>
        <source>At each flush: Base always reads, the two you choose here read, and one more is picked for that flush</source>
        <translation>毎回の整理では、ベースペルソナが必ず読み、ここで選んだ 2 人と、そのつど選ばれる 1 人も読みます</translation>
    </message>
    <message>
        <source>Your two personas are saved.</source>
        <translation>選んだ 2 人を保存しました。</translation>
    </message>
    <message>
        <source>Picked at the last flush: %1</source>
        <translation>前回の整理で選ばれたペルソナ: %1</translation>
    </message>
    <message>
        <source>Use these two</source>
        <translation>この 2 人にする</translation>
    </message>
    <message>
        <source>(locked)</source>
        <translation>（ロック）</translation>
    </message>
    <message>
        <source>There is already a filter persona with the id %1.</source>
        <translation>ID が %1 のフィルターペルソナはすでにあります。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Delete this filter persona (what it found stays in memory)</source>
        <translation>このフィルターペルソナを削除します（見つけたことは記憶に残ります）</translation>
    </message>
    <message>
        <source>Base is locked: it reads at every flush and picks only the skeleton of the day. Copy its ideas into a new persona to change them.</source>
        <translation>ベースペルソナはロックされています。毎回の整理で必ず読み、一日の骨組みだけを拾います。変えたいときは、その考え方を新しいペルソナに写してください。</translation>
    </message>
    <message>
        <source>The two you choose are the “fixed” personas (flush.fixed_personas); the one picked each time is the “random” one.</source>
        <translation>ここで選ぶ 2 人はプログラム上「固定」ペルソナ（設定の flush.fixed_personas）、そのつど選ばれる 1 人は「ランダム」ペルソナと呼ばれます。</translation>
    </message>
    <message>
        <source>Base is locked.</source>
        <translation>ベースペルソナはロックされています。</translation>
    </message>
    <message>
        <source>Only filter personas you made or changed can be deleted.</source>
        <translation>削除できるのは、あなたが作ったか変更したフィルターペルソナだけです。</translation>
    </message>
    <message>
        <source>Delete the filter persona %1? What it found stays in memory.</source>
        <translation>フィルターペルソナ %1 を削除しますか？ 見つけたことは記憶に残ります。</translation>
    </message>
    <message>
        <source>Deleted %1.</source>
        <translation>%1 を削除しました。</translation>
    </message>
    <message>
        <source>No flush has run yet.</source>
        <translation>まだ一度も整理していません。</translation>
    </message>
    <message>
        <source>Looking up the last flush…</source>
        <translation>前回の整理を確認中…</translation>
    </message>
</context>
<context>
    <name>FixedPersonaPicker</name>
    <message>
        <source>(none)</source>
        <translation>（なし）</translation>
    </message>
    <message>
        <source>Choose two different personas.</source>
        <translation>別々の 2 人を選んでください。</translation>
    </message>
</context>
<context>
    <name>FlushDialog</name>
    <message>
        <source>Flush</source>
        <translation>整理（フラッシュ）</translation>
    </message>
    <message>
        <source>Reading the plan…</source>
        <translation>計画を読み込み中…</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>段階</translation>
    </message>
    <message>
        <source>Filter personas</source>
        <translation>フィルターペルソナ</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>変更</translation>
    </message>
    <message>
        <source>Memory / evidence</source>
        <translation>記憶 / 根拠</translation>
    </message>
    <message>
        <source>Start flush</source>
        <translation>整理を始める</translation>
    </message>
    <message>
        <source>Flush without the unread messages</source>
        <translation>読めなかったメッセージを除いて整理</translation>
    </message>
    <message>
        <source>The filters that could not read some messages skip them; the run records which.</source>
        <translation>読めなかったフィルターはそのメッセージを飛ばします。どれを飛ばしたかは記録に残ります。</translation>
    </message>
    <message>
        <source>Cancel flush</source>
        <translation>整理を中止</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>There are no log files to flush.</source>
        <translation>整理するログファイルはありません。</translation>
    </message>
    <message>
        <source>%1 log files with %2 messages will be read.</source>
        <translation>%1 個のログファイル（%2 件のメッセージ）を読みます。</translation>
    </message>
    <message>
        <source>Nothing to flush yet: chat first.</source>
        <translation>まだ整理するものがありません。先にチャットしてください。</translation>
    </message>
    <message>
        <source>part %1/%2 · %3 tokens</source>
        <translation>%1/%2 部 · %3 トークン</translation>
    </message>
    <message>
        <source>%1 of %2 unread</source>
        <translation>%2 部中 %1 部未読</translation>
    </message>
    <message>
        <source>%1 is reading part %2 of %3 · %4 tokens written</source>
        <translation>%1 が %3 部中 %2 部目を読んでいます（%4 トークン）</translation>
    </message>
    <message>
        <source>Nothing new resembles what is remembered; no comparisons needed.</source>
        <translation>覚えていることに似た新しい項目はないので、照らし合わせは不要です。</translation>
    </message>
    <message>
        <source>Comparing %1 pairs, each a new item and a remembered one.</source>
        <translation>新しい項目と覚えている記憶の組 %1 組を照らし合わせています。</translation>
    </message>
    <message>
        <source>Compared %1 pairs with what is remembered.</source>
        <translation>覚えている記憶と %1 組を照らし合わせました。</translation>
    </message>
    <message>
        <source>Looking back over what this flush found…</source>
        <translation>今回の整理で見つかったことを振り返っています…</translation>
    </message>
    <message>
        <source>Writing the diary: %1 of %2 days.</source>
        <translation>日記を書いています：%2 日のうち %1 日。</translation>
    </message>
    <message>
        <source>Weighing the evidence for %1 items.</source>
        <translation>%1 件の項目について根拠を量っています。</translation>
    </message>
    <message>
        <source>Open review queue (%1)</source>
        <translation>確認待ちを開く（%1 件）</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>メモ: %1</translation>
    </message>
    <message>
        <source>Problem: %1</source>
        <translation>問題: %1</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>Preview only (show the changes, write nothing)</source>
        <translation>プレビューのみ（変更を表示するだけで、何も書き込みません）</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>開始中…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>中止中…</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>The filter personas are reading the logs (%1 of %2 parts read).</source>
        <translation>フィルターペルソナがログを読んでいます（%2 部中 %1 部を読了）。</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Preview finished: nothing was written.</source>
        <translation>プレビューが終わりました。何も書き込んでいません。</translation>
    </message>
    <message>
        <source>Flush finished.</source>
        <translation>整理が終わりました。</translation>
    </message>
    <message>
        <source>There was nothing new to flush.</source>
        <translation>整理する新しい内容はありませんでした。</translation>
    </message>
    <message>
        <source>Lasting memory: +%1   Recent memory: +%2   Replaced: %3   Sent to review: %4</source>
        <translation>長期の記憶: +%1&#x3000;最近の記憶: +%2&#x3000;置き換え: %3&#x3000;確認待ちへ: %4</translation>
    </message>
    <message>
        <source>Model calls: %1   Tokens: %2   Time: %3 s</source>
        <translation>モデル呼び出し: %1   トークン: %2   時間: %3 秒</translation>
    </message>
    <message>
        <source>No changes</source>
        <translation>変更なし</translation>
    </message>
</context>
<context>
    <name>FlushNotes</name>
    <message numerus="yes">
        <source>Looking back: %n finding(s) left out: not in the expected form, or about a topic it was not shown.</source>
        <translation>
            <numerusform>振り返り: %n 件の気づきを除外しました。決まった形になっていないか、見せていない話題についてのものでした。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Looking back: %n finding(s) left out: they say nothing (only a number, a list marker, punctuation or one repeated syllable).</source>
        <translation>
            <numerusform>振り返り: %n 件の気づきを除外しました。中身がありません（数字、箇条書きの記号、句読点、同じ音のくり返しだけ）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Looking back: %n finding(s) left out: they repeat the request&apos;s instructions, not what your conversations show.</source>
        <translation>
            <numerusform>振り返り: %n 件の気づきを除外しました。会話からわかることではなく、依頼の指示をくり返していました。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FlushTiming</name>
    <message>
        <source>Elapsed: %1 · no estimate yet (no flush or chat reply here to go by)</source>
        <translation>経過 %1 · 残り時間はまだわかりません（手がかりになる前回の整理もチャットの返事もありません）</translation>
    </message>
    <message>
        <source>Elapsed: %1</source>
        <translation>経過時間: %1</translation>
    </message>
    <message>
        <source>Elapsed: %1 · roughly %2 left (from how long your chat replies took)</source>
        <translation>経過 %1 · 残りざっと %2（チャットの返事にかかった時間から）</translation>
    </message>
    <message>
        <source>Elapsed: %1 · about %2 left (at the pace of the last flush)</source>
        <translation>経過 %1 · 残りおよそ %2（前回の整理の速さから）</translation>
    </message>
    <message>
        <source>Elapsed: %1 · about %2 left (from %3 of %4 parts read)</source>
        <translation>経過時間: %1 · 残りおよそ %2（全 %4 区切りのうち %3 を読み終えた速さから）</translation>
    </message>
</context>
<context>
    <name>FlushWords</name>
    <message>
        <source>Reading the logs</source>
        <translation>ログを読む</translation>
    </message>
    <message>
        <source>Filter personas pick what matters</source>
        <translation>フィルターペルソナが大事なことを拾う</translation>
    </message>
    <message>
        <source>Comparing with what is remembered</source>
        <translation>覚えていることと照らし合わせる</translation>
    </message>
    <message>
        <source>Looking back: insights and the diary</source>
        <translation>振り返り（気づきと日記）</translation>
    </message>
    <message>
        <source>Weighing the evidence</source>
        <translation>根拠を量る</translation>
    </message>
    <message>
        <source>Tidying up (expiry, fading, the cap)</source>
        <translation>片付け（期限切れ・減衰・上限）</translation>
    </message>
    <message>
        <source>Rebuilding the prompt</source>
        <translation>プロンプトを作り直す</translation>
    </message>
    <message>
        <source>always reads</source>
        <translation>毎回読む</translation>
    </message>
    <message>
        <source>you chose</source>
        <translation>あなたが選んだ</translation>
    </message>
    <message>
        <source>picked this time</source>
        <translation>今回選ばれた</translation>
    </message>
    <message>
        <source>Reads at every flush and cannot be changed (the program calls it the “base” persona).</source>
        <translation>毎回の整理で必ず読みます。変えることはできません（プログラム上の呼び名は「ベース」ペルソナ）。</translation>
    </message>
    <message>
        <source>One of the two you chose under Personas → Filter personas (a “fixed” persona: flush.fixed_personas).</source>
        <translation>ペルソナ → フィルターペルソナ で選んだ 2 人のうちの 1 人です（プログラム上の呼び名は「固定」ペルソナ。設定の flush.fixed_personas）。</translation>
    </message>
    <message>
        <source>Picked at random from the others for this flush only (the “random” persona; the flush&apos;s seed decides which).</source>
        <translation>ほかのペルソナから、この整理のためだけに選ばれました（プログラム上の呼び名は「ランダム」ペルソナ。どれになるかは整理のシードで決まります）。</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新規</translation>
    </message>
    <message>
        <source>Reinforced</source>
        <translation>強化</translation>
    </message>
    <message>
        <source>Merged</source>
        <translation>統合</translation>
    </message>
    <message>
        <source>Replaced</source>
        <translation>置き換え</translation>
    </message>
    <message>
        <source>Taken back</source>
        <translation>取り消し</translation>
    </message>
    <message>
        <source>Waiting for your review</source>
        <translation>確認待ち</translation>
    </message>
    <message>
        <source>Into lasting memory</source>
        <translation>長期の記憶へ</translation>
    </message>
    <message>
        <source>Into recent memory</source>
        <translation>最近の記憶へ</translation>
    </message>
    <message>
        <source>Set aside (contradicted)</source>
        <translation>保留（矛盾あり）</translation>
    </message>
    <message>
        <source>Dormant (over the cap)</source>
        <translation>休眠（上限超過）</translation>
    </message>
    <message>
        <source>Expired from recent memory</source>
        <translation>最近の記憶から期限切れ</translation>
    </message>
    <message>
        <source>Contradicted</source>
        <translation>矛盾</translation>
    </message>
    <message>
        <source>%1 could not read part %2 of the log at once; it read it again in two halves.</source>
        <translation>%1 はログの第 %2 部を一度に読めなかったため、半分ずつ読み直しました。</translation>
    </message>
    <message>
        <source>%1 could not read part %2 of the log.</source>
        <translation>%1 はログの第 %2 部を読めませんでした。</translation>
    </message>
    <message>
        <source>Some comparisons with what is remembered came back unreadable and were skipped.</source>
        <translation>覚えていることとの照らし合わせの一部が読めない答えだったため、飛ばしました。</translation>
    </message>
    <message>
        <source>%1 proposed the same change; it is one item: “%2”.</source>
        <translation>%1 が同じ変更を提案しました。ひとつの項目にまとめています:「%2」</translation>
    </message>
    <message>
        <source>%1 proposed the same change %2 times; it is one item: “%3”.</source>
        <translation>%1 が同じ変更を %2 回提案しました。ひとつの項目にまとめています:「%3」</translation>
    </message>
    <message>
        <source>%1 (said by the program in English)</source>
        <translation>%1（プログラムが英語で出した内容です）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message numerus="yes">
        <source>%n unreadable log line(s) were set aside in %1.</source>
        <translation>
            <numerusform>読めないログの行 %n 行を %1 に取り分けました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) with %1 were archived unread (that persona&apos;s conversations are not read at a flush).</source>
        <translation>
            <numerusform>%1 とのメッセージ %n 件は読まずに保管しました（このペルソナとの会話は整理で読みません）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Memory is paused: %n message(s) were kept and nothing new was remembered.</source>
        <translation>
            <numerusform>記憶を一時停止中です：%n件のメッセージを保存し、新しいことは何も記憶しませんでした。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) you edited away (or replies asked for again) were archived unread.</source>
        <translation>
            <numerusform>書き直して取り消したメッセージと、作り直して置き換えた返信 %n 件は、読まずにアーカイブしました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>A partial flush was accepted: %n message(s) were archived without being read by every filter.</source>
        <translation>
            <numerusform>一部だけの整理を受け入れました: %n 件のメッセージは、すべてのフィルターには読まれないまま保管されました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n kept</source>
        <translation>
            <numerusform>採用 %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n waiting for you (not sure they are your words)</source>
        <translation>
            <numerusform>確認待ち %n 件（あなたの言葉か確かでないもの）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n the same as another persona&apos;s</source>
        <translation>
            <numerusform>他のペルソナと同じ提案 %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) memory could not answer (never memories)</source>
        <translation>
            <numerusform>記憶では答えられなかった質問 %n 件（記憶にはしません）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n proposal(s): %1</source>
        <translation>
            <numerusform>提案 %n 件：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n over the persona&apos;s limit</source>
        <translation>
            <numerusform>ペルソナの上限超過 %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n with no evidence in your messages</source>
        <translation>
            <numerusform>あなたの発言に根拠なし %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n already known</source>
        <translation>
            <numerusform>既に記憶済み %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n not in your words (the guard)</source>
        <translation>
            <numerusform>あなたの言葉ではない %n 件（ガード）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n not a well-formed proposal (the guard)</source>
        <translation>
            <numerusform>提案の形になっていない %n 件（ガード）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n matching a “never remember” rule</source>
        <translation>
            <numerusform>「覚えない」ルールに該当 %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n taking back nothing that was kept</source>
        <translation>
            <numerusform>取り消す記憶がない取り消し %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2 from the cache)</source>
        <translation>%1（うちキャッシュから %2）</translation>
    </message>
    <message>
        <source>about %1</source>
        <translation>約 %1</translation>
    </message>
</context>
<context>
    <name>GateBar</name>
    <message>
        <source>Flush…</source>
        <translation>整理…</translation>
    </message>
    <message>
        <source>Flush now…</source>
        <translation>今すぐ整理…</translation>
    </message>
    <message>
        <source>A flush is recommended at %1 files; chat pauses at %2.</source>
        <translation>ファイルが %1 個になったら整理をおすすめします。%2 個でチャットが止まります。</translation>
    </message>
    <message>
        <source>Unflushed log files: %1 (flush recommended at %2, chat pauses at %3)</source>
        <translation>未整理のログファイル: %1（%2 で整理をおすすめ、%3 でチャット停止）</translation>
    </message>
    <message>
        <source>Unflushed log files: 0</source>
        <translation>未整理のログファイル: 0</translation>
    </message>
    <message>
        <source>%1 log files are waiting. A flush now turns them into memory; at %2 files chat pauses until you flush.</source>
        <translation>ログファイルが %1 個たまっています。今整理すると記憶になります。%2 個になると、整理するまでチャットが止まります。</translation>
    </message>
    <message>
        <source>A flush is running. You can keep chatting: what you send now is kept for the next flush.</source>
        <translation>整理を実行中です。このままチャットを続けられます。いま送るメッセージは次の整理で記憶にします。</translation>
    </message>
    <message>
        <source>Off the record you can go on chatting: nothing said off the record waits for a flush.</source>
        <translation>オフレコなら会話を続けられます。オフレコで話したことは整理を待ちません。</translation>
    </message>
    <message>
        <source>Turn the waiting log files into memory</source>
        <translation>待っているログファイルを記憶にまとめる</translation>
    </message>
    <message>
        <source>Chat is paused: %1 log files are waiting for a flush (the limit is %2). Your messages are safe on disk. Flush to turn them into memory, and chat reopens.</source>
        <translation>チャットは一時停止中です: 整理待ちのログファイルが %1 個あります（上限 %2）。メッセージはディスクに安全に保存されています。整理すると記憶になり、チャットを再開できます。</translation>
    </message>
</context>
<context>
    <name>GrowingMemoryPage</name>
    <message>
        <source>Weight: said in one message</source>
        <translation>重み: 同じメッセージに出る</translation>
    </message>
    <message>
        <source>Weight: in the same sessions</source>
        <translation>重み: 同じ会話に出る</translation>
    </message>
    <message>
        <source>Weight: shared neighbours</source>
        <translation>重み: 共通の隣り合う話題</translation>
    </message>
    <message>
        <source>Weight: kinds that go together</source>
        <translation>重み: 相性のよい種類</translation>
    </message>
    <message>
        <source>Weight: similar words</source>
        <translation>重み: 似たことば</translation>
    </message>
    <message>
        <source>After each flush</source>
        <translation>整理のたびに</translation>
    </message>
    <message>
        <source>Look back over the flush</source>
        <translation>整理のあとに振り返る</translation>
    </message>
    <message>
        <source>One call finds insights and suspected gaps for the inbox.</source>
        <translation>1 回の呼び出しで、受信箱に入れる気づきとギャップの疑いを探します。</translation>
    </message>
    <message>
        <source>Write the diary</source>
        <translation>日記を書く</translation>
    </message>
    <message>
        <source>One call per day with new messages writes that day&apos;s page.</source>
        <translation>新しいメッセージのある日ごとに 1 回呼び出して、その日のページを書きます。</translation>
    </message>
    <message>
        <source>Rules check your memory for broken links and values that do not fit.</source>
        <translation>決まりに沿って、記憶の壊れたつながりや分類に合わない値を点検します。</translation>
    </message>
    <message>
        <source>One more call: which memories of one kind contradict each other.</source>
        <translation>もう 1 回の呼び出しで、同じ種類の記憶どうしの食い違いを調べます。</translation>
    </message>
    <message>
        <source>Warm up the model</source>
        <translation>モデルを温めておく</translation>
    </message>
    <message>
        <source>Give the backend the new system prompt at once, so the next reply starts sooner.</source>
        <translation>新しいシステムプロンプトをすぐバックエンドに渡し、次の返事を早く始められるようにします。</translation>
    </message>
    <message>
        <source>Gaps and skills</source>
        <translation>ギャップと技能</translation>
    </message>
    <message>
        <source>Chat may ask about a gap</source>
        <translation>会話でギャップについて尋ねてよい</translation>
    </message>
    <message>
        <source>The chat prompt may carry one &quot;ask about this if it comes up&quot; line.</source>
        <translation>会話のプロンプトに「話に出たら尋ねる」行をひとつ入れることがあります。</translation>
    </message>
    <message>
        <source>Suggest a related topic not yet talked about after (messages)</source>
        <translation>まだ話していない関連の話題をすすめるまで（メッセージ数）</translation>
    </message>
    <message>
        <source>Skill practice fades to half in (days)</source>
        <translation>技能の経験が半分に薄れるまで（日）</translation>
    </message>
    <message>
        <source>A preference fades to half in (days)</source>
        <translation>好みが半分に薄れるまで（日）</translation>
    </message>
    <message>
        <source>How recently talked about</source>
        <translation>話題にした時期</translation>
    </message>
    <message>
        <source>“Often” for (days unused)</source>
        <translation>「よく話す」の間（使われない日数）</translation>
    </message>
    <message>
        <source>“Now and then” for (days unused)</source>
        <translation>「ときどき」の間（使われない日数）</translation>
    </message>
    <message>
        <source>Then “now and then”: in full, after the “often” ones when space is short.</source>
        <translation>次は「ときどき」: 全文で入り、余裕がないときは「よく話す」のあとに回ります。</translation>
    </message>
    <message>
        <source>“Not lately” for (days unused)</source>
        <translation>「最近は話さない」の間（使われない日数）</translation>
    </message>
    <message>
        <source>Then “not lately” (a topic&apos;s such memories become one summary); older ones are left out.</source>
        <translation>次は「最近は話さない」（話題ごとにひとつの要約になります）。それより古いものは入りません。</translation>
    </message>
    <message>
        <source>Each further day a memory was said on lengthens these limits by this share.</source>
        <translation>記憶が話された日が 1 日増えるごとに、これらの日数をこの割合だけ延ばします。</translation>
    </message>
    <message>
        <source>Sum up topics not talked about lately</source>
        <translation>最近話さない話題を要約する</translation>
    </message>
    <message>
        <source>The flush asks for a short summary of a topic&apos;s memories not talked about lately (one call a topic).</source>
        <translation>整理のとき、最近話さない話題ごとに記憶の短い要約を頼みます（話題ごとに 1 回の呼び出し）。</translation>
    </message>
    <message>
        <source>Memories a topic needs to be summed up</source>
        <translation>要約に必要な、最近は話さない記憶の数</translation>
    </message>
    <message>
        <source>A topic is summed up only with at least this many such memories.</source>
        <translation>そうした記憶がこの数以上ある話題だけを要約します。</translation>
    </message>
    <message>
        <source>Topics summed up per flush at most</source>
        <translation>1 回の整理で要約する話題の上限</translation>
    </message>
    <message>
        <source>Summaries one flush asks the model for at most (0: none).</source>
        <translation>1 回の整理でモデルに頼む要約の上限です（0: しない）。</translation>
    </message>
    <message>
        <source>The days must grow: “often” at most “now and then”, “now and then” at most “not lately”.</source>
        <translation>日数は順に大きくしてください:「よく話す」は「ときどき」以下、「ときどき」は「最近は話さない」以下です。</translation>
    </message>
    <message>
        <source>A topic with this many messages in 30 days suggests the ones next to it (0: off).</source>
        <translation>30 日でこの数のメッセージがある話題は、その隣の話題をギャップとして示します（0: オフ）。</translation>
    </message>
    <message>
        <source>Check memory for mistakes</source>
        <translation>記憶の間違いを点検する</translation>
    </message>
    <message>
        <source>The check asks the model about contradictions</source>
        <translation>点検で食い違いをモデルに尋ねる</translation>
    </message>
    <message>
        <source>A day of using a skill counts half as much after this many days.</source>
        <translation>技能を使った 1 日は、この日数が過ぎると半分に数えられます。</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>好み</translation>
    </message>
    <message>
        <source>Apply a changed preference without asking</source>
        <translation>変わった好みを確認なしで反映する</translation>
    </message>
    <message>
        <source>When the flush is sure, a new version of a preference needs no review.</source>
        <translation>整理が確信しているとき、好みの新しい版は確認待ちに入りません。</translation>
    </message>
    <message>
        <source>A preference&apos;s confidence halves after this many days without new evidence.</source>
        <translation>新しい根拠がないまま、この日数が過ぎると好みの確信度が半分になります。</translation>
    </message>
    <message>
        <source>Memories touched this recently come first, in full.</source>
        <translation>この日数以内に触れた記憶は、全文で最初に入ります。</translation>
    </message>
    <message>
        <source>Stretch per day of evidence</source>
        <translation>根拠の日 1 日ごとの延長</translation>
    </message>
    <message>
        <source>Longest stretch (times)</source>
        <translation>延長の上限（倍）</translation>
    </message>
    <message>
        <source>Evidence lengthens the limits at most this many times.</source>
        <translation>根拠による延長は、最大でこの倍数までです。</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>グラフ</translation>
    </message>
    <message>
        <source>Build the graph of what you talk about</source>
        <translation>話していることのグラフを作る</translation>
    </message>
    <message>
        <source>Rebuilt at each flush; the inbox draws it.</source>
        <translation>整理のたびに作り直し、受信箱に描きます。</translation>
    </message>
    <message>
        <source>Draw a link from (weight)</source>
        <translation>つながりを描く重み</translation>
    </message>
    <message>
        <source>A weaker link is kept but not drawn.</source>
        <translation>これより弱いつながりは、保存されますが描かれません。</translation>
    </message>
    <message>
        <source>How much this signal adds to a link&apos;s weight.</source>
        <translation>この手がかりが、つながりの重みにどれだけ加わるか。</translation>
    </message>
    <message>
        <source>off</source>
        <translation>オフ</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Import history</source>
        <translation>履歴をインポート</translation>
    </message>
    <message>
        <source>Bring your conversations from another assistant: a ChatGPT or Claude export (conversations.json), a SillyTavern chat (.jsonl) or monchat&apos;s own JSONL. Importing the same file twice adds nothing.</source>
        <translation>ほかのアシスタントとの会話を取り込みます：ChatGPT や Claude のエクスポート（conversations.json）、SillyTavern のチャット（.jsonl）、monchat 自身の JSONL。同じファイルを2回取り込んでも何も増えません。</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>ファイルを選ぶ…</translation>
    </message>
    <message>
        <source>Chat history (*.json *.jsonl);;All files (*)</source>
        <translation>チャット履歴 (*.json *.jsonl);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 を読み込み中…</translation>
    </message>
    <message numerus="yes">
        <source>Imported %1 of %n message(s).</source>
        <translation>
            <numerusform>%n 件中 %1 件のメッセージを取り込みました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of them were already here.</source>
        <translation>
            <numerusform>うち %n 件はすでにありました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Skipped %n system, tool or empty message(s).</source>
        <translation>
            <numerusform>システム・ツール・空のメッセージ %n 件は取り込みませんでした。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 log files now wait for a flush, so chat is paused: press Flush. One flush reads them all, in parts that fit the model.</source>
        <translation>%1 個のログファイルが整理を待っているため、チャットは止まっています。「整理」を押してください。1 回の整理で、モデルに収まる大きさに分けてすべて読みます。</translation>
    </message>
    <message>
        <source>%1 log files now wait for a flush; a flush is recommended.</source>
        <translation>%1 個のログファイルが整理を待っています。整理をおすすめします。</translation>
    </message>
</context>
<context>
    <name>InboxDialog</name>
    <message>
        <source>Inbox</source>
        <translation>受信箱</translation>
    </message>
    <message>
        <source>Insights and gaps</source>
        <translation>気づきとギャップ</translation>
    </message>
    <message>
        <source>Diary</source>
        <translation>日記</translation>
    </message>
    <message>
        <source>Interests</source>
        <translation>関心</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>グラフ</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>点検</translation>
    </message>
    <message>
        <source>insight</source>
        <translation>気づき</translation>
    </message>
    <message>
        <source>suspected gap</source>
        <translation>ギャップの疑い</translation>
    </message>
    <message>
        <source>never mentioned</source>
        <translation>話に出ない</translation>
    </message>
    <message>
        <source>not known twice</source>
        <translation>2 回思い出せなかった</translation>
    </message>
    <message>
        <source>new link</source>
        <translation>新しいつながり</translation>
    </message>
    <message>
        <source>two steps apart</source>
        <translation>ふたつ隔てて</translation>
    </message>
    <message>
        <source>seems to belong</source>
        <translation>仲間らしい</translation>
    </message>
    <message>
        <source>Memory did not know %1 (%2 times); last: %3</source>
        <translation>%1 を %2 回思い出せなかった（最後：%3）</translation>
    </message>
    <message>
        <source>You often talk about %1, never about %2</source>
        <translation>%1 についてよく話すのに、%2 は話に出ない</translation>
    </message>
    <message>
        <source>new</source>
        <translation>未読</translation>
    </message>
    <message>
        <source>read</source>
        <translation>既読</translation>
    </message>
    <message>
        <source>%1 and %2 now link two groups that had no link.</source>
        <translation>%1 と %2 が、これまでつながりのなかった二つのまとまりを結びました。</translation>
    </message>
    <message>
        <source>%1 and %2 both go with %3, but never came up together.</source>
        <translation>%1 と %2 はどちらも %3 と一緒に話に出ますが、二つが一緒に出たことはありません。</translation>
    </message>
    <message>
        <source>%1 goes with most of %2, yet is not drawn with them.</source>
        <translation>%1 は %2 の多くと一緒に話に出ますが、線で結ぶほど強くはありません。</translation>
    </message>
    <message>
        <source>↑ rising</source>
        <translation>↑ 上昇</translation>
    </message>
    <message>
        <source>→ steady</source>
        <translation>→ 横ばい</translation>
    </message>
    <message>
        <source>↓ cooling</source>
        <translation>↓ 低下</translation>
    </message>
    <message>
        <source>Last %1 days</source>
        <translation>直近 %1 日</translation>
    </message>
    <message>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>About</source>
        <translation>対象</translation>
    </message>
    <message>
        <source>Flush</source>
        <translation>整理</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Mark as read</source>
        <translation>既読にする</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>片づける</translation>
    </message>
    <message>
        <source>Take it off this list; a dismissed gap is no longer asked about in the chat and is not marked again.</source>
        <translation>一覧から外します。片づけたギャップは、チャットで聞かれることも、もう一度印を付けられることもありません。</translation>
    </message>
    <message>
        <source>Nothing here yet: each flush looks back and leaves what it noticed here. monchat never fills a gap by itself.</source>
        <translation>まだ何もありません。整理のたびに振り返り、気づいたことをここに残します。ギャップを monchat が勝手に埋めることはありません。</translation>
    </message>
    <message>
        <source>No graph yet: a flush draws it from your memories.</source>
        <translation>グラフはまだありません。整理すると、記憶から描かれます。</translation>
    </message>
    <message>
        <source>Blue: topics · orange: people · green: places · purple: things. A line: talked about together (thicker: stronger); weaker links are kept, not drawn.</source>
        <translation>青：話題・橙：人・緑：場所・紫：もの。線：一緒に話に出たもの（太いほど強い）。弱いつながりは記録だけして、線にしません。</translation>
    </message>
    <message>
        <source>No diary yet: a flush writes one page for each day you chatted.</source>
        <translation>日記はまだありません。整理すると、話した日ごとに 1 ページ書かれます。</translation>
    </message>
    <message>
        <source>Topics: %1. Messages cited: %2.</source>
        <translation>話題：%1。引用したメッセージ：%2 件。</translation>
    </message>
    <message>
        <source>No profile yet: a flush draws it, and so does approving a memory.</source>
        <translation>関心のグラフはまだありません。整理のときと、記憶を承認したときに描かれます。</translation>
    </message>
    <message>
        <source>Topics you talked about, as of %1 (bars: share of the window).</source>
        <translation>%1 時点で話した話題（棒：期間内の割合）。</translation>
    </message>
    <message>
        <source>Messages about it in these days: %1</source>
        <translation>この期間にこの話題が出た発言：%1</translation>
    </message>
</context>
<context>
    <name>LayerRows</name>
    <message>
        <source>What this flush changed</source>
        <translation>この整理で変わったこと</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>項目</translation>
    </message>
    <message>
        <source>Looking back</source>
        <translation>振り返り</translation>
    </message>
    <message>
        <source>Interests</source>
        <translation>関心</translation>
    </message>
    <message>
        <source>Diary</source>
        <translation>日記</translation>
    </message>
    <message>
        <source>Knowledge gaps</source>
        <translation>知識のギャップ</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>スキル</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>好み</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>グラフ</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新規</translation>
    </message>
    <message>
        <source>waits for review</source>
        <translation>確認待ち</translation>
    </message>
    <message>
        <source>replaced</source>
        <translation>置き換え</translation>
    </message>
    <message>
        <source>faded</source>
        <translation>薄れた</translation>
    </message>
    <message>
        <source>lasting</source>
        <translation>長期記憶へ</translation>
    </message>
    <message>
        <source>merged</source>
        <translation>統合</translation>
    </message>
    <message>
        <source>reinforced</source>
        <translation>補強</translation>
    </message>
    <message>
        <source>%1 (not known %2 times)</source>
        <translation>%1（%2 回思い出せなかった）</translation>
    </message>
    <message>
        <source>%1 (never mentioned)</source>
        <translation>%1（話に出ない）</translation>
    </message>
    <message>
        <source>Did not run (nothing found, or turned off)</source>
        <translation>実行せず（見つかったものがないか、オフ）</translation>
    </message>
    <message>
        <source>Insights: %1, suspected gaps: %2 (Inbox)</source>
        <translation>気づき %1 件、ギャップの疑い %2 件（受信箱）</translation>
    </message>
    <message>
        <source>topics summed up: %1</source>
        <translation>要約した話題: %1</translation>
    </message>
    <message>
        <source>Names and topics: %1, links drawn: %2, discoveries: %3 (Inbox)</source>
        <translation>名前と話題 %1、描いたつながり %2、発見 %3（受信箱）</translation>
    </message>
    <message>
        <source>This week: %1</source>
        <translation>今週：%1</translation>
    </message>
    <message>
        <source>How recently talked about</source>
        <translation>話題にした時期</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>点検</translation>
    </message>
    <message>
        <source>often</source>
        <translation>よく話す</translation>
    </message>
    <message>
        <source>now and then</source>
        <translation>ときどき</translation>
    </message>
    <message>
        <source>not lately</source>
        <translation>最近は話さない</translation>
    </message>
    <message>
        <source>long ago</source>
        <translation>ずっと話していない</translation>
    </message>
    <message>
        <source>No change this week</source>
        <translation>今週の変化なし</translation>
    </message>
    <message>
        <source>rising: %1</source>
        <translation>上昇：%1</translation>
    </message>
    <message>
        <source>cooling: %1</source>
        <translation>下降：%1</translation>
    </message>
    <message>
        <source>Pages written: %1</source>
        <translation>書いたページ：%1</translation>
    </message>
    <message>
        <source>No page written</source>
        <translation>書いたページなし</translation>
    </message>
    <message>
        <source>new: %1</source>
        <translation>新規：%1</translation>
    </message>
    <message>
        <source>raised: %1</source>
        <translation>増加：%1</translation>
    </message>
    <message>
        <source>None new or raised</source>
        <translation>新規・増加なし</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>No change</source>
        <translation>変化なし</translation>
    </message>
    <message>
        <source>%1 new, %2 rechecked, %3 sent to review, %4 resolved</source>
        <translation>新規 %1、再点検 %2、確認へ %3、解消 %4</translation>
    </message>
    <message>
        <source>%1: L%2 → L%3</source>
        <translation>%1：L%2 → L%3</translation>
    </message>
    <message>
        <source>%1: new, L%2</source>
        <translation>%1：新規、L%2</translation>
    </message>
    <message>
        <source>No level changed</source>
        <translation>レベルの変化なし</translation>
    </message>
</context>
<context>
    <name>LinkOpener</name>
    <message>
        <source>Not opened: monchat opens only web links (http, https), not %1</source>
        <translation>開きませんでした: monchat が開くのはウェブのリンク（http, https）だけです。このリンクは開きません: %1</translation>
    </message>
    <message>
        <source>Open this link?</source>
        <translation>このリンクを開きますか？</translation>
    </message>
    <message>
        <source>This link goes to %1:

%2

Open it in your browser?</source>
        <translation>このリンクの行き先は %1 です:

%2

ブラウザーで開きますか？</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>開く</translation>
    </message>
</context>
<context>
    <name>LintTab</name>
    <message>
        <source>Check now</source>
        <translation>今すぐ点検</translation>
    </message>
    <message>
        <source>Run knowledge lint now, as each flush does (monchat lint)</source>
        <translation>整理のたびに行う知識の点検を、今すぐ行います（monchat lint）</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>見つかったこと</translation>
    </message>
    <message>
        <source>Memories</source>
        <translation>記憶</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>検査</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>点検しています…</translation>
    </message>
    <message>
        <source>Checked: %1 new, %2 rechecked, %3 queued for review, %4 resolved.</source>
        <translation>点検しました: 新規 %1、再点検 %2、確認待ちへ %3、解決 %4。</translation>
    </message>
    <message>
        <source>The model check was left out: %1 is a cloud service you have not agreed to send to yet (a chat or a flush asks).</source>
        <translation>モデルによる点検は行いませんでした: %1 は、まだ送信に同意していないクラウドサービスです（会話か整理のときに確認します）。</translation>
    </message>
    <message>
        <source>Filed under “%1”, usually filed as “%2”</source>
        <translation>「%1」に分類されていますが、ふつうは「%2」です</translation>
    </message>
    <message>
        <source>Replaced by a memory that does not exist</source>
        <translation>存在しない記憶に置き換えられています</translation>
    </message>
    <message>
        <source>Cites messages that are in no archive</source>
        <translation>保存庫にないメッセージを根拠にしています</translation>
    </message>
    <message>
        <source>A chain of replacements comes back to its start</source>
        <translation>置き換えの連なりが最初に戻っています</translation>
    </message>
    <message>
        <source>Nothing found: each flush checks your memory for broken links, values that do not fit their topic and contradictions. A fix is only ever proposed in the review queue, after a second check.</source>
        <translation>何も見つかっていません。整理のたびに、記憶の壊れたつながり、分類に合わない値、食い違いを点検します。直し方は二度目の点検のあとに、確認待ちで提案するだけです。</translation>
    </message>
    <message>
        <source>Filed as a date, but names no date</source>
        <translation>日付の分類なのに、日付が書かれていません</translation>
    </message>
    <message>
        <source>Filed as a place, but is only a date or a number</source>
        <translation>場所の分類なのに、日付か数字しか書かれていません</translation>
    </message>
    <message>
        <source>Filed as an age, but gives no one age</source>
        <translation>年齢の分類なのに、年齢がひとつに決まりません</translation>
    </message>
    <message>
        <source>Malformed: empty text, filed under no topic and detail, or a value out of range</source>
        <translation>形が崩れています: 本文が空、分類が「話題/内容」の形でない、または値が範囲外</translation>
    </message>
    <message>
        <source>These may contradict each other</source>
        <translation>互いに食い違っているかもしれません</translation>
    </message>
    <message>
        <source>marked: checked again at the next flush</source>
        <translation>印を付けました: 次の整理で再点検</translation>
    </message>
    <message>
        <source>still holds</source>
        <translation>再点検でも該当</translation>
    </message>
    <message>
        <source>waiting in the review queue</source>
        <translation>確認待ちにあります</translation>
    </message>
    <message>
        <source>resolved</source>
        <translation>解消</translation>
    </message>
    <message>
        <source>structure</source>
        <translation>構造</translation>
    </message>
    <message>
        <source>grounding</source>
        <translation>値の点検</translation>
    </message>
    <message>
        <source>model check</source>
        <translation>モデルによる点検</translation>
    </message>
</context>
<context>
    <name>LongMessageDialog</name>
    <message>
        <source>The whole message</source>
        <translation>メッセージ全文</translation>
    </message>
    <message>
        <source>Previous page</source>
        <translation>前のページ</translation>
    </message>
    <message>
        <source>Next page</source>
        <translation>次のページ</translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation>全文をコピー</translation>
    </message>
    <message>
        <source>Reading the whole message…</source>
        <translation>メッセージ全文を読み込んでいます…</translation>
    </message>
    <message>
        <source>Characters %1–%2 of %3 (page %4 of %5)</source>
        <translation>%3 文字のうち %1～%2 文字目（%5 ページ中 %4 ページ目）</translation>
    </message>
    <message>
        <source>This message is not in the history any more.</source>
        <translation>このメッセージはもう履歴にありません。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>monchat</source>
        <translation>monchat</translation>
    </message>
    <message>
        <source>Who you are talking to</source>
        <translation>話し相手</translation>
    </message>
    <message>
        <source>Regenerate reply</source>
        <translation>返事を作り直す</translation>
    </message>
    <message>
        <source>Edit last message</source>
        <translation>最後のメッセージを編集</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Flush…</source>
        <translation>整理…</translation>
    </message>
    <message>
        <source>Memory…</source>
        <translation>記憶…</translation>
    </message>
    <message>
        <source>Review queue…</source>
        <translation>確認待ち…</translation>
    </message>
    <message>
        <source>Inbox: insights, diary, interests…</source>
        <translation>受信箱：気づき・日記・関心…</translation>
    </message>
    <message>
        <source>Chat personas…</source>
        <translation>会話ペルソナ…</translation>
    </message>
    <message>
        <source>Filter personas…</source>
        <translation>フィルターペルソナ…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>設定…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>終了</translation>
    </message>
    <message>
        <source>Ctrl+Enter sends</source>
        <translation>Ctrl+Enter で送信</translation>
    </message>
    <message>
        <source>On: Enter adds a line and Ctrl+Enter sends. Off: Enter sends and Shift+Enter adds a line.</source>
        <translation>オン: Enter で改行、Ctrl+Enter で送信。オフ: Enter で送信、Shift+Enter で改行。</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>チャット(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Memory</source>
        <translation>記憶(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Personas</source>
        <translation>ペルソナ(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>設定(&amp;S)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>メイン</translation>
    </message>
    <message>
        <source>Persona:</source>
        <translation>ペルソナ:</translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation>開いています…</translation>
    </message>
    <message>
        <source>About monchat</source>
        <translation>monchat について</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>アシスタント</translation>
    </message>
    <message>
        <source>Saved. Some changes take effect the next time monchat starts.</source>
        <translation>保存しました。一部の変更は次に monchat を起動したときに反映されます。</translation>
    </message>
    <message>
        <source>A task is still running; monchat will close when it ends.</source>
        <translation>処理がまだ動いています。終わりしだい monchat を閉じます。</translation>
    </message>
</context>
<context>
    <name>McpSwitch</name>
    <message>
        <source>Let other apps (MCP) propose memories — each waits for your review</source>
        <translation>ほかのアプリ（MCP）からの記憶の提案を受け付ける（提案はすべて確認待ちに入ります）</translation>
    </message>
    <message>
        <source>Apps connected to `monchat mcp` (Claude Desktop, LM Studio…) can always read your profile and search. With this on they may also propose memories; `monchat mcp log` shows who connected.</source>
        <translation>`monchat mcp` につないだアプリ（Claude Desktop、LM Studio など）は、あなたのプロフィールを読んだり検索したりできます。これをオンにすると、記憶の提案もできるようになります。どのアプリがつないだかは `monchat mcp log` で見られます。</translation>
    </message>
    <message>
        <source>Other apps</source>
        <translation>ほかのアプリ</translation>
    </message>
    <message>
        <source>Connected lately: %1 (`monchat mcp log` lists every visit).</source>
        <translation>最近つないだアプリ：%1（すべての記録は `monchat mcp log` で見られます）。</translation>
    </message>
    <message>
        <source>No app has connected yet.</source>
        <translation>まだどのアプリもつないでいません。</translation>
    </message>
</context>
<context>
    <name>MemoryBrowser</name>
    <message>
        <source>Memory</source>
        <translation>記憶</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>話題</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>確信度</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>日数</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>ピン留め</translation>
    </message>
    <message>
        <source>Held from</source>
        <translation>いつから</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>いつまで</translation>
    </message>
    <message>
        <source>Wording</source>
        <translation>文面</translation>
    </message>
    <message>
        <source>Save wording</source>
        <translation>文面を保存</translation>
    </message>
    <message>
        <source>Your words are kept as written, as lasting memory</source>
        <translation>あなたの言葉はそのまま、長期の記憶として残ります</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>承認</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>却下</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>ピン留め</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>忘れる</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>削除…</translation>
    </message>
    <message>
        <source>Remove its words from memory for good (the messages you wrote stay)</source>
        <translation>この記憶の言葉を完全に消します（あなたが書いたメッセージは残ります）</translation>
    </message>
    <message>
        <source>History (oldest first)</source>
        <translation>履歴（古い順）</translation>
    </message>
    <message>
        <source>Evidence: what you said</source>
        <translation>根拠: あなたの発言</translation>
    </message>
    <message>
        <source>▣ Summed up: the prompt carries its topic&apos;s summary instead</source>
        <translation>▣ 要約に含まれています: プロンプトにはこの記憶の代わりに話題の要約が入ります</translation>
    </message>
    <message>
        <source>Talked about</source>
        <translation>話題にした時期</translation>
    </message>
    <message>
        <source>No memory here yet.</source>
        <translation>ここにはまだ記憶がありません。</translation>
    </message>
    <message>
        <source>Approve: %1</source>
        <translation>承認: %1</translation>
    </message>
    <message>
        <source>To decide otherwise, use the review queue.</source>
        <translation>別の判定にするには「確認待ち」から選んでください。</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>ピン留めを外す</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>元に戻す</translation>
    </message>
    <message>
        <source>Put it back where it was</source>
        <translation>元の状態に戻します</translation>
    </message>
    <message>
        <source>Take it out of the prompt (you can undo it; its history is kept)</source>
        <translation>プロンプトから外します（元に戻せます。履歴は残ります）</translation>
    </message>
    <message>
        <source>v%1 ×%2: %3</source>
        <translation>版%1 ×%2: %3</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>完了しました。</translation>
    </message>
    <message>
        <source>Forgotten. Undo puts it back.</source>
        <translation>忘れました。「元に戻す」で戻せます。</translation>
    </message>
    <message>
        <source>Forget this memory? It leaves the prompt; you can undo this, and its history is kept.</source>
        <translation>この記憶を忘れますか？ プロンプトから外れます。あとで元に戻せて、履歴も残ります。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Delete this memory and its history for good? Its words leave memory and the prompt; the messages you wrote stay in the archive. This cannot be undone.</source>
        <translation>この記憶とその履歴を完全に削除しますか？ 言葉は記憶からもプロンプトからも消えます。あなたが書いたメッセージは保管庫に残ります。元には戻せません。</translation>
    </message>
</context>
<context>
    <name>MemoryExportDialog</name>
    <message>
        <source>Export memory</source>
        <translation>記憶をエクスポート</translation>
    </message>
    <message>
        <source>Every memory with its state, its earlier versions and the messages it rests on, to keep or to bring into another monchat (File → Import memory…).</source>
        <translation>すべての記憶を、その状態・以前の版・もとになったメッセージと一緒に書き出します。手元に残したり、別の monchat に持っていったり（ファイル → 記憶をインポート…）できます。</translation>
    </message>
    <message>
        <source>For another app or monchat (JSON)</source>
        <translation>ほかのアプリや monchat 用（JSON）</translation>
    </message>
    <message>
        <source>To read (Markdown)</source>
        <translation>読む用（Markdown）</translation>
    </message>
</context>
<context>
    <name>MemoryFacts</name>
    <message>
        <source>State: %1</source>
        <translation>状態: %1</translation>
    </message>
    <message>
        <source>Kind: %1</source>
        <translation>種類: %1</translation>
    </message>
    <message>
        <source>Valid from %1</source>
        <translation>%1 から有効</translation>
    </message>
    <message>
        <source>until %1</source>
        <translation>%1 まで</translation>
    </message>
    <message>
        <source>Contradicted %1 times</source>
        <translation>矛盾 %1 回</translation>
    </message>
    <message>
        <source>Level L%1 (1 day of use)</source>
        <translation>レベル L%1（使った日 1 日）</translation>
    </message>
    <message>
        <source>Level L%1 (%2 days of use)</source>
        <translation>レベル L%1（使った日 %2 日）</translation>
    </message>
    <message>
        <source>Preference: %1, version %2 of %3, weight %4</source>
        <translation>好み: %1、版 %2/%3、重み %4</translation>
    </message>
    <message>
        <source>Talked about: %1</source>
        <translation>話題にした時期: %1</translation>
    </message>
    <message>
        <source>Summed up as “%1”, with: %2</source>
        <translation>要約「%1」に含まれています: %2</translation>
    </message>
    <message>
        <source>Waiting for your review: %1</source>
        <translation>あなたの確認待ち: %1</translation>
    </message>
    <message>
        <source>A proposed change to this memory waits for your review: %1</source>
        <translation>この記憶への変更案が確認を待っています: %1</translation>
    </message>
    <message>
        <source>From conversations with: %1</source>
        <translation>元になった会話の相手: %1</translation>
    </message>
</context>
<context>
    <name>MemoryImportDialog</name>
    <message>
        <source>Import memory</source>
        <translation>記憶をインポート</translation>
    </message>
    <message>
        <source>Paste the memories another assistant keeps about you, one per line — ChatGPT: Settings → Personalization → Manage memories; Claude: its memory export — or choose a monchat memory export. Each one waits in the review queue: nothing is remembered until you approve it. Importing the same list twice adds nothing.</source>
        <translation>ほかのアシスタントが覚えているあなたのことを、1 行に 1 つずつ貼り付けてください（ChatGPT：設定 → パーソナライズ → メモリを管理。Claude：メモリのエクスポート）。monchat で書き出した記憶のファイルも選べます。どれも確認待ちに入り、あなたが承認するまで記憶にはなりません。同じリストを 2 回読み込んでも増えません。</translation>
    </message>
    <message>
        <source>- Lives in Kanazawa
- Prefers short answers</source>
        <translation>- 金沢に住んでいる
- 短い答えが好き</translation>
    </message>
    <message>
        <source>ChatGPT</source>
        <translation>ChatGPT</translation>
    </message>
    <message>
        <source>Claude</source>
        <translation>Claude</translation>
    </message>
    <message>
        <source>Another app</source>
        <translation>ほかのアプリ</translation>
    </message>
    <message>
        <source>Import the pasted list</source>
        <translation>貼り付けたリストをインポート</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>ファイルを選ぶ…</translation>
    </message>
    <message>
        <source>From</source>
        <translation>どこから</translation>
    </message>
    <message>
        <source>Open review queue</source>
        <translation>確認待ちを開く</translation>
    </message>
    <message>
        <source>Memory (*.json *.md *.txt);;All files (*)</source>
        <translation>記憶 (*.json *.md *.txt);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>インポートしています…</translation>
    </message>
    <message>
        <source>%1 of %2 memories now wait for your review (Memory → Review queue).</source>
        <translation>%2 件のうち %1 件の記憶が確認待ちに入りました（記憶 → 確認待ち）。</translation>
    </message>
    <message>
        <source>%1 were already known.</source>
        <translation>%1 件はすでにありました。</translation>
    </message>
    <message>
        <source>%1 earlier, refused or forgotten memories were left out.</source>
        <translation>以前の版・却下した記憶・忘れた記憶の %1 件は読み込みませんでした。</translation>
    </message>
    <message numerus="yes">
        <source>Open review queue (%n)</source>
        <translation>
            <numerusform>確認待ちを開く（%n 件）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryMenu</name>
    <message numerus="yes">
        <source>Review queue (%n)…</source>
        <translation>
            <numerusform>確認待ち（%n 件）…</numerusform>
        </translation>
    </message>
    <message>
        <source>Review queue…</source>
        <translation>確認待ち…</translation>
    </message>
</context>
<context>
    <name>MemoryWords</name>
    <message>
        <source>New from the last flush</source>
        <translation>前回の整理で新しく</translation>
    </message>
    <message>
        <source>Lasting</source>
        <translation>長期</translation>
    </message>
    <message>
        <source>Recent</source>
        <translation>最近</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Dormant</source>
        <translation>休眠</translation>
    </message>
    <message>
        <source>History</source>
        <translation>履歴</translation>
    </message>
    <message>
        <source>All</source>
        <translation>すべて</translation>
    </message>
    <message>
        <source>active</source>
        <translation>有効</translation>
    </message>
    <message>
        <source>candidate</source>
        <translation>候補</translation>
    </message>
    <message>
        <source>waiting for review</source>
        <translation>確認待ち</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>dormant</source>
        <translation>休眠</translation>
    </message>
    <message>
        <source>replaced</source>
        <translation>置き換え済み</translation>
    </message>
    <message>
        <source>taken back</source>
        <translation>取り消し</translation>
    </message>
    <message>
        <source>forgotten</source>
        <translation>忘れた</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>却下</translation>
    </message>
    <message>
        <source>a taking back</source>
        <translation>取り消しの発言</translation>
    </message>
    <message>
        <source>said outright</source>
        <translation>はっきり言ったこと</translation>
    </message>
    <message>
        <source>a correction</source>
        <translation>訂正</translation>
    </message>
    <message>
        <source>a fact</source>
        <translation>事実</translation>
    </message>
    <message>
        <source>a habit</source>
        <translation>習慣</translation>
    </message>
    <message>
        <source>a skill</source>
        <translation>技能</translation>
    </message>
    <message>
        <source>a preference</source>
        <translation>好み</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>No message of yours backs it yet</source>
        <translation>まだあなたの発言による裏付けはありません</translation>
    </message>
    <message>
        <source>Evidence on 1 day</source>
        <translation>1 日分の根拠</translation>
    </message>
    <message>
        <source>Evidence on %1 days</source>
        <translation>%1 日分の根拠</translation>
    </message>
    <message>
        <source>writing style</source>
        <translation>文体</translation>
    </message>
    <message>
        <source>tech choice</source>
        <translation>技術の選択</translation>
    </message>
    <message>
        <source>design principle</source>
        <translation>設計の原則</translation>
    </message>
    <message>
        <source>pace</source>
        <translation>ペース</translation>
    </message>
    <message>
        <source>aesthetic</source>
        <translation>美的感覚</translation>
    </message>
    <message>
        <source>food and drink</source>
        <translation>食べ物と飲み物</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>コミュニケーション</translation>
    </message>
    <message>
        <source>learning</source>
        <translation>学び方</translation>
    </message>
    <message>
        <source>money</source>
        <translation>お金</translation>
    </message>
    <message>
        <source>social</source>
        <translation>人付き合い</translation>
    </message>
    <message>
        <source>home</source>
        <translation>住まい</translation>
    </message>
    <message>
        <source>drinks</source>
        <translation>飲み物</translation>
    </message>
    <message>
        <source>food</source>
        <translation>食べ物</translation>
    </message>
    <message>
        <source>hobbies</source>
        <translation>趣味</translation>
    </message>
    <message>
        <source>studies</source>
        <translation>勉強</translation>
    </message>
    <message>
        <source>skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <source>work</source>
        <translation>仕事</translation>
    </message>
    <message>
        <source>pets</source>
        <translation>ペット</translation>
    </message>
    <message>
        <source>family</source>
        <translation>家族</translation>
    </message>
    <message>
        <source>friends</source>
        <translation>友人</translation>
    </message>
    <message>
        <source>partner</source>
        <translation>パートナー</translation>
    </message>
    <message>
        <source>health</source>
        <translation>健康</translation>
    </message>
    <message>
        <source>travel</source>
        <translation>旅行</translation>
    </message>
    <message>
        <source>music</source>
        <translation>音楽</translation>
    </message>
    <message>
        <source>sport</source>
        <translation>スポーツ</translation>
    </message>
    <message>
        <source>books</source>
        <translation>本</translation>
    </message>
    <message>
        <source>games</source>
        <translation>ゲーム</translation>
    </message>
    <message>
        <source>places</source>
        <translation>場所</translation>
    </message>
    <message>
        <source>people</source>
        <translation>人</translation>
    </message>
    <message>
        <source>about you</source>
        <translation>あなた自身のこと</translation>
    </message>
    <message>
        <source>projects</source>
        <translation>プロジェクト</translation>
    </message>
    <message>
        <source>plans</source>
        <translation>予定</translation>
    </message>
    <message>
        <source>school</source>
        <translation>学校</translation>
    </message>
    <message>
        <source>languages</source>
        <translation>言語</translation>
    </message>
    <message>
        <source>sleep</source>
        <translation>睡眠</translation>
    </message>
    <message>
        <source>other</source>
        <translation>その他</translation>
    </message>
    <message>
        <source>imported from %1</source>
        <translation>%1 から取り込み</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>a list you pasted</source>
        <translation>貼り付けたリスト</translation>
    </message>
    <message>
        <source>a monchat export</source>
        <translation>monchat のエクスポート</translation>
    </message>
    <message>
        <source>Filed by the program as “%1”</source>
        <translation>プログラム内の分類名：「%1」</translation>
    </message>
    <message>
        <source>%1 (%2 more than last time)</source>
        <translation>%1件（前回より %2 件多い）</translation>
    </message>
    <message>
        <source>%1 (%2 fewer than last time)</source>
        <translation>%1件（前回より %2 件少ない）</translation>
    </message>
    <message>
        <source>%1 (as last time)</source>
        <translation>%1件（前回と同じ）</translation>
    </message>
</context>
<context>
    <name>MergeDuplicatesButton</name>
    <message>
        <source>Merge duplicates…</source>
        <translation>重複をまとめる…</translation>
    </message>
    <message>
        <source>Memories that say the same thing become one, with their evidence together</source>
        <translation>同じことを言っている記憶を、根拠ごと一つにまとめます</translation>
    </message>
    <message>
        <source>No two memories say the same thing: nothing to merge.</source>
        <translation>同じことを言っている記憶はありません。まとめるものはありません。</translation>
    </message>
    <message>
        <source>“%1” ×%2</source>
        <translation>「%1」×%2</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>ほか %n 組</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories say the same thing as another one:</source>
        <translation>
            <numerusform>%n 件の記憶が、ほかの記憶と同じことを言っています:</numerusform>
        </translation>
    </message>
    <message>
        <source>Merge each group into one memory, with all of its evidence? The others go into its history.</source>
        <translation>それぞれを根拠ごと一つの記憶にまとめますか？ ほかのものはその履歴に入ります。</translation>
    </message>
    <message>
        <source>Merge duplicates</source>
        <translation>重複をまとめる</translation>
    </message>
</context>
<context>
    <name>MessageBody</name>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>コピーしました</translation>
    </message>
    <message>
        <source>code</source>
        <translation>コード</translation>
    </message>
</context>
<context>
    <name>MessageBubble</name>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>このメッセージをコピー</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>すべて表示</translation>
    </message>
    <message>
        <source>Read the whole message, a page at a time</source>
        <translation>メッセージ全文を 1 ページずつ読みます</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Delete this message for good (you are asked first)</source>
        <translation>このメッセージを完全に削除します（先に確認します）</translation>
    </message>
    <message>
        <source>Cut off: an error ended this reply before it was complete.</source>
        <translation>途中で切れています: エラーのため、この返信は最後まで届きませんでした。</translation>
    </message>
    <message>
        <source>(cut off)</source>
        <translation>（途中で切れています）</translation>
    </message>
    <message>
        <source>(stopped)</source>
        <translation>（停止）</translation>
    </message>
    <message>
        <source>(writing…)</source>
        <translation>（入力中…）</translation>
    </message>
    <message>
        <source>%1 more characters are not shown here.</source>
        <translation>ここに表示されていない文字があと %1 文字あります。</translation>
    </message>
</context>
<context>
    <name>MessageDeletions</name>
    <message>
        <source>A reply is being written: wait for it or stop it first.</source>
        <translation>返信を書いている途中です。終わるのを待つか、止めてからにしてください。</translation>
    </message>
    <message>
        <source>Delete this reply for good? It leaves the logs and the archive, with its rating. Memory is never built on replies, so no memory changes.</source>
        <translation>この返信を完全に削除しますか？ ログとアーカイブから消え、評価も一緒に消えます。記憶は返信からは作られないので、記憶は変わりません。</translation>
    </message>
    <message>
        <source>Delete this message for good? It leaves the logs and the archive, and no flush will read it.</source>
        <translation>このメッセージを完全に削除しますか？ ログとアーカイブから消え、整理で読まれることもありません。</translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies) that rest only on it will be taken back.</source>
        <translation>
            <numerusform>このメッセージだけを根拠にしている記憶 %n 件は取り消されます。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies) that rest on other messages too will lose it as evidence.</source>
        <translation>
            <numerusform>ほかのメッセージも根拠にしている記憶 %n 件は、このメッセージを根拠から外します。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The %n earlier version(s) it replaced go too.</source>
        <translation>
            <numerusform>このメッセージで置き換えた前の版 %n 件も一緒に削除されます。</numerusform>
        </translation>
    </message>
    <message>
        <source>This cannot be undone.</source>
        <translation>元には戻せません。</translation>
    </message>
    <message>
        <source>Backups you made before now still hold these words.</source>
        <translation>これまでに作成したバックアップには、この言葉がまだ残っています。</translation>
    </message>
    <message>
        <source>Delete message</source>
        <translation>メッセージを削除</translation>
    </message>
    <message>
        <source>Deleted. Memories taken back: %1; memories that lost it as evidence: %2.</source>
        <translation>削除しました。取り消した記憶: %1 件、根拠が減った記憶: %2 件。</translation>
    </message>
</context>
<context>
    <name>ModelHelp</name>
    <message>
        <source>A model for this computer…</source>
        <translation>このコンピューターに合うモデル…</translation>
    </message>
</context>
<context>
    <name>ModelOffer</name>
    <message>
        <source>A better model for this computer</source>
        <translation>このコンピューターに合うもっと良いモデル</translation>
    </message>
    <message>
        <source>This computer has %1 GB of memory and %2 cores: it runs &lt;b&gt;%3&lt;/b&gt; comfortably. It is a %4 download, kept on this computer; replies and memory (Flush) then come from it instead of the tiny built-in model.&lt;br&gt;%5&lt;br&gt;Languages: %6. Licence: %7.</source>
        <translation>このコンピューターはメモリ %1 GB、%2 コアなので、&lt;b&gt;%3&lt;/b&gt; を無理なく動かせます。ダウンロードは %4 で、このコンピューターの中に保存されます。以後の返事と記憶の整理は、小さな内蔵モデルではなくこのモデルが行います。&lt;br&gt;%5&lt;br&gt;言語: %6。ライセンス: %7。</translation>
    </message>
    <message>
        <source>How fast it will be: measuring this computer (a few seconds)…</source>
        <translation>速さを見積もるため、このコンピューターを測っています（数秒）…</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>今はしない</translation>
    </message>
    <message>
        <source>How fast it will be here is not measured yet.</source>
        <translation>このコンピューターでの速さはまだ測っていません。</translation>
    </message>
    <message>
        <source>Measure (a few seconds)</source>
        <translation>測る（数秒）</translation>
    </message>
    <message>
        <source>How fast it will be could not be measured here.</source>
        <translation>このコンピューターでは速さを測れませんでした。</translation>
    </message>
    <message>
        <source>Estimate from a short test on this computer: about %1 s for a reply, about %2 min for a Flush of 35 messages.</source>
        <translation>このコンピューターでの短いテストからの見積もり: 返事 1 回に約 %1 秒、35 件のメッセージの整理に約 %2 分。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
</context>
<context>
    <name>ModelPage</name>
    <message>
        <source>Automatic (the first local one that works; never a cloud)</source>
        <translation>自動（使える手元のものから。クラウドは選びません）</translation>
    </message>
    <message>
        <source>Ollama</source>
        <translation>Ollama</translation>
    </message>
    <message>
        <source>OpenAI-compatible server (LM Studio, llama-server, vLLM, …)</source>
        <translation>OpenAI 互換サーバー（LM Studio、llama-server、vLLM など）</translation>
    </message>
    <message>
        <source>Gemini (Google, a cloud service)</source>
        <translation>Gemini（Google のクラウドサービス）</translation>
    </message>
    <message>
        <source>Embedded (small model on this computer)</source>
        <translation>内蔵（このコンピューター上の小さなモデル）</translation>
    </message>
    <message>
        <source>Empty: the address in OLLAMA_HOST (%1)</source>
        <translation>空欄: OLLAMA_HOST のアドレス（%1）</translation>
    </message>
    <message>
        <source>Empty: Ollama on this computer</source>
        <translation>空欄: このコンピューターの Ollama</translation>
    </message>
    <message>
        <source>List installed</source>
        <translation>インストール済みを表示</translation>
    </message>
    <message>
        <source>How long Ollama keeps the model loaded, e.g. 30m or 24h</source>
        <translation>Ollama がモデルを読み込んだままにしておく時間（例: 30m、24h）</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>ホスト</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Context length (tokens)</source>
        <translation>コンテキスト長（トークン）</translation>
    </message>
    <message>
        <source>Keep loaded for</source>
        <translation>読み込んだままにする時間</translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation>同時に受ける依頼の数</translation>
    </message>
    <message>
        <source>OpenAI-compatible server</source>
        <translation>OpenAI 互換サーバー</translation>
    </message>
    <message>
        <source>(OPENAI_BASE_URL, else LM Studio at http://127.0.0.1:1234/v1)</source>
        <translation>（OPENAI_BASE_URL、なければ LM Studio の http://127.0.0.1:1234/v1）</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>モデル一覧</translation>
    </message>
    <message>
        <source>(the server&apos;s first model)</source>
        <translation>（サーバーの最初のモデル）</translation>
    </message>
    <message>
        <source>(a local server needs none)</source>
        <translation>（手元のサーバーなら不要）</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>ベース URL</translation>
    </message>
    <message>
        <source>Answer format</source>
        <translation>答えの形式</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <source>Gemini</source>
        <translation>Gemini</translation>
    </message>
    <message>
        <source>Remove stored key</source>
        <translation>保存したキーを削除</translation>
    </message>
    <message>
        <source>Embedded</source>
        <translation>内蔵</translation>
    </message>
    <message>
        <source>(the bundled SmolLM2-135M-Instruct)</source>
        <translation>（同梱の SmolLM2-135M-Instruct）</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>automatic (%1, the physical cores)</source>
        <translation>自動（%1、物理コア数）</translation>
    </message>
    <message>
        <source>Catalog model</source>
        <translation>カタログのモデル</translation>
    </message>
    <message>
        <source>Model (catalog name or GGUF file)</source>
        <translation>モデル（カタログ名または GGUF ファイル）</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>スレッド数</translation>
    </message>
    <message>
        <source>Longest reply (tokens)</source>
        <translation>返事の最大長（トークン）</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>接続テスト</translation>
    </message>
    <message>
        <source>Checks the chosen backend with the values above.</source>
        <translation>上の値で、選んだバックエンドを確認します。</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>バックエンド</translation>
    </message>
    <message>
        <source>This computer has no OS keyring, so monchat cannot store a key (it never writes keys to its files). Set the environment variable GEMINI_API_KEY to your key where monchat starts (for example a line `export GEMINI_API_KEY=…` in ~/.profile), then start monchat again.</source>
        <translation>このコンピューターには OS のキーリングがないため、monchat はキーを保存できません（キーを自分のファイルに書くことはありません）。monchat を起動する環境で環境変数 GEMINI_API_KEY にキーを設定し（たとえば ~/.profile に「export GEMINI_API_KEY=…」の行を書く）、monchat を起動し直してください。</translation>
    </message>
    <message>
        <source>A key is stored in the OS keyring. Type a new one to replace it.</source>
        <translation>キーは OS のキーリングに保存されています。置き換えるには新しいキーを入力してください。</translation>
    </message>
    <message>
        <source>The key comes from the environment variable %1.</source>
        <translation>キーは環境変数 %1 から読み込まれています。</translation>
    </message>
    <message>
        <source>No key yet. It will be stored in the OS keyring, never in a file.</source>
        <translation>キーはまだありません。キーは OS のキーリングに保存され、ファイルには書かれません。</translation>
    </message>
    <message>
        <source>Choose a GGUF model file</source>
        <translation>GGUF モデルファイルを選ぶ</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF モデル (*.gguf)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
    <message>
        <source>The Ollama model name is empty.</source>
        <translation>Ollama のモデル名が空です。</translation>
    </message>
    <message>
        <source>The Gemini model name is empty.</source>
        <translation>Gemini のモデル名が空です。</translation>
    </message>
    <message>
        <source>Gemini needs an API key: type one above, or set GEMINI_API_KEY where monchat starts. Gemini is not saved as the backend without one.</source>
        <translation>Gemini には API キーが必要です。上に入力するか、monchat を起動する環境で GEMINI_API_KEY を設定してください。キーがないまま Gemini をバックエンドとして保存することはしません。</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>テスト中…</translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) found.</source>
        <translation>
            <numerusform>%n 個のモデルが見つかりました。</numerusform>
        </translation>
    </message>
    <message>
        <source>The server lists no models.</source>
        <translation>サーバーにモデルがありません。</translation>
    </message>
    <message>
        <source>Works.</source>
        <translation>使えます。</translation>
    </message>
    <message>
        <source>Something needs fixing:</source>
        <translation>直す必要があります:</translation>
    </message>
</context>
<context>
    <name>NeverRulesDialog</name>
    <message>
        <source>Never remember</source>
        <translation>記憶しないこと</translation>
    </message>
    <message>
        <source>Topics, words or kinds of memory that monchat never remembers, whatever a model proposes: at every flush a proposal that matches is dropped and listed. Examples: health, my ex, password, food/ (every memory under “food/”).</source>
        <translation>monchat が決して記憶しない話題・言葉・記憶の種類です。モデルが何を提案しても、整理のたびに当てはまる提案は除外され、一覧に表示されます。例：健康、元カレ、パスワード、food/（「food/」で始まる種類の記憶すべて）。</translation>
    </message>
    <message>
        <source>A topic, a word or a kind of memory</source>
        <translation>話題、言葉、または記憶の種類</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Forget these memories…</source>
        <translation>これらの記憶を忘れる…</translation>
    </message>
    <message>
        <source>%1  (rule: %2)</source>
        <translation>%1  （ルール：%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies) you already have match a rule:</source>
        <translation>
            <numerusform>今ある記憶のうち%n件がルールに当てはまります：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Forget the %n memory(ies) a never-remember rule covers? They leave the prompt for good (Memory… can restore one).</source>
        <translation>
            <numerusform>「記憶しないこと」のルールに当てはまる%n件の記憶を忘れますか？もうプロンプトには入りません（「記憶…」から元に戻せます）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies) forgotten.</source>
        <translation>
            <numerusform>%n件の記憶を忘れました。</numerusform>
        </translation>
    </message>
    <message>
        <source>No memory you have matches a rule.</source>
        <translation>ルールに当てはまる記憶はありません。</translation>
    </message>
    <message>
        <source>Added: %1. Every flush drops a proposal that matches it.</source>
        <translation>追加しました：%1。整理のたびに、これに当てはまる提案は除外されます。</translation>
    </message>
    <message>
        <source>Choose a rule to remove.</source>
        <translation>削除するルールを選んでください。</translation>
    </message>
    <message>
        <source>Removed: %1.</source>
        <translation>削除しました：%1。</translation>
    </message>
    <message>
        <source>Forget memories</source>
        <translation>記憶を忘れる</translation>
    </message>
</context>
<context>
    <name>OffRecordBanner</name>
    <message>
        <source>Clear now</source>
        <translation>今すぐ消す</translation>
    </message>
    <message>
        <source>&lt;b&gt;Off the record.&lt;/b&gt; Nothing you say here is remembered: no flush reads it, and it is removed %1 hours after it is said. Your memory is still used for the replies.</source>
        <translation>&lt;b&gt;オフレコです。&lt;/b&gt;ここで話したことは記憶されません。整理では読まれず、話してから%1時間で消えます。返事にはこれまでの記憶を使います。</translation>
    </message>
</context>
<context>
    <name>PersonaEditor</name>
    <message>
        <source>New</source>
        <translation>新規</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>削除…</translation>
    </message>
    <message>
        <source>Made from the name when the persona is new; it names the persona&apos;s file and never changes.</source>
        <translation>新しいペルソナの名前から作られます。ペルソナのファイル名になり、あとから変わることはありません。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Save persona</source>
        <translation>ペルソナを保存</translation>
    </message>
    <message>
        <source>Saved as: %1</source>
        <translation>保存名: %1</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>保存しました。</translation>
    </message>
</context>
<context>
    <name>PersonaWords</name>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Instructions (system prompt)</source>
        <translation>指示（システムプロンプト）</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>テンプレート</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>Greeting</source>
        <translation>あいさつ</translation>
    </message>
    <message>
        <source>Talent</source>
        <translation>得意分野</translation>
    </message>
    <message>
        <source>Picks up</source>
        <translation>拾うもの</translation>
    </message>
    <message>
        <source>Ignores</source>
        <translation>無視するもの</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>At most (items per flush)</source>
        <translation>最大件数（1 回の整理あたり）</translation>
    </message>
    <message>
        <source>Style</source>
        <translation>スタイル</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>バックエンド</translation>
    </message>
    <message>
        <source>Translations</source>
        <translation>翻訳</translation>
    </message>
    <message>
        <source>%1 is required.</source>
        <translation>%1 を入力してください。</translation>
    </message>
    <message>
        <source>%1 must be text.</source>
        <translation>%1 は文字で書いてください。</translation>
    </message>
    <message>
        <source>%1 must be a list of non-empty lines.</source>
        <translation>%1 は空でない行を 1 行ずつ書いてください。</translation>
    </message>
    <message>
        <source>%1 must be on or off.</source>
        <translation>%1 はオンかオフにしてください。</translation>
    </message>
    <message>
        <source>%1 may hold only lowercase letters a-z, digits, - and _ (up to 40).</source>
        <translation>%1 に使えるのは半角の英小文字、数字、- と _ だけです（40 文字まで）。</translation>
    </message>
    <message>
        <source>The temperature must be a number from 0 to 2.</source>
        <translation>温度は 0 から 2 までの数にしてください。</translation>
    </message>
    <message>
        <source>At most 0 to 3 items per flush.</source>
        <translation>1 回の整理あたりの件数は 0 から 3 までです。</translation>
    </message>
    <message>
        <source>Choose one of the styles.</source>
        <translation>スタイルを選んでください。</translation>
    </message>
    <message>
        <source>Write the instructions (the system prompt): who the persona is and how it speaks.</source>
        <translation>指示（システムプロンプト）を書いてください。ペルソナが誰で、どう話すかを書きます。</translation>
    </message>
    <message>
        <source>Choose one of the backends.</source>
        <translation>バックエンドを選んでください。</translation>
    </message>
    <message>
        <source>The template is not one of monchat&apos;s prompt files.</source>
        <translation>テンプレートが monchat のプロンプトファイルにありません。</translation>
    </message>
    <message>
        <source>The card&apos;s extensions cannot be read.</source>
        <translation>カードの拡張データを読めません。</translation>
    </message>
    <message>
        <source>The translations cannot be read.</source>
        <translation>翻訳を読めません。</translation>
    </message>
    <message>
        <source>The persona is larger than 1 MB; shorten its text.</source>
        <translation>ペルソナが 1 MB を超えています。文章を短くしてください。</translation>
    </message>
    <message>
        <source>Base is locked; copy its ideas into a new persona to change them.</source>
        <translation>ベースペルソナはロックされています。変えたいときは、その考え方を新しいペルソナに写してください。</translation>
    </message>
    <message>
        <source>A field is not valid.</source>
        <translation>正しくない項目があります。</translation>
    </message>
    <message>
        <source>The persona cannot be saved:</source>
        <translation>ペルソナを保存できません:</translation>
    </message>
</context>
<context>
    <name>PullControl</name>
    <message>
        <source>Pull this model</source>
        <translation>このモデルを取得</translation>
    </message>
    <message>
        <source>Pulling %1…</source>
        <translation>%1 を取得中…</translation>
    </message>
    <message>
        <source>Preparing the download…</source>
        <translation>ダウンロードの準備中…</translation>
    </message>
    <message>
        <source>Downloading: %1%</source>
        <translation>ダウンロード中: %1%</translation>
    </message>
    <message>
        <source>%1 is installed.</source>
        <translation>%1 をインストールしました。</translation>
    </message>
    <message>
        <source>The download of %1 was cancelled.</source>
        <translation>%1 のダウンロードを中止しました。</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>アドレス(&amp;L):</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>ファイルの種類(&amp;T):</translation>
    </message>
</context>
<context>
    <name>RatingButtons</name>
    <message>
        <source>Good: what it relied on lasts longer (click again to clear)</source>
        <translation>よかった：頼りにした記憶が長く残ります（もう一度押すと取り消し）</translation>
    </message>
    <message>
        <source>Not right: lowers the confidence of what it relied on (click again to clear)</source>
        <translation>違う：頼りにした記憶の確信度を下げます（もう一度押すと取り消し）</translation>
    </message>
</context>
<context>
    <name>ReplyRatings</name>
    <message>
        <source>Rated. Memories the reply relied on that changed: %1</source>
        <translation>評価しました。返信が頼りにした記憶のうち変わったもの：%1 件</translation>
    </message>
</context>
<context>
    <name>ReplyWait</name>
    <message>
        <source>Answering after the flush&apos;s current step (the model does one thing at a time).</source>
        <translation>整理の今の手順が終わったら答えます（モデルは一度に一つのことしかできません）。</translation>
    </message>
    <message>
        <source>Answering after the flush&apos;s current step, about %1 s.</source>
        <translation>整理の今の手順が終わったら答えます。あと約 %1 秒。</translation>
    </message>
    <message>
        <source>Answering after the flush&apos;s current step, about %1 min.</source>
        <translation>整理の今の手順が終わったら答えます。あと約 %1 分。</translation>
    </message>
</context>
<context>
    <name>ReviewLearningView</name>
    <message>
        <source>Reset what reviews taught</source>
        <translation>確認から学んだことをリセット</translation>
    </message>
    <message>
        <source>Forget your approve/reject decisions so far: the approval threshold alone decides again (at once)</source>
        <translation>これまでの承認・却下の判断を忘れ、承認のしきい値だけで決めるようにします（すぐに反映）</translation>
    </message>
    <message>
        <source>Nothing learned yet: every topic is approved by itself at confidence %1 or more.</source>
        <translation>まだ何も学んでいません：どの話題も確信度 %1 以上で自動的に承認されます。</translation>
    </message>
    <message>
        <source>%1: lasting memory approved by itself from confidence %2 — %3 approved, %4 rejected</source>
        <translation>%1：確信度 %2 以上で長期記憶に自動承認 — 承認 %3 件、却下 %4 件</translation>
    </message>
</context>
<context>
    <name>ReviewQueueDialog</name>
    <message>
        <source>Review queue</source>
        <translation>確認待ちの変更</translation>
    </message>
    <message>
        <source>These changes to your lasting memory wait for your decision. Nothing here is used until you approve it.</source>
        <translation>長期の記憶へのこれらの変更は、あなたの判断を待っています。承認するまでどれも使われません。</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>提案</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Current memory</source>
        <translation>今ある記憶</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>確信度</translation>
    </message>
    <message>
        <source>Decide by</source>
        <translation>期限</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>承認</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Approve as…</source>
        <translation>別の判定で承認…</translation>
    </message>
    <message>
        <source>Decide yourself how the two relate</source>
        <translation>二つの関係をあなたが決めます</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>却下</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>すべて選ぶ</translation>
    </message>
    <message>
        <source>Select every item, then approve or reject them all at once</source>
        <translation>すべての項目を選び、まとめて承認または却下します</translation>
    </message>
    <message>
        <source>Evidence: what you said</source>
        <translation>根拠: あなたの発言</translation>
    </message>
    <message>
        <source>Decide (leaning: %1)</source>
        <translation>判断（傾き: %1）</translation>
    </message>
    <message>
        <source>Choose a device&apos;s version</source>
        <translation>どちらの版を残すか選ぶ</translation>
    </message>
    <message>
        <source>%1  ×%2</source>
        <translation>%1  ×%2</translation>
    </message>
    <message numerus="yes">
        <source>%n alike proposals of the same change: approving or rejecting this row decides all of them</source>
        <translation>
            <numerusform>同じ変更の似た提案が %n 件あります。この行を承認または却下すると、すべてに適用されます</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Approve all %n</source>
        <translation>
            <numerusform>%n 件すべて承認</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reject all %n</source>
        <translation>
            <numerusform>%n 件すべて却下</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Approve %n selected</source>
        <translation>
            <numerusform>選んだ %n 件を承認</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reject %n selected</source>
        <translation>
            <numerusform>選んだ %n 件を却下</numerusform>
        </translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>理由: %1</translation>
    </message>
    <message>
        <source>Approve: %1</source>
        <translation>承認: %1</translation>
    </message>
    <message>
        <source>Nothing is waiting for review.</source>
        <translation>確認待ちのものはありません。</translation>
    </message>
    <message>
        <source>Evidence for the proposal “%1”</source>
        <translation>提案「%1」の根拠</translation>
    </message>
    <message>
        <source>Evidence for the current memory “%1”</source>
        <translation>今ある記憶「%1」の根拠</translation>
    </message>
    <message>
        <source>Evidence: nothing you said here</source>
        <translation>根拠: ここであなたが話したことはありません</translation>
    </message>
    <message numerus="yes">
        <source>%n of these ask how two memories relate; Approve applies the model&apos;s leaning to each (approve one alone to decide otherwise):</source>
        <translation>
            <numerusform>このうち %n 件は 2 つの記憶の関係を問うものです。承認すると、それぞれモデルの見立てどおりに反映します（別の判断にするには 1 件ずつ承認してください）:</numerusform>
        </translation>
    </message>
    <message>
        <source>“%1”: %2</source>
        <translation>「%1」: %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Your decision teaches the auto-approve rule for %1: approving lowers the confidence from which such memories are kept without asking, rejecting raises it (Settings → Memory).</source>
        <translation>この判断は「%1」の自動承認の基準に反映されます。承認すると、こうした記憶を確認なしで残す信頼度が下がり、却下すると上がります（設定 → 記憶）。</translation>
    </message>
    <message>
        <source>Imported items and other apps&apos; proposals teach the auto-approve rule nothing.</source>
        <translation>取り込んだ項目やほかのアプリの提案は、自動承認の基準を変えません。</translation>
    </message>
    <message numerus="yes">
        <source>This row stands for %n alike proposals; Approve and Reject decide all of them:</source>
        <translation>
            <numerusform>この行は似た提案 %n 件をまとめたものです。承認・却下はすべてに適用されます：</numerusform>
        </translation>
    </message>
    <message>
        <source>#%1 (%2): “%3”</source>
        <translation>#%1（%2）：「%3」</translation>
    </message>
</context>
<context>
    <name>ReviewWords</name>
    <message>
        <source>Add to lasting memory</source>
        <translation>長期の記憶に加える</translation>
    </message>
    <message>
        <source>Check the wording</source>
        <translation>言葉づかいを確認</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>置き換え</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>まとめる</translation>
    </message>
    <message>
        <source>Take back</source>
        <translation>取り消す</translation>
    </message>
    <message>
        <source>Decide: same thing or not?</source>
        <translation>判断: 同じことかどうか</translation>
    </message>
    <message>
        <source>You rated it down</source>
        <translation>あなたが低評価にした</translation>
    </message>
    <message>
        <source>The same thing</source>
        <translation>同じこと</translation>
    </message>
    <message>
        <source>Merge them</source>
        <translation>まとめる</translation>
    </message>
    <message>
        <source>Contradicts</source>
        <translation>食い違い</translation>
    </message>
    <message>
        <source>Something else</source>
        <translation>別のこと</translation>
    </message>
    <message>
        <source>The new statement becomes more evidence for the kept memory.</source>
        <translation>新しい発言を、今ある記憶の根拠として加えます。</translation>
    </message>
    <message>
        <source>One memory in the merged wording replaces the kept memory, with the evidence of both; the kept one goes into its history.</source>
        <translation>まとめた言い回しの記憶が、両方の根拠を引き継いで今ある記憶に置き換わります。元の記憶は履歴に残ります。</translation>
    </message>
    <message>
        <source>The new statement replaces the kept memory, which goes into its history.</source>
        <translation>新しい発言で今ある記憶を置き換えます。古いほうは履歴に残ります。</translation>
    </message>
    <message>
        <source>The new statement is counted against the kept memory.</source>
        <translation>新しい発言を、今ある記憶と食い違う根拠として数えます。</translation>
    </message>
    <message>
        <source>Both are kept, as two separate memories.</source>
        <translation>両方を別々の記憶として残します。</translation>
    </message>
    <message>
        <source>Imported from another assistant&apos;s memory or a monchat export.</source>
        <translation>ほかのアシスタントの記憶、または monchat で書き出した記憶から読み込んだものです。</translation>
    </message>
    <message>
        <source>Proposed by another app through monchat&apos;s MCP server.</source>
        <translation>ほかのアプリが monchat の MCP サーバーを通して提案したものです。</translation>
    </message>
    <message>
        <source>Two of your devices did different things with “%1” while they were apart. Approve takes what the other device did; reject keeps what this one did.</source>
        <translation>離れていたあいだに、2 台のコンピューターが「%1」に別々のことをしました。承認するともう一方のコンピューターでの変更を取り入れ、却下するとこのコンピューターでの変更を残します。</translation>
    </message>
    <message>
        <source>Changed on two of your devices while they were apart. Approve takes the other device&apos;s “%1”; reject keeps this one&apos;s “%2”.</source>
        <translation>離れていたあいだに 2 台のコンピューターで変更されました。承認するともう一方のコンピューターの「%1」を取り入れ、却下するとこのコンピューターの「%2」を残します。</translation>
    </message>
    <message>
        <source>monchat is not sure these are your words: compare them with what you said.</source>
        <translation>monchat には、これがあなたの言葉なのか確かではありません。あなたが話したことと見比べてください。</translation>
    </message>
    <message>
        <source>The flush left this out (over its persona&apos;s limit) and you sent it here. Approve keeps it as lasting memory (confidence %1).</source>
        <translation>フラッシュでペルソナの上限を超えて外れ、あなたがここへ送りました。承認すると長期の記憶になります（確信度 %1）</translation>
    </message>
    <message>
        <source>Enough evidence has come together, so this becomes lasting memory (confidence %1).</source>
        <translation>根拠が十分にそろったので長期の記憶にします（確信度 %1）</translation>
    </message>
    <message>
        <source>You rated this down. Approve keeps it as lasting memory (at its lowered confidence); reject drops it.</source>
        <translation>あなたはこれを低評価にしました。承認すると（下がった確信度のまま）長期記憶に残し、却下すると取り除きます。</translation>
    </message>
    <message>
        <source>Not found in your words: the text shares almost nothing with the messages it cites. Approve it only if it is true of you.</source>
        <translation>あなたの言葉に見当たりません。根拠として挙げた発言とほとんど重なりません。あなたに当てはまる場合だけ承認してください。</translation>
    </message>
    <message>
        <source>Replaces the lasting memory “%1” with “%2”.</source>
        <translation>長期の記憶「%1」を「%2」に置き換えます</translation>
    </message>
    <message>
        <source>Merges the lasting memory “%1” into the new wording “%2”.</source>
        <translation>長期の記憶「%1」を新しい言い方「%2」にまとめます</translation>
    </message>
    <message>
        <source>You may have taken back “%1”, but it is not certain (confidence %2). Approve to take it back.</source>
        <translation>「%1」を取り消したのかもしれませんが、はっきりしません（確信度 %2）。承認すると取り消します</translation>
    </message>
    <message>
        <source>Takes back “%1”.</source>
        <translation>「%1」を取り消します</translation>
    </message>
    <message>
        <source>The model gave no usable answer on how this relates to “%1”. Decide yourself.</source>
        <translation>「%1」との関係について、モデルから使える答えがありませんでした。あなたが決めてください</translation>
    </message>
    <message>
        <source>Could not decide how this relates to “%1”. The model leans to: %2 (confidence %3).</source>
        <translation>「%1」との関係を判断できませんでした。判定の傾き: %2（確信度 %3）</translation>
    </message>
    <message>
        <source>Imported from %1.</source>
        <translation>%1 から取り込みました。</translation>
    </message>
    <message>
        <source>Proposed by %1.</source>
        <translation>提案したペルソナ: %1。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Quoted in the file you imported, not said here</source>
        <translation>取り込んだファイルに引用されていた言葉です（ここで話したことではありません）</translation>
    </message>
    <message>
        <source>From your ChatGPT memory</source>
        <translation>ChatGPT のメモリから</translation>
    </message>
    <message>
        <source>From your Claude memory</source>
        <translation>Claude のメモリから</translation>
    </message>
    <message>
        <source>From a monchat export you imported</source>
        <translation>取り込んだ monchat のエクスポートから</translation>
    </message>
    <message>
        <source>From a list you pasted</source>
        <translation>貼り付けたリストから</translation>
    </message>
    <message>
        <source>From another app (through monchat&apos;s MCP server)</source>
        <translation>別のアプリから（monchat の MCP サーバー経由）</translation>
    </message>
    <message>
        <source>%1: messages of yours that back it</source>
        <translation>%1：裏づけるあなたの発言</translation>
    </message>
    <message>
        <source>%1: no message of yours backs it yet</source>
        <translation>%1：裏づけるあなたの発言はまだありません</translation>
    </message>
    <message>
        <source>Said again on %1: “%2”</source>
        <translation>%1 にもう一度話しました：「%2」</translation>
    </message>
    <message>
        <source>Its words are that app&apos;s, not said here. It becomes memory only if you approve it.</source>
        <translation>この言葉はそのアプリのもので、ここであなたが話したことではありません。あなたが承認したときだけ記憶になります。</translation>
    </message>
    <message>
        <source>It becomes memory only if you approve it.</source>
        <translation>あなたが承認したときだけ記憶になります。</translation>
    </message>
    <message>
        <source>It was made with a small model, whose memories are often wrong, so nothing from it goes into lasting memory without your yes.</source>
        <translation>小さなモデルで作られました。小さなモデルの記憶はよく間違うので、あなたが承認するまで長期の記憶には入りません。</translation>
    </message>
</context>
<context>
    <name>ScoreRow</name>
    <message>
        <source>Measure on this computer</source>
        <translation>このコンピューターで測る</translation>
    </message>
    <message>
        <source>Runs a week of made-up conversations through the saved model in a scratch folder (your memory is not touched) and scores what it kept. A small model takes many minutes.</source>
        <translation>作りものの一週間分の会話を、保存したモデルで作業用フォルダーに通し、何を覚えたかを採点します（あなたの記憶には触れません）。小さなモデルでは何分もかかります。</translation>
    </message>
    <message>
        <source>Memory score: not measured on this computer yet.</source>
        <translation>記憶スコア：このコンピューターではまだ測っていません。</translation>
    </message>
    <message>
        <source>Memory score of %1 (%2): %3 of %4 kept, %5 of %6 retired, %7 invented</source>
        <translation>%1 の記憶スコア（%2）：%4 件中 %3 件を保持、%6 件中 %5 件を更新済み、作り話 %7 件</translation>
    </message>
    <message>
        <source>Measuring… (the first step is the slowest)</source>
        <translation>測定中…（最初の段階がいちばん時間がかかります）</translation>
    </message>
    <message>
        <source>Measuring: step %1 of %2</source>
        <translation>測定中：%2 段階中 %1 段階目</translation>
    </message>
    <message>
        <source>Measured.</source>
        <translation>測りました。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>取り消しました。</translation>
    </message>
</context>
<context>
    <name>SearchDialog</name>
    <message>
        <source>Search the conversation</source>
        <translation>会話を検索</translation>
    </message>
    <message>
        <source>Words to find (every one must occur)</source>
        <translation>探す言葉（すべてを含むメッセージ）</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>検索</translation>
    </message>
    <message>
        <source>Every day with messages: choose one to read that day</source>
        <translation>メッセージのある日：選ぶとその日の会話を表示します</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日時</translation>
    </message>
    <message>
        <source>Persona</source>
        <translation>ペルソナ</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>話し手</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>Choose a message to read the conversation around it.</source>
        <translation>メッセージを選ぶと、その前後の会話を表示します。</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>日付</translation>
    </message>
    <message>
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>アシスタント</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Talked about: %1</source>
        <translation>話題にした時期: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n message(s)</source>
        <translation>
            <numerusform>%1: %n 件のメッセージ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) found, newest first.</source>
        <translation>
            <numerusform>%n 件のメッセージが見つかりました（新しい順）。</numerusform>
        </translation>
    </message>
    <message>
        <source>[stopped]</source>
        <translation>［止めた返信］</translation>
    </message>
    <message>
        <source>[cut off]</source>
        <translation>［途中で切れた返信］</translation>
    </message>
    <message>
        <source>Type a word or part of a sentence to look for.</source>
        <translation>探す言葉か文の一部を入力してください。</translation>
    </message>
    <message>
        <source>This SQLite has no full-text index for Japanese (FTS5 trigram); the archive was scanned instead.</source>
        <translation>この SQLite には日本語の全文索引（FTS5 trigram）がないため、アーカイブを順に調べました。</translation>
    </message>
    <message>
        <source>[replaced]</source>
        <translation>［置き換え済み］</translation>
    </message>
</context>
<context>
    <name>SendCutButton</name>
    <message>
        <source>The persona&apos;s limit left these proposals out of this flush. In the review queue you decide each; nothing becomes memory unless you approve it.</source>
        <translation>ペルソナの上限のため、今回の整理から外れた提案です。確認待ちでひとつずつ決められます。承認しない限り記憶にはなりません。</translation>
    </message>
    <message>
        <source>Send what was cut to review (%1)</source>
        <translation>上限で外れた提案を確認待ちに送る（%1）</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>送っています…</translation>
    </message>
    <message numerus="yes">
        <source>Sent to review (%n)</source>
        <translation>
            <numerusform>確認待ちに送りました（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing new to send</source>
        <translation>新しく送るものはありません</translation>
    </message>
    <message numerus="yes">
        <source>%n proposal(s) the limit cut now wait for your review.</source>
        <translation>
            <numerusform>上限で外れた提案 %n 件があなたの確認を待っています。</numerusform>
        </translation>
    </message>
    <message>
        <source>What the limit cut waits for review already, or the lines it rests on were deleted.</source>
        <translation>上限で外れた提案はすでに確認待ちにあるか、根拠の発言が削除されています。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>チャット</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>記憶</translation>
    </message>
    <message>
        <source>Growing memory</source>
        <translation>育つ記憶</translation>
    </message>
    <message>
        <source>Recommend a flush at (log files)</source>
        <translation>整理をおすすめするログファイル数</translation>
    </message>
    <message>
        <source>Pause chat at (log files)</source>
        <translation>チャットを止めるログファイル数</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>承認</translation>
    </message>
    <message>
        <source>Ask me before any change to lasting memory</source>
        <translation>長期の記憶を変える前に必ず確認する</translation>
    </message>
    <message>
        <source>Filter personas you chose</source>
        <translation>あなたが選んだフィルターペルソナ</translation>
    </message>
    <message>
        <source>They read at every flush, besides Base, which always reads, and one more picked each time (the “fixed” personas: flush.fixed_personas).</source>
        <translation>毎回の整理で、必ず読むベースペルソナと、そのつど選ばれる 1 人に加えて読みます（プログラム上の呼び名は「固定」ペルソナ。設定の flush.fixed_personas）。</translation>
    </message>
    <message>
        <source>Learned from your reviews</source>
        <translation>確認から学んだこと</translation>
    </message>
    <message>
        <source>The flush recommendation must come before chat pauses (warn at most at the pause count).</source>
        <translation>整理のおすすめは、チャットが止まる数以下にしてください。</translation>
    </message>
    <message>
        <source>Not saved:</source>
        <translation>保存していません:</translation>
    </message>
    <message>
        <source>The settings were saved, but the key was not:</source>
        <translation>設定は保存しましたが、キーは保存できませんでした:</translation>
    </message>
    <message>
        <source>as the server says (else 4096)</source>
        <translation>サーバーの値（なければ 4096）</translation>
    </message>
    <message>
        <source>1 on this computer or network, 4 elsewhere</source>
        <translation>このパソコンや同じネットワーク内なら 1、それ以外は 4</translation>
    </message>
    <message>
        <source>How many requests the server answers at the same time (Ollama: OLLAMA_NUM_PARALLEL, 1 unless you set it; llama-server: --parallel). monchat sends no more, so your chat is answered next during a flush; a higher number than the server&apos;s makes chat wait behind the flush.</source>
        <translation>サーバーが同時に答えられる依頼の数です（Ollama は OLLAMA_NUM_PARALLEL で、設定しなければ 1。llama-server は --parallel）。monchat はこれより多くは送らないので、整理の最中でもチャットが次に答えられます。サーバーの実際の数より大きくすると、チャットが整理の後ろで待たされます。</translation>
    </message>
</context>
<context>
    <name>SmallModel</name>
    <message>
        <source>This is a small model (%1 parameters): memory built with it will be unreliable. It often takes its own instructions for what you said, so a flush with it puts nothing into lasting memory without your approval. For memory you can rely on, use a larger model: through Ollama (for example: ollama pull gemma3:4b), LM Studio, or Gemini; choose it in Settings.</source>
        <translation>これは小さなモデル（パラメーター %1）です。これで作る記憶は当てになりません。自分への指示を、あなたが言ったことと取り違えることがよくあるため、このモデルでの整理では、あなたの承認なしに長期の記憶に入るものはありません。頼れる記憶のためには、もっと大きなモデルを使ってください。Ollama（例: ollama pull gemma3:4b）、LM Studio、Gemini などから、設定で選べます。</translation>
    </message>
    <message>
        <source>The model is small (%1 parameters): nothing from this flush went into lasting memory without your approval; it waits in the review queue.</source>
        <translation>モデルが小さい（パラメーター %1）ため、この整理から、あなたの承認なしに長期の記憶に入ったものはありません。確認待ちの変更に並んでいます。</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>settings.toml has settings monchat could not use (defaults are used); `monchat doctor` says which.</source>
        <translation>settings.toml に monchat が使えない設定があります（既定値を使っています）。どれかは `monchat doctor` でわかります。</translation>
    </message>
</context>
<context>
    <name>SurfacePersonaDialog</name>
    <message>
        <source>Import card…</source>
        <translation>カードを読み込む…</translation>
    </message>
    <message>
        <source>A SillyTavern character card (V2/V3) as JSON or PNG</source>
        <translation>SillyTavern のキャラクターカード（V2/V3）、JSON または PNG</translation>
    </message>
    <message>
        <source>Who the persona is and how it talks</source>
        <translation>どんな人物で、どう話すか</translation>
    </message>
    <message>
        <source>Read its conversations at a flush (off for role-play: nothing said here becomes a memory)</source>
        <translation>整理（フラッシュ）でこの会話を読む（ロールプレイなら切る: ここでの発言は記憶になりません）</translation>
    </message>
    <message>
        <source>Send it your memory (what monchat remembers about you)</source>
        <translation>あなたの記憶（monchat が覚えているあなたのこと）をこのペルソナに送る</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>System text</source>
        <translation>システムテキスト</translation>
    </message>
    <message>
        <source>Greeting</source>
        <translation>あいさつ</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>記憶</translation>
    </message>
    <message>
        <source>Creator&apos;s notes</source>
        <translation>作者のメモ</translation>
    </message>
    <message>
        <source>This persona&apos;s text comes from the template %1; text written here replaces it.</source>
        <translation>このペルソナの文章はテンプレート %1 から作られます。ここに書くとそれに置き換わります。</translation>
    </message>
    <message>
        <source>Delete this persona (its conversations stay)</source>
        <translation>このペルソナを削除します（会話は残ります）</translation>
    </message>
    <message>
        <source>Only personas you made or imported can be deleted.</source>
        <translation>削除できるのは、自分で作ったか読み込んだペルソナだけです。</translation>
    </message>
    <message>
        <source>Imported %1 from %2.</source>
        <translation>%2 から %1 を読み込みました。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Delete the persona %1? What you said to it stays in the logs and in memory.</source>
        <translation>ペルソナ %1 を削除しますか？ 話した内容はログと記憶に残ります。</translation>
    </message>
    <message>
        <source>Deleted %1.</source>
        <translation>%1 を削除しました。</translation>
    </message>
    <message>
        <source>There is already a persona with the id %1.</source>
        <translation>ID が %1 のペルソナはすでにあります。</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（なし）</translation>
    </message>
    <message>
        <source>Chat personas</source>
        <translation>会話ペルソナ</translation>
    </message>
    <message>
        <source>Import a character card</source>
        <translation>キャラクターカードを読み込む</translation>
    </message>
    <message>
        <source>Character cards (*.png *.json)</source>
        <translation>キャラクターカード (*.png *.json)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
</context>
<context>
    <name>SyncPage</name>
    <message>
        <source>Use your history on another computer through a folder a sync tool keeps in step (Syncthing, Dropbox, a USB stick). Only your messages, their deletions and what was decided about your memory go there; settings, keys and the database never do. Each computer picks the same folder and its own name.</source>
        <translation>同期ツールがそろえているフォルダー（Syncthing、Dropbox、USB メモリーなど）を通して、ほかのコンピューターでも履歴を使えます。そこに置かれるのはメッセージとその削除、記憶について決めたことだけで、設定・キー・データベースは置かれません。どのコンピューターでも同じフォルダーを選び、それぞれに名前を付けてください。</translation>
    </message>
    <message>
        <source>A folder your sync tool shares</source>
        <translation>同期ツールが共有しているフォルダー</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>e.g. laptop</source>
        <translation>例：ノートPC</translation>
    </message>
    <message>
        <source>Optional: encrypts everything written to the folder</source>
        <translation>任意: フォルダーに書くものをすべて暗号化します</translation>
    </message>
    <message>
        <source>The same passphrase again</source>
        <translation>同じパスフレーズをもう一度</translation>
    </message>
    <message>
        <source>Sync through this folder</source>
        <translation>このフォルダーで同期する</translation>
    </message>
    <message>
        <source>Sync now</source>
        <translation>今すぐ同期</translation>
    </message>
    <message>
        <source>Sync folder</source>
        <translation>同期フォルダー</translation>
    </message>
    <message>
        <source>This device&apos;s name</source>
        <translation>このコンピューターの名前</translation>
    </message>
    <message>
        <source>Passphrase</source>
        <translation>パスフレーズ</translation>
    </message>
    <message>
        <source>Passphrase again</source>
        <translation>パスフレーズ(確認)</translation>
    </message>
    <message>
        <source>Sync</source>
        <translation>同期</translation>
    </message>
    <message>
        <source>Choose the sync folder</source>
        <translation>同期フォルダーを選択</translation>
    </message>
    <message>
        <source>The sync folder is encrypted, and this computer does not hold its passphrase (the OS keyring lacks it). Type it in Passphrase, twice, and press “Sync through this folder”; until then nothing is synced.</source>
        <translation>同期フォルダーは暗号化されていますが、このコンピューターはそのパスフレーズを持っていません(OS のキーリングにありません)。「パスフレーズ」に 2 回入力して「このフォルダーで同期する」を押してください。それまでは何も同期されません。</translation>
    </message>
    <message>
        <source>Choose a folder first.</source>
        <translation>先にフォルダーを選んでください。</translation>
    </message>
    <message>
        <source>The two passphrases differ: type the same one twice.</source>
        <translation>2 つのパスフレーズが違います。同じものを 2 回入力してください。</translation>
    </message>
    <message>
        <source>Setting up…</source>
        <translation>設定中…</translation>
    </message>
    <message>
        <source>This computer syncs as “%1” through %2.</source>
        <translation>このコンピューターは「%1」として %2 で同期します。</translation>
    </message>
    <message>
        <source>Everything it writes there is encrypted with the passphrase. Keep the passphrase somewhere safe: without it no computer can read the folder.</source>
        <translation>そこに書くものはすべてパスフレーズで暗号化されます。パスフレーズは安全な場所に控えてください。なくすと、どのコンピューターもフォルダーを読めません。</translation>
    </message>
    <message>
        <source>The passphrase is kept in the OS keyring.</source>
        <translation>パスフレーズは OS のキーリングに保管されています。</translation>
    </message>
    <message>
        <source>This computer&apos;s keyring cannot keep the passphrase: this window remembers it until it closes. Set MONCHAT_SYNC_PASSPHRASE before starting monchat, or type it here again.</source>
        <translation>このコンピューターのキーリングはパスフレーズを保管できません。このウィンドウが閉じるまではウィンドウが覚えています。monchat を起動する前に MONCHAT_SYNC_PASSPHRASE を設定するか、ここでもう一度入力してください。</translation>
    </message>
    <message>
        <source>Not set up:</source>
        <translation>設定できませんでした：</translation>
    </message>
    <message>
        <source>The last sync did not run:</source>
        <translation>前回の同期は行われませんでした：</translation>
    </message>
    <message>
        <source>This computer does not sync yet.</source>
        <translation>このコンピューターはまだ同期していません。</translation>
    </message>
    <message>
        <source>The sync folder cannot be read now:</source>
        <translation>同期フォルダーを今は読めません：</translation>
    </message>
    <message>
        <source>This device: %1 (id %2)</source>
        <translation>このコンピューター：%1（ID %2）</translation>
    </message>
    <message>
        <source>Folder: %1 (%2 KB)</source>
        <translation>フォルダー：%1（%2 KB）</translation>
    </message>
    <message>
        <source>No other device has written to the folder yet.</source>
        <translation>ほかのコンピューターはまだこのフォルダーに書き込んでいません。</translation>
    </message>
    <message>
        <source>never</source>
        <translation>まだなし</translation>
    </message>
    <message>
        <source>Other device: %1, last wrote %2</source>
        <translation>ほかのコンピューター：%1（最後の書き込み：%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n deletions wait for a device that has not synced since.</source>
        <translation>
            <numerusform>%n 件の削除が、まだ同期していないコンピューターを待っています。</numerusform>
        </translation>
    </message>
    <message>
        <source>No deletion is waiting.</source>
        <translation>待っている削除はありません。</translation>
    </message>
    <message numerus="yes">
        <source>%n conflict copies found. A sync tool made them when two computers changed one file; monchat never reads them. You may delete them:</source>
        <translation>
            <numerusform>競合コピーが %n 件あります。2 台のコンピューターが同じファイルを変えたときに同期ツールが作ったもので、monchat は読みません。削除してかまいません：</numerusform>
        </translation>
    </message>
    <message>
        <source>No conflict copies.</source>
        <translation>競合コピーはありません。</translation>
    </message>
    <message numerus="yes">
        <source>%n memories were changed on two devices while they were apart: choose in the review queue which version to keep.</source>
        <translation>
            <numerusform>%n 件の記憶が、離れていたあいだに 2 台のコンピューターで変更されました。どちらを残すか、レビュー待ちで選んでください。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n decisions about memory wait for the messages they rest on to arrive.</source>
        <translation>
            <numerusform>記憶についての %n 件の決定が、もとになるメッセージの到着を待っています。</numerusform>
        </translation>
    </message>
    <message>
        <source>The folder is encrypted: it holds no readable words.</source>
        <translation>フォルダーは暗号化されています。読める言葉は入っていません。</translation>
    </message>
</context>
<context>
    <name>TierWords</name>
    <message>
        <source>often</source>
        <translation>よく話す</translation>
    </message>
    <message>
        <source>now and then</source>
        <translation>ときどき</translation>
    </message>
    <message>
        <source>not lately</source>
        <translation>最近は話さない</translation>
    </message>
    <message>
        <source>long ago</source>
        <translation>ずっと話していない</translation>
    </message>
</context>
<context>
    <name>UserGuide</name>
    <message>
        <source>monchat Help…</source>
        <translation>monchat の使い方…</translation>
    </message>
</context>
<context>
    <name>UserGuideWindow</name>
    <message>
        <source>monchat Help</source>
        <translation>monchat の使い方</translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <source>&lt;b&gt;Welcome to monchat.&lt;/b&gt; You talk with a &lt;b&gt;persona&lt;/b&gt; (choose one above; make your own under Personas). Everything you say is kept in &lt;b&gt;log files&lt;/b&gt; on this computer.</source>
        <translation>&lt;b&gt;monchat へようこそ。&lt;/b&gt;あなたは&lt;b&gt;ペルソナ&lt;/b&gt;と話します（上で選べます。自分のペルソナは「ペルソナ」メニューで作れます）。話したことはすべて、このコンピューターの&lt;b&gt;ログファイル&lt;/b&gt;に残ります。</translation>
    </message>
    <message>
        <source>A &lt;b&gt;Flush&lt;/b&gt; (Memory → Flush) lets filter personas read those logs and keep what matters about you as &lt;b&gt;memory&lt;/b&gt;, which the persona then knows; you can read and change every memory under Memory.</source>
        <translation>&lt;b&gt;整理（フラッシュ）&lt;/b&gt;（記憶 → 整理）をすると、フィルターペルソナがログを読み、あなたについて大事なことを&lt;b&gt;記憶&lt;/b&gt;として残します。ペルソナはそれを知ったうえで話します。記憶はすべて「記憶」で読んだり直したりできます。</translation>
    </message>
    <message>
        <source>Replies now come from &lt;b&gt;%1&lt;/b&gt;.</source>
        <translation>いまの返事は &lt;b&gt;%1&lt;/b&gt; から来ます。</translation>
    </message>
    <message>
        <source>That is the small model built into monchat: enough to try the window, weak at conversation. For better replies install Ollama (ollama.com) and a model such as gemma3:4b, or choose another backend in Settings.</source>
        <translation>これは monchat に組み込まれた小さなモデルです。画面を試すには十分ですが、会話は得意ではありません。もっと良い返事がほしいときは Ollama（ollama.com）と gemma3:4b などのモデルを入れるか、設定で別のバックエンドを選んでください。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Its Japanese replies will be nonsense&lt;/b&gt;, and its English ones often are: a model this small cannot hold a conversation in Japanese. For Japanese, use a model of 4B parameters or more (for example gemma3:4b).</source>
        <translation>&lt;b&gt;このモデルの日本語の返事は意味をなしません&lt;/b&gt;（英語でもよく崩れます）。この大きさのモデルでは日本語の会話ができません。日本語で話すなら、40 億パラメーター（4B）以上のモデル（たとえば gemma3:4b）を使ってください。</translation>
    </message>
</context>
<context>
    <name>YourControls</name>
    <message>
        <source>Off the record</source>
        <translation>オフレコ</translation>
    </message>
    <message>
        <source>Nothing said off the record is remembered: no flush reads it, and it is removed after a set number of hours.</source>
        <translation>オフレコで話したことは記憶されません。整理では読まれず、決めた時間がたつと消えます。</translation>
    </message>
    <message>
        <source>Clear off-the-record messages…</source>
        <translation>オフレコのメッセージを消す…</translation>
    </message>
    <message>
        <source>Pause memory</source>
        <translation>記憶を一時停止</translation>
    </message>
    <message>
        <source>While memory is paused, a flush keeps your messages and remembers nothing new from them.</source>
        <translation>一時停止中は、整理してもメッセージは保存されるだけで、新しいことは何も記憶しません。</translation>
    </message>
    <message>
        <source>Never remember…</source>
        <translation>記憶しないこと…</translation>
    </message>
    <message>
        <source>%1 — off the record</source>
        <translation>%1 — オフレコ</translation>
    </message>
    <message>
        <source>Memory paused</source>
        <translation>記憶を一時停止中</translation>
    </message>
    <message>
        <source>A flush keeps your messages and remembers nothing new from them. Memory → Pause memory turns it back on.</source>
        <translation>整理してもメッセージは保存されるだけで、新しいことは記憶しません。「記憶」→「記憶を一時停止」で元に戻せます。</translation>
    </message>
    <message>
        <source>Clear off-the-record messages</source>
        <translation>オフレコのメッセージを消す</translation>
    </message>
    <message>
        <source>Remove every message said off the record now? They cannot be brought back.</source>
        <translation>オフレコで話したメッセージを今すべて消しますか？元には戻せません。</translation>
    </message>
    <message numerus="yes">
        <source>%n off-the-record message(s) removed.</source>
        <translation>
            <numerusform>オフレコのメッセージを%n件消しました。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>YourControlsBox</name>
    <message>
        <source>Your controls</source>
        <translation>あなたが決めること</translation>
    </message>
    <message>
        <source> hours</source>
        <translation> 時間</translation>
    </message>
    <message>
        <source>Messages said off the record are removed this long after they are said.</source>
        <translation>オフレコで話したメッセージは、話してからこの時間がたつと消えます。</translation>
    </message>
    <message>
        <source>Chats with a checked persona start off the record (Chat → Off the record turns it on or off for a conversation).</source>
        <translation>チェックしたペルソナとの会話は、オフレコで始まります（会話ごとに「チャット」→「オフレコ」で切り替えられます）。</translation>
    </message>
    <message>
        <source>Never remember…</source>
        <translation>記憶しないこと…</translation>
    </message>
    <message>
        <source>Topics, words or kinds of memory that are never remembered.</source>
        <translation>決して記憶しない話題・言葉・記憶の種類です。</translation>
    </message>
    <message>
        <source>Remove off-the-record messages after</source>
        <translation>オフレコのメッセージを消すまで</translation>
    </message>
    <message>
        <source>Start off the record with</source>
        <translation>オフレコで始めるペルソナ</translation>
    </message>
    <message>
        <source>Never remember</source>
        <translation>記憶しないこと</translation>
    </message>
</context>
<context>
    <name>_SaveAsDialog</name>
    <message>
        <source>Save as…</source>
        <translation>名前を付けて保存…</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>%1 に保存しました。</translation>
    </message>
</context>
</TS>
