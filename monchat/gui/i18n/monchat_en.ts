<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>About</name>
    <message>
        <source>About monchat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>monchat %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A local-first chat that remembers.

Data folder: %1
Settings folder: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ActionReasons</name>
    <message>
        <source>A reply is being written: wait for it or stop it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat is paused until you flush the waiting log files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no reply to regenerate yet: send a message first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no message of yours to edit yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A reply is being written: wait for it or stop it, then flush.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A flush is running now (here, in another monchat window or in a terminal): wait for it to finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to flush yet: chat first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask for the last reply again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change your last message and get a new reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn the waiting log files into memory</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AnswerFormatBox</name>
    <message>
        <source>Automatic (a JSON schema, else JSON object)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON schema only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON object with its JSON schema (llama_cpp.server)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How a flush asks the server for structured answers. Servers that refuse a JSON schema are found and remembered automatically.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BackgroundSync</name>
    <message>
        <source>Syncing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync: folder not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync: folder cannot be written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync stopped (Settings → Sync)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Synced just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Synced %n min ago</source>
        <translation>
            <numerusform>Synced %n min ago</numerusform>
            <numerusform>Synced %n min ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n conflict copies</source>
        <translation>
            <numerusform>%n conflict copy</numerusform>
            <numerusform>%n conflict copies</numerusform>
        </translation>
    </message>
    <message>
        <source>Conflict copies are files a sync tool made; monchat never reads them. Settings → Sync lists them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BackupDialog</name>
    <message>
        <source>Back up and restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One file with everything in %1: messages, memory, settings, personas and log files. Safe while you chat.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back up to a file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A backup is restored into an empty folder; then start monchat with MONCHAT_HOME set to that folder. To replace this data folder instead, quit monchat and run: monchat restore FILE --force</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore a backup into a folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>monchat backup (*.zip)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1: %2, %3, %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n archived message(s)</source>
        <translation>
            <numerusform>%n archived message</numerusform>
            <numerusform>%n archived messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies)</source>
        <translation>
            <numerusform>%n memory</numerusform>
            <numerusform>%n memories</numerusform>
        </translation>
    </message>
    <message>
        <source>Restored %1 and %2 into %3. Start monchat with MONCHAT_HOME=%3 to use them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An empty folder to restore into</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CatalogPicker</name>
    <message>
        <source>Use this model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (downloaded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2, needs %3 GB memory%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>good</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>limited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>poor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Languages: %1 (Japanese: %2). Context: %3 tokens. Licence: %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not downloaded yet (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloaded and verified.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built in: nothing to download.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory score here (%1): %2 of %3 kept, %4 of %5 retired, %6 invented</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatPage</name>
    <message>
        <source>Follow the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What characters from imported cards call you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Enter sends (Enter adds a line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A language change applies the next time monchat starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your name</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatTurns</name>
    <message>
        <source>This message is too long to edit here; it stays as it is, whole. Send a new message instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped before the reply began.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Show older messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No older messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— now talking with %1 —</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CloudQuestion</name>
    <message>
        <source>Send to a cloud service?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (model %2) at %3 is not on this computer or your network.

Each message sends it: this persona&apos;s text, your memory (what monchat remembers about you), and the conversation of the last %4 hours. A flush sends it the unflushed logs.

Send to it? monchat asks only once for this address.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Editing your last message — sending replaces it and its reply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the reply (what was written so far is kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat is paused until you flush: use the Flush button in the banner above. What you type here is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message — Ctrl+Enter sends, Enter adds a line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message — Enter sends, Shift+Enter adds a line</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContextMeterWidget</name>
    <message>
        <source>Context: counting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context: %1 / %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt %1 tokens + recent messages %2 tokens, of a context of %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— %1 older messages not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 older messages of the recent window are not sent, so the reply has room. They stay in the log and reach memory at the next flush.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context: unknown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CopyButton</name>
    <message>
        <source>Copied</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DecisionLine</name>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the last decision back as it was</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n approved</source>
        <translation type="unfinished">
            <numerusform>%n approved</numerusform>
            <numerusform>%n approved</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rejected</source>
        <translation type="unfinished">
            <numerusform>%n rejected</numerusform>
            <numerusform>%n rejected</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories merged into the one that says the same; their evidence is together now.</source>
        <translation type="unfinished">
            <numerusform>%n memory merged into the one that says the same; their evidence is together now.</numerusform>
            <numerusform>%n memories merged into the one that says the same; their evidence is together now.</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Undone: %n items wait for review again.</source>
        <translation type="unfinished">
            <numerusform>Undone: %n item waits for review again.</numerusform>
            <numerusform>Undone: %n items wait for review again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Undone: %n merged memories are back as they were.</source>
        <translation type="unfinished">
            <numerusform>Undone: %n merged memory is back as it was.</numerusform>
            <numerusform>Undone: %n merged memories are back as they were.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DoctorWords</name>
    <message>
        <source>server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model loads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>how long the model stays loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No API key is set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server lists no chat model: load one in the server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something answered at this address, but it is not Ollama.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The context is set larger than the model was trained for; answers degrade.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keep-alive time is not a duration Ollama understands (30m, 2h or -1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A small model: memory built with it will be unreliable. For memory you can rely on, use a larger model through Ollama (e.g. gemma3:4b), LM Studio, or Gemini.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found here, so not used: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Works: Automatic uses %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Download</name>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the file (SHA-256)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, about %1 s left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2, %3/s%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The download of %1 was cancelled; nothing was installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is downloaded and verified.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DownloadRow</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DroppedWords</name>
    <message>
        <source>Dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Says nothing: only a number, a list marker, punctuation or one repeated syllable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model gave it no real topic, only a placeholder or a word copied from its instructions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant&apos;s words, not yours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeats the filter&apos;s own instructions, not your words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Says one sentence over and over: the model was stuck in a loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shares nothing with your messages it cites</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Says something your messages it cites do not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matches one of your “never remember” rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not backed by your own messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not in your words (the assistant&apos;s, or none of the line it cites)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a well-formed proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over the persona&apos;s limit of proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing kept to take back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already known: it repeats a memory you have</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every message, archived or not (JSONL)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The readable memory (Markdown)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Failures</name>
    <message>
        <source>Chat is paused until you flush the waiting log files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model server could not be reached.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model is not installed on the server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API key was refused or is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service says too many requests were made; wait a little.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This backend cannot be used on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model answered in a shape monchat cannot use.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The filter&apos;s instructions alone do not fit the model&apos;s context.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model server ended the reply before it finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A filter could not read some messages, so nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pinned memories would fill the whole memory budget of the prompt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model call failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That cannot be used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That cannot be found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The persona could not be used or saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A setting is not valid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The flush was cancelled; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A flush is already running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sync is already running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer&apos;s keyring cannot store the key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was sent: this service is a cloud you have not agreed to send to here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>monchat could not read or write its data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk is full: your message was not saved and not sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model could not be downloaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The download was cancelled; nothing was installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is not enough free disk space for this model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database file is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is in use by another program.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>monchat may not write to its data folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data was last used by a newer monchat; this one will not change it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That could not be done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>monchat hit an internal error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush the waiting log files (Memory → Flush); chat reopens afterwards.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the model server is running (or that you are online) and that its address in Settings is right, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the model on the server (for Ollama: ollama pull and the model name) or choose another model in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter a valid Gemini API key in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait a minute, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another backend in Settings; &quot;Test connection&quot; there shows what is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try again; a larger model follows the format more reliably.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raise the model&apos;s context in Settings, or shorten the filter persona&apos;s text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press Retry. If the reply is empty every time, the server&apos;s context may be smaller than the one set in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpin a memory you need less, or raise the budget: monchat settings set flush.memory_token_budget N.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush again (a busy model often answers the next time), choose a larger model, or flush without the unread messages.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run it again when you are ready; the logs are still there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait for it to finish; its summary shows what changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait a moment; the window syncs again by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free some disk space, then send again; your text is still in the box.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the internet connection and download again; a file that fails its check is never used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download it again when you want it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free some disk space, or choose a smaller model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run `monchat doctor` in a terminal: it says how to recover the file. Your unflushed log files are safe.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close other monchat windows or programs using monchat.db, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the data folder writable by you, then start monchat again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update monchat to the newest version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the GEMINI_API_KEY environment variable before starting monchat instead; monchat never writes the key to its own files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A crash report was saved to %1. Please attach it to a bug report.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The details are in monchat.log in the data folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service blocked this message and did not answer it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service ended the reply early; it may be cut off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server cut the reply at its length limit; ask it to go on, or raise the limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model backend added a note to this reply (see monchat.log).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note from the model backend: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>monchat</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FileMenu</name>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import memory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export memory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back up and restore…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FilterPersonaDialog</name>
    <message>
        <source>Filter personas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One per line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timeline (fades with time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reinforced (strengthens with repetition)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Talent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Picks up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ignores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most (items per flush)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Style</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extra instructions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At each flush: Base always reads, the two you choose here read, and one more is picked for that flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your two personas are saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Picked at the last flush: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use these two</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(locked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is already a filter persona with the id %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this filter persona (what it found stays in memory)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base is locked: it reads at every flush and picks only the skeleton of the day. Copy its ideas into a new persona to change them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The two you choose are the “fixed” personas (flush.fixed_personas); the one picked each time is the “random” one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base is locked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only filter personas you made or changed can be deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the filter persona %1? What it found stays in memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No flush has run yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking up the last flush…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FixedPersonaPicker</name>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose two different personas.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FlushDialog</name>
    <message>
        <source>Flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the plan…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter personas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory / evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush without the unread messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The filters that could not read some messages skip them; the run records which.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There are no log files to flush.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 log files with %2 messages will be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to flush yet: chat first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>part %1/%2 · %3 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is reading part %2 of %3 · %4 tokens written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing new resembles what is remembered; no comparisons needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing %1 pairs, each a new item and a remembered one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compared %1 pairs with what is remembered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking back over what this flush found…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the diary: %1 of %2 days.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weighing the evidence for %1 items.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open review queue (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview only (show the changes, write nothing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The filter personas are reading the logs (%1 of %2 parts read).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview finished: nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There was nothing new to flush.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lasting memory: +%1   Recent memory: +%2   Replaced: %3   Sent to review: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model calls: %1   Tokens: %2   Time: %3 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No changes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FlushNotes</name>
    <message numerus="yes">
        <source>Looking back: %n finding(s) left out: not in the expected form, or about a topic it was not shown.</source>
        <translation>
            <numerusform>Looking back: %n finding left out: not in the expected form, or about a topic it was not shown.</numerusform>
            <numerusform>Looking back: %n findings left out: not in the expected form, or about a topic it was not shown.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Looking back: %n finding(s) left out: they say nothing (only a number, a list marker, punctuation or one repeated syllable).</source>
        <translation>
            <numerusform>Looking back: %n finding left out: it says nothing (only a number, a list marker, punctuation or one repeated syllable).</numerusform>
            <numerusform>Looking back: %n findings left out: they say nothing (only a number, a list marker, punctuation or one repeated syllable).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Looking back: %n finding(s) left out: they repeat the request&apos;s instructions, not what your conversations show.</source>
        <translation>
            <numerusform>Looking back: %n finding left out: it repeats the request&apos;s instructions, not what your conversations show.</numerusform>
            <numerusform>Looking back: %n findings left out: they repeat the request&apos;s instructions, not what your conversations show.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FlushTiming</name>
    <message>
        <source>Elapsed: %1 · no estimate yet (no flush or chat reply here to go by)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elapsed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elapsed: %1 · roughly %2 left (from how long your chat replies took)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elapsed: %1 · about %2 left (at the pace of the last flush)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elapsed: %1 · about %2 left (from %3 of %4 parts read)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FlushWords</name>
    <message>
        <source>Reading the logs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter personas pick what matters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing with what is remembered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking back: insights and the diary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weighing the evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tidying up (expiry, fading, the cap)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuilding the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>always reads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you chose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>picked this time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reads at every flush and cannot be changed (the program calls it the “base” persona).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One of the two you chose under Personas → Filter personas (a “fixed” persona: flush.fixed_personas).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Picked at random from the others for this flush only (the “random” persona; the flush&apos;s seed decides which).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reinforced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Taken back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for your review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into lasting memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into recent memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set aside (contradicted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dormant (over the cap)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired from recent memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contradicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not read part %2 of the log at once; it read it again in two halves.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not read part %2 of the log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some comparisons with what is remembered came back unreadable and were skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 proposed the same change; it is one item: “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 proposed the same change %2 times; it is one item: “%3”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (said by the program in English)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n unreadable log line(s) were set aside in %1.</source>
        <translation>
            <numerusform>%n unreadable log line was set aside in %1.</numerusform>
            <numerusform>%n unreadable log lines were set aside in %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) with %1 were archived unread (that persona&apos;s conversations are not read at a flush).</source>
        <translation>
            <numerusform>%n message with %1 was archived unread (that persona&apos;s conversations are not read at a flush).</numerusform>
            <numerusform>%n messages with %1 were archived unread (that persona&apos;s conversations are not read at a flush).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Memory is paused: %n message(s) were kept and nothing new was remembered.</source>
        <translation>
            <numerusform>Memory is paused: %n message was kept and nothing new was remembered.</numerusform>
            <numerusform>Memory is paused: %n messages were kept and nothing new was remembered.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) you edited away (or replies asked for again) were archived unread.</source>
        <translation>
            <numerusform>%n message you edited away (or replies asked for again) was archived unread.</numerusform>
            <numerusform>%n messages you edited away (or replies asked for again) were archived unread.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>A partial flush was accepted: %n message(s) were archived without being read by every filter.</source>
        <translation>
            <numerusform>A partial flush was accepted: %n message was archived without being read by every filter.</numerusform>
            <numerusform>A partial flush was accepted: %n messages were archived without being read by every filter.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n kept</source>
        <translation>
            <numerusform>%n kept</numerusform>
            <numerusform>%n kept</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n waiting for you (not sure they are your words)</source>
        <translation>
            <numerusform>%n waiting for you (not sure it is your words)</numerusform>
            <numerusform>%n waiting for you (not sure they are your words)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n the same as another persona&apos;s</source>
        <translation>
            <numerusform>%n the same as another persona&apos;s</numerusform>
            <numerusform>%n the same as another persona&apos;s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) memory could not answer (never memories)</source>
        <translation>
            <numerusform>%n question memory could not answer (never a memory)</numerusform>
            <numerusform>%n questions memory could not answer (never memories)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n proposal(s): %1</source>
        <translation>
            <numerusform>%n proposal: %1</numerusform>
            <numerusform>%n proposals: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n over the persona&apos;s limit</source>
        <translation>
            <numerusform>%n over the persona&apos;s limit</numerusform>
            <numerusform>%n over the persona&apos;s limit</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n with no evidence in your messages</source>
        <translation>
            <numerusform>%n with no evidence in your messages</numerusform>
            <numerusform>%n with no evidence in your messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n already known</source>
        <translation>
            <numerusform>%n already known</numerusform>
            <numerusform>%n already known</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n not in your words (the guard)</source>
        <translation>
            <numerusform>%n not in your words (the guard)</numerusform>
            <numerusform>%n not in your words (the guard)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n not a well-formed proposal (the guard)</source>
        <translation>
            <numerusform>%n not a well-formed proposal (the guard)</numerusform>
            <numerusform>%n not well-formed proposals (the guard)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n matching a “never remember” rule</source>
        <translation>
            <numerusform>%n matching a “never remember” rule</numerusform>
            <numerusform>%n matching a “never remember” rule</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n taking back nothing that was kept</source>
        <translation>
            <numerusform>%n taking back nothing that was kept</numerusform>
            <numerusform>%n taking back nothing that was kept</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2 from the cache)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GateBar</name>
    <message>
        <source>Flush…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush now…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A flush is recommended at %1 files; chat pauses at %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unflushed log files: %1 (flush recommended at %2, chat pauses at %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unflushed log files: 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 log files are waiting. A flush now turns them into memory; at %2 files chat pauses until you flush.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A flush is running. You can keep chatting: what you send now is kept for the next flush.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off the record you can go on chatting: nothing said off the record waits for a flush.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn the waiting log files into memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat is paused: %1 log files are waiting for a flush (the limit is %2). Your messages are safe on disk. Flush to turn them into memory, and chat reopens.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GrowingMemoryPage</name>
    <message>
        <source>Weight: said in one message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight: in the same sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight: shared neighbours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight: kinds that go together</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight: similar words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After each flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look back over the flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One call finds insights and suspected gaps for the inbox.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the diary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One call per day with new messages writes that day&apos;s page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules check your memory for broken links and values that do not fit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One more call: which memories of one kind contradict each other.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warm up the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the backend the new system prompt at once, so the next reply starts sooner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gaps and skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat may ask about a gap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chat prompt may carry one &quot;ask about this if it comes up&quot; line.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggest a related topic not yet talked about after (messages)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skill practice fades to half in (days)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A preference fades to half in (days)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How recently talked about</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“Often” for (days unused)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“Now and then” for (days unused)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Then “now and then”: in full, after the “often” ones when space is short.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“Not lately” for (days unused)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Then “not lately” (a topic&apos;s such memories become one summary); older ones are left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each further day a memory was said on lengthens these limits by this share.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sum up topics not talked about lately</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The flush asks for a short summary of a topic&apos;s memories not talked about lately (one call a topic).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memories a topic needs to be summed up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A topic is summed up only with at least this many such memories.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topics summed up per flush at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summaries one flush asks the model for at most (0: none).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The days must grow: “often” at most “now and then”, “now and then” at most “not lately”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A topic with this many messages in 30 days suggests the ones next to it (0: off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check memory for mistakes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The check asks the model about contradictions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A day of using a skill counts half as much after this many days.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply a changed preference without asking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the flush is sure, a new version of a preference needs no review.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A preference&apos;s confidence halves after this many days without new evidence.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memories touched this recently come first, in full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stretch per day of evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longest stretch (times)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence lengthens the limits at most this many times.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Build the graph of what you talk about</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuilt at each flush; the inbox draws it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw a link from (weight)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A weaker link is kept but not drawn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much this signal adds to a link&apos;s weight.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Import history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring your conversations from another assistant: a ChatGPT or Claude export (conversations.json), a SillyTavern chat (.jsonl) or monchat&apos;s own JSONL. Importing the same file twice adds nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat history (*.json *.jsonl);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Imported %1 of %n message(s).</source>
        <translation>
            <numerusform>Imported %1 of %n message.</numerusform>
            <numerusform>Imported %1 of %n messages.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of them were already here.</source>
        <translation>
            <numerusform>%n of them was already here.</numerusform>
            <numerusform>%n of them were already here.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Skipped %n system, tool or empty message(s).</source>
        <translation>
            <numerusform>Skipped %n system, tool or empty message.</numerusform>
            <numerusform>Skipped %n system, tool or empty messages.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 log files now wait for a flush, so chat is paused: press Flush. One flush reads them all, in parts that fit the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 log files now wait for a flush; a flush is recommended.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InboxDialog</name>
    <message>
        <source>Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insights and gaps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>insight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>suspected gap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never mentioned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not known twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory did not know %1 (%2 times); last: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You often talk about %1, never about %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>two steps apart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seems to belong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and %2 now link two groups that had no link.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and %2 both go with %3, but never came up together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 goes with most of %2, yet is not drawn with them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>↑ rising</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>→ steady</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>↓ cooling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last %1 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark as read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take it off this list; a dismissed gap is no longer asked about in the chat and is not marked again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing here yet: each flush looks back and leaves what it noticed here. monchat never fills a gap by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No graph yet: a flush draws it from your memories.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blue: topics · orange: people · green: places · purple: things. A line: talked about together (thicker: stronger); weaker links are kept, not drawn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No diary yet: a flush writes one page for each day you chatted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topics: %1. Messages cited: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No profile yet: a flush draws it, and so does approving a memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topics you talked about, as of %1 (bars: share of the window).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages about it in these days: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LayerRows</name>
    <message>
        <source>What this flush changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge gaps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waits for review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>faded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lasting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>merged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reinforced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (not known %2 times)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (never mentioned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Did not run (nothing found, or turned off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insights: %1, suspected gaps: %2 (Inbox)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>topics summed up: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Names and topics: %1, links drawn: %2, discoveries: %3 (Inbox)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This week: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How recently talked about</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>often</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now and then</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not lately</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>long ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No change this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rising: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cooling: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pages written: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No page written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>raised: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None new or raised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 new, %2 rechecked, %3 sent to review, %4 resolved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: L%2 → L%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: new, L%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No level changed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LinkOpener</name>
    <message>
        <source>Not opened: monchat opens only web links (http, https), not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open this link?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This link goes to %1:

%2

Open it in your browser?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LintTab</name>
    <message>
        <source>Check now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run knowledge lint now, as each flush does (monchat lint)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checked: %1 new, %2 rechecked, %3 queued for review, %4 resolved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model check was left out: %1 is a cloud service you have not agreed to send to yet (a chat or a flush asks).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filed under “%1”, usually filed as “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaced by a memory that does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cites messages that are in no archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A chain of replacements comes back to its start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing found: each flush checks your memory for broken links, values that do not fit their topic and contradictions. A fix is only ever proposed in the review queue, after a second check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filed as a date, but names no date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filed as a place, but is only a date or a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filed as an age, but gives no one age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Malformed: empty text, filed under no topic and detail, or a value out of range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These may contradict each other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>marked: checked again at the next flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>still holds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting in the review queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resolved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>structure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grounding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model check</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LongMessageDialog</name>
    <message>
        <source>The whole message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the whole message…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Characters %1–%2 of %3 (page %4 of %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This message is not in the history any more.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>monchat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who you are talking to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regenerate reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit last message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review queue…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inbox: insights, diary, interests…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat personas…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter personas…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Enter sends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On: Enter adds a line and Ctrl+Enter sends. Off: Enter sends and Shift+Enter adds a line.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Personas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Persona:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About monchat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. Some changes take effect the next time monchat starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task is still running; monchat will close when it ends.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>McpSwitch</name>
    <message>
        <source>Let other apps (MCP) propose memories — each waits for your review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apps connected to `monchat mcp` (Claude Desktop, LM Studio…) can always read your profile and search. With this on they may also propose memories; `monchat mcp log` shows who connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other apps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected lately: %1 (`monchat mcp log` lists every visit).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No app has connected yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryBrowser</name>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save wording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your words are kept as written, as lasting memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove its words from memory for good (the messages you wrote stay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History (oldest first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence: what you said</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>▣ Summed up: the prompt carries its topic&apos;s summary instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Talked about</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No memory here yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To decide otherwise, use the review queue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put it back where it was</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take it out of the prompt (you can undo it; its history is kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>v%1 ×%2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forgotten. Undo puts it back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget this memory? It leaves the prompt; you can undo this, and its history is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this memory and its history for good? Its words leave memory and the prompt; the messages you wrote stay in the archive. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryExportDialog</name>
    <message>
        <source>Export memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every memory with its state, its earlier versions and the messages it rests on, to keep or to bring into another monchat (File → Import memory…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For another app or monchat (JSON)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To read (Markdown)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryFacts</name>
    <message>
        <source>State: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valid from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contradicted %1 times</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Level L%1 (1 day of use)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Level L%1 (%2 days of use)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preference: %1, version %2 of %3, weight %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Talked about: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summed up as “%1”, with: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for your review: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A proposed change to this memory waits for your review: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From conversations with: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryImportDialog</name>
    <message>
        <source>Import memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the memories another assistant keeps about you, one per line — ChatGPT: Settings → Personalization → Manage memories; Claude: its memory export — or choose a monchat memory export. Each one waits in the review queue: nothing is remembered until you approve it. Importing the same list twice adds nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>- Lives in Kanazawa
- Prefers short answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ChatGPT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Claude</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another app</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the pasted list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open review queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory (*.json *.md *.txt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 memories now wait for your review (Memory → Review queue).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 were already known.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 earlier, refused or forgotten memories were left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Open review queue (%n)</source>
        <translation>
            <numerusform>Open review queue (%n)</numerusform>
            <numerusform>Open review queue (%n)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryMenu</name>
    <message numerus="yes">
        <source>Review queue (%n)…</source>
        <translation>
            <numerusform>Review queue (%n)…</numerusform>
            <numerusform>Review queue (%n)…</numerusform>
        </translation>
    </message>
    <message>
        <source>Review queue…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryWords</name>
    <message>
        <source>New from the last flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lasting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dormant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dormant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>taken back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forgotten</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a taking back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>said outright</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a correction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a fact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a habit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a preference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No message of yours backs it yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence on 1 day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence on %1 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>writing style</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tech choice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>design principle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>aesthetic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>food and drink</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>money</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>social</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drinks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>food</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hobbies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>studies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>family</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>friends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>partner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>travel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>music</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sport</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>books</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>games</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>places</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>people</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plans</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>school</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>languages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sleep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>imported from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a list you pasted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a monchat export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filed by the program as “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 more than last time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 fewer than last time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (as last time)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MergeDuplicatesButton</name>
    <message>
        <source>Merge duplicates…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memories that say the same thing become one, with their evidence together</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No two memories say the same thing: nothing to merge.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” ×%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories say the same thing as another one:</source>
        <translation>
            <numerusform>%n memory says the same thing as another one:</numerusform>
            <numerusform>%n memories say the same thing as another one:</numerusform>
        </translation>
    </message>
    <message>
        <source>Merge each group into one memory, with all of its evidence? The others go into its history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge duplicates</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MessageBody</name>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>code</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MessageBubble</name>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the whole message, a page at a time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this message for good (you are asked first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cut off: an error ended this reply before it was complete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(cut off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(stopped)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(writing…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 more characters are not shown here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MessageDeletions</name>
    <message>
        <source>A reply is being written: wait for it or stop it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this reply for good? It leaves the logs and the archive, with its rating. Memory is never built on replies, so no memory changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this message for good? It leaves the logs and the archive, and no flush will read it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies) that rest only on it will be taken back.</source>
        <translation>
            <numerusform>%n memory that rests only on it will be taken back.</numerusform>
            <numerusform>%n memories that rest only on it will be taken back.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies) that rest on other messages too will lose it as evidence.</source>
        <translation>
            <numerusform>%n memory that rests on other messages too will lose it as evidence.</numerusform>
            <numerusform>%n memories that rest on other messages too will lose it as evidence.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The %n earlier version(s) it replaced go too.</source>
        <translation>
            <numerusform>The earlier version it replaced goes too.</numerusform>
            <numerusform>The %n earlier versions it replaced go too.</numerusform>
        </translation>
    </message>
    <message>
        <source>This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backups you made before now still hold these words.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted. Memories taken back: %1; memories that lost it as evidence: %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelHelp</name>
    <message>
        <source>A model for this computer…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelOffer</name>
    <message>
        <source>A better model for this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer has %1 GB of memory and %2 cores: it runs &lt;b&gt;%3&lt;/b&gt; comfortably. It is a %4 download, kept on this computer; replies and memory (Flush) then come from it instead of the tiny built-in model.&lt;br&gt;%5&lt;br&gt;Languages: %6. Licence: %7.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How fast it will be: measuring this computer (a few seconds)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How fast it will be here is not measured yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measure (a few seconds)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How fast it will be could not be measured here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Estimate from a short test on this computer: about %1 s for a reply, about %2 min for a Flush of 35 messages.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelPage</name>
    <message>
        <source>Automatic (the first local one that works; never a cloud)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ollama</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI-compatible server (LM Studio, llama-server, vLLM, …)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini (Google, a cloud service)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedded (small model on this computer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: the address in OLLAMA_HOST (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: Ollama on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long Ollama keeps the model loaded, e.g. 30m or 24h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context length (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep loaded for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI-compatible server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(OPENAI_BASE_URL, else LM Studio at http://127.0.0.1:1234/v1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the server&apos;s first model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(a local server needs none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the bundled SmolLM2-135M-Instruct)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic (%1, the physical cores)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Catalog model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model (catalog name or GGUF file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longest reply (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checks the chosen backend with the values above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer has no OS keyring, so monchat cannot store a key (it never writes keys to its files). Set the environment variable GEMINI_API_KEY to your key where monchat starts (for example a line `export GEMINI_API_KEY=…` in ~/.profile), then start monchat again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key is stored in the OS keyring. Type a new one to replace it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key comes from the environment variable %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key yet. It will be stored in the OS keyring, never in a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a GGUF model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Ollama model name is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Gemini model name is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini needs an API key: type one above, or set GEMINI_API_KEY where monchat starts. Gemini is not saved as the backend without one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) found.</source>
        <translation>
            <numerusform>%n model found.</numerusform>
            <numerusform>%n models found.</numerusform>
        </translation>
    </message>
    <message>
        <source>The server lists no models.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Works.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something needs fixing:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NeverRulesDialog</name>
    <message>
        <source>Never remember</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topics, words or kinds of memory that monchat never remembers, whatever a model proposes: at every flush a proposal that matches is dropped and listed. Examples: health, my ex, password, food/ (every memory under “food/”).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A topic, a word or a kind of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget these memories…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1  (rule: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies) you already have match a rule:</source>
        <translation>
            <numerusform>%n memory you already have matches a rule:</numerusform>
            <numerusform>%n memories you already have match a rule:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Forget the %n memory(ies) a never-remember rule covers? They leave the prompt for good (Memory… can restore one).</source>
        <translation>
            <numerusform>Forget the %n memory a never-remember rule covers? It leaves the prompt for good (Memory… can restore it).</numerusform>
            <numerusform>Forget the %n memories a never-remember rule covers? They leave the prompt for good (Memory… can restore one).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memory(ies) forgotten.</source>
        <translation>
            <numerusform>%n memory forgotten.</numerusform>
            <numerusform>%n memories forgotten.</numerusform>
        </translation>
    </message>
    <message>
        <source>No memory you have matches a rule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added: %1. Every flush drops a proposal that matches it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a rule to remove.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget memories</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OffRecordBanner</name>
    <message>
        <source>Clear now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Off the record.&lt;/b&gt; Nothing you say here is remembered: no flush reads it, and it is removed %1 hours after it is said. Your memory is still used for the replies.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PersonaEditor</name>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made from the name when the persona is new; it names the persona&apos;s file and never changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save persona</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved as: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PersonaWords</name>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instructions (system prompt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greeting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Talent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Picks up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ignores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most (items per flush)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Style</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is required.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a list of non-empty lines.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be on or off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 may hold only lowercase letters a-z, digits, - and _ (up to 40).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The temperature must be a number from 0 to 2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most 0 to 3 items per flush.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose one of the styles.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the instructions (the system prompt): who the persona is and how it speaks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose one of the backends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The template is not one of monchat&apos;s prompt files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The card&apos;s extensions cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The translations cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The persona is larger than 1 MB; shorten its text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base is locked; copy its ideas into a new persona to change them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A field is not valid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The persona cannot be saved:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PullControl</name>
    <message>
        <source>Pull this model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pulling %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preparing the download…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading: %1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The download of %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RatingButtons</name>
    <message>
        <source>Good: what it relied on lasts longer (click again to clear)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not right: lowers the confidence of what it relied on (click again to clear)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplyRatings</name>
    <message>
        <source>Rated. Memories the reply relied on that changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplyWait</name>
    <message>
        <source>Answering after the flush&apos;s current step (the model does one thing at a time).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answering after the flush&apos;s current step, about %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answering after the flush&apos;s current step, about %1 min.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewLearningView</name>
    <message>
        <source>Reset what reviews taught</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget your approve/reject decisions so far: the approval threshold alone decides again (at once)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing learned yet: every topic is approved by itself at confidence %1 or more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: lasting memory approved by itself from confidence %2 — %3 approved, %4 rejected</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewQueueDialog</name>
    <message>
        <source>Review queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These changes to your lasting memory wait for your decision. Nothing here is used until you approve it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decide by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decide yourself how the two relate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select every item, then approve or reject them all at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence: what you said</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decide (leaning: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a device&apos;s version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1  ×%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n alike proposals of the same change: approving or rejecting this row decides all of them</source>
        <translation>
            <numerusform>%n alike proposals of the same change: approving or rejecting this row decides all of them</numerusform>
            <numerusform>%n alike proposals of the same change: approving or rejecting this row decides all of them</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Approve all %n</source>
        <translation>
            <numerusform>Approve all %n</numerusform>
            <numerusform>Approve all %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reject all %n</source>
        <translation>
            <numerusform>Reject all %n</numerusform>
            <numerusform>Reject all %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Approve %n selected</source>
        <translation>
            <numerusform>Approve %n selected</numerusform>
            <numerusform>Approve %n selected</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reject %n selected</source>
        <translation>
            <numerusform>Reject %n selected</numerusform>
            <numerusform>Reject %n selected</numerusform>
        </translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is waiting for review.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence for the proposal “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence for the current memory “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence: nothing you said here</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n of these ask how two memories relate; Approve applies the model&apos;s leaning to each (approve one alone to decide otherwise):</source>
        <translation>
            <numerusform>%n of these asks how two memories relate; Approve applies the model&apos;s leaning to it (approve it alone to decide otherwise):</numerusform>
            <numerusform>%n of these ask how two memories relate; Approve applies the model&apos;s leaning to each (approve one alone to decide otherwise):</numerusform>
        </translation>
    </message>
    <message>
        <source>“%1”: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your decision teaches the auto-approve rule for %1: approving lowers the confidence from which such memories are kept without asking, rejecting raises it (Settings → Memory).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported items and other apps&apos; proposals teach the auto-approve rule nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>This row stands for %n alike proposals; Approve and Reject decide all of them:</source>
        <translation>
            <numerusform>This row stands for %n alike proposals; Approve and Reject decide all of them:</numerusform>
            <numerusform>This row stands for %n alike proposals; Approve and Reject decide all of them:</numerusform>
        </translation>
    </message>
    <message>
        <source>#%1 (%2): “%3”</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewWords</name>
    <message>
        <source>Add to lasting memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the wording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decide: same thing or not?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You rated it down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same thing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contradicts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something else</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new statement becomes more evidence for the kept memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One memory in the merged wording replaces the kept memory, with the evidence of both; the kept one goes into its history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new statement replaces the kept memory, which goes into its history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new statement is counted against the kept memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Both are kept, as two separate memories.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported from another assistant&apos;s memory or a monchat export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposed by another app through monchat&apos;s MCP server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two of your devices did different things with “%1” while they were apart. Approve takes what the other device did; reject keeps what this one did.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed on two of your devices while they were apart. Approve takes the other device&apos;s “%1”; reject keeps this one&apos;s “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>monchat is not sure these are your words: compare them with what you said.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The flush left this out (over its persona&apos;s limit) and you sent it here. Approve keeps it as lasting memory (confidence %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enough evidence has come together, so this becomes lasting memory (confidence %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You rated this down. Approve keeps it as lasting memory (at its lowered confidence); reject drops it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found in your words: the text shares almost nothing with the messages it cites. Approve it only if it is true of you.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaces the lasting memory “%1” with “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merges the lasting memory “%1” into the new wording “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You may have taken back “%1”, but it is not certain (confidence %2). Approve to take it back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Takes back “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model gave no usable answer on how this relates to “%1”. Decide yourself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not decide how this relates to “%1”. The model leans to: %2 (confidence %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported from %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposed by %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quoted in the file you imported, not said here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From your ChatGPT memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From your Claude memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From a monchat export you imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From a list you pasted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From another app (through monchat&apos;s MCP server)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: messages of yours that back it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no message of yours backs it yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Said again on %1: “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its words are that app&apos;s, not said here. It becomes memory only if you approve it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It becomes memory only if you approve it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It was made with a small model, whose memories are often wrong, so nothing from it goes into lasting memory without your yes.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ScoreRow</name>
    <message>
        <source>Measure on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs a week of made-up conversations through the saved model in a scratch folder (your memory is not touched) and scores what it kept. A small model takes many minutes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory score: not measured on this computer yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory score of %1 (%2): %3 of %4 kept, %5 of %6 retired, %7 invented</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring… (the first step is the slowest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring: step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SearchDialog</name>
    <message>
        <source>Search the conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Words to find (every one must occur)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every day with messages: choose one to read that day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Persona</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a message to read the conversation around it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Talked about: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %n message(s)</source>
        <translation>
            <numerusform>%1: %n message</numerusform>
            <numerusform>%1: %n messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) found, newest first.</source>
        <translation>
            <numerusform>%n message found, newest first.</numerusform>
            <numerusform>%n messages found, newest first.</numerusform>
        </translation>
    </message>
    <message>
        <source>[stopped]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[cut off]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a word or part of a sentence to look for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This SQLite has no full-text index for Japanese (FTS5 trigram); the archive was scanned instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[replaced]</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SendCutButton</name>
    <message>
        <source>The persona&apos;s limit left these proposals out of this flush. In the review queue you decide each; nothing becomes memory unless you approve it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send what was cut to review (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Sent to review (%n)</source>
        <translation>
            <numerusform>Sent to review (%n)</numerusform>
            <numerusform>Sent to review (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing new to send</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n proposal(s) the limit cut now wait for your review.</source>
        <translation>
            <numerusform>%n proposal the limit cut now waits for your review.</numerusform>
            <numerusform>%n proposals the limit cut now wait for your review.</numerusform>
        </translation>
    </message>
    <message>
        <source>What the limit cut waits for review already, or the lines it rests on were deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Growing memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommend a flush at (log files)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause chat at (log files)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask me before any change to lasting memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter personas you chose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>They read at every flush, besides Base, which always reads, and one more picked each time (the “fixed” personas: flush.fixed_personas).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learned from your reviews</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The flush recommendation must come before chat pauses (warn at most at the pause count).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not saved:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings were saved, but the key was not:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as the server says (else 4096)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 on this computer or network, 4 elsewhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many requests the server answers at the same time (Ollama: OLLAMA_NUM_PARALLEL, 1 unless you set it; llama-server: --parallel). monchat sends no more, so your chat is answered next during a flush; a higher number than the server&apos;s makes chat wait behind the flush.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SmallModel</name>
    <message>
        <source>This is a small model (%1 parameters): memory built with it will be unreliable. It often takes its own instructions for what you said, so a flush with it puts nothing into lasting memory without your approval. For memory you can rely on, use a larger model: through Ollama (for example: ollama pull gemma3:4b), LM Studio, or Gemini; choose it in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model is small (%1 parameters): nothing from this flush went into lasting memory without your approval; it waits in the review queue.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>settings.toml has settings monchat could not use (defaults are used); `monchat doctor` says which.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SurfacePersonaDialog</name>
    <message>
        <source>Import card…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A SillyTavern character card (V2/V3) as JSON or PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who the persona is and how it talks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read its conversations at a flush (off for role-play: nothing said here becomes a memory)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send it your memory (what monchat remembers about you)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greeting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creator&apos;s notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This persona&apos;s text comes from the template %1; text written here replaces it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this persona (its conversations stay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only personas you made or imported can be deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported %1 from %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the persona %1? What you said to it stays in the logs and in memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is already a persona with the id %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat personas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import a character card</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Character cards (*.png *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SyncPage</name>
    <message>
        <source>Use your history on another computer through a folder a sync tool keeps in step (Syncthing, Dropbox, a USB stick). Only your messages, their deletions and what was decided about your memory go there; settings, keys and the database never do. Each computer picks the same folder and its own name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder your sync tool shares</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. laptop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional: encrypts everything written to the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same passphrase again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync through this folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This device&apos;s name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passphrase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passphrase again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the sync folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sync folder is encrypted, and this computer does not hold its passphrase (the OS keyring lacks it). Type it in Passphrase, twice, and press “Sync through this folder”; until then nothing is synced.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The two passphrases differ: type the same one twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setting up…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer syncs as “%1” through %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everything it writes there is encrypted with the passphrase. Keep the passphrase somewhere safe: without it no computer can read the folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The passphrase is kept in the OS keyring.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer&apos;s keyring cannot keep the passphrase: this window remembers it until it closes. Set MONCHAT_SYNC_PASSPHRASE before starting monchat, or type it here again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not set up:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last sync did not run:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer does not sync yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sync folder cannot be read now:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This device: %1 (id %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder: %1 (%2 KB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No other device has written to the folder yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other device: %1, last wrote %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n deletions wait for a device that has not synced since.</source>
        <translation>
            <numerusform>%n deletion waits for a device that has not synced since.</numerusform>
            <numerusform>%n deletions wait for a device that has not synced since.</numerusform>
        </translation>
    </message>
    <message>
        <source>No deletion is waiting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n conflict copies found. A sync tool made them when two computers changed one file; monchat never reads them. You may delete them:</source>
        <translation>
            <numerusform>%n conflict copy found. A sync tool made it when two computers changed one file; monchat never reads it. You may delete it:</numerusform>
            <numerusform>%n conflict copies found. A sync tool made them when two computers changed one file; monchat never reads them. You may delete them:</numerusform>
        </translation>
    </message>
    <message>
        <source>No conflict copies.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n memories were changed on two devices while they were apart: choose in the review queue which version to keep.</source>
        <translation>
            <numerusform>%n memory was changed on two devices while they were apart: choose in the review queue which version to keep.</numerusform>
            <numerusform>%n memories were changed on two devices while they were apart: choose in the review queue which version to keep.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n decisions about memory wait for the messages they rest on to arrive.</source>
        <translation>
            <numerusform>%n decision about memory waits for the messages it rests on to arrive.</numerusform>
            <numerusform>%n decisions about memory wait for the messages they rest on to arrive.</numerusform>
        </translation>
    </message>
    <message>
        <source>The folder is encrypted: it holds no readable words.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TierWords</name>
    <message>
        <source>often</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now and then</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not lately</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>long ago</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UserGuide</name>
    <message>
        <source>monchat Help…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UserGuideWindow</name>
    <message>
        <source>monchat Help</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <source>&lt;b&gt;Welcome to monchat.&lt;/b&gt; You talk with a &lt;b&gt;persona&lt;/b&gt; (choose one above; make your own under Personas). Everything you say is kept in &lt;b&gt;log files&lt;/b&gt; on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A &lt;b&gt;Flush&lt;/b&gt; (Memory → Flush) lets filter personas read those logs and keep what matters about you as &lt;b&gt;memory&lt;/b&gt;, which the persona then knows; you can read and change every memory under Memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replies now come from &lt;b&gt;%1&lt;/b&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That is the small model built into monchat: enough to try the window, weak at conversation. For better replies install Ollama (ollama.com) and a model such as gemma3:4b, or choose another backend in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Its Japanese replies will be nonsense&lt;/b&gt;, and its English ones often are: a model this small cannot hold a conversation in Japanese. For Japanese, use a model of 4B parameters or more (for example gemma3:4b).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>YourControls</name>
    <message>
        <source>Off the record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing said off the record is remembered: no flush reads it, and it is removed after a set number of hours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear off-the-record messages…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While memory is paused, a flush keeps your messages and remembers nothing new from them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never remember…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — off the record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A flush keeps your messages and remembers nothing new from them. Memory → Pause memory turns it back on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear off-the-record messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove every message said off the record now? They cannot be brought back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n off-the-record message(s) removed.</source>
        <translation>
            <numerusform>%n off-the-record message removed.</numerusform>
            <numerusform>%n off-the-record messages removed.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>YourControlsBox</name>
    <message>
        <source>Your controls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages said off the record are removed this long after they are said.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chats with a checked persona start off the record (Chat → Off the record turns it on or off for a conversation).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never remember…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topics, words or kinds of memory that are never remembered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove off-the-record messages after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start off the record with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never remember</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>_SaveAsDialog</name>
    <message>
        <source>Save as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
