"""How a reply's Markdown is shown: its line breaks kept, its code blocks coloured, labelled and copyable.

``keep_line_breaks`` turns a single line break (outside code) into a Markdown hard break, as chat apps
render a model's text: Markdown alone would join the lines. ``decorate_code`` works on the document Qt made
from the Markdown: each fenced block gets a tinted background, Pygments colours (a light or a dark style by
the palette, a colour that would not read on the tint falls back to the text colour) and a line above it with
its language and a "Copy" link (``copy:N``; the bubble copies block N). Pygments is imported at the first
code block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QPalette, QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument, \
    QTextFormat

from ..kit.colours import AA_TEXT, contrast, is_dark, mix

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)\s*$")
COPY_SCHEME = "copy"


def keep_line_breaks(markdown: str) -> str:
    """``markdown`` with each single line break outside code made a hard break (two spaces before it)."""
    lines = markdown.split("\n")
    fence = ""
    out = []
    for n, line in enumerate(lines):
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
            out.append(line)
            continue
        if opening:
            fence = opening.group(1)
            out.append(line)
            continue
        following = lines[n + 1] if n + 1 < len(lines) else ""
        joins = (line.strip() and following.strip() and not FENCE.match(following)
                 and not SETEXT_UNDERLINE.match(following) and not line.endswith(("  ", "\\"))
                 and not line.lstrip().startswith("|"))
        out.append(line + "  " if joins else line)
    return "\n".join(out)


@dataclass
class CodeBlock:
    language: str
    text: str


def code_groups(document: QTextDocument) -> list[list]:
    """The document's code blocks: runs of consecutive blocks Qt marked as code, in order."""
    groups, run = [], []
    block = document.begin()
    while block.isValid():
        if block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeLanguage) or \
                block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence):
            run.append(block)
        elif run:
            groups.append(run)
            run = []
        block = block.next()
    if run:
        groups.append(run)
    return groups


def _lexer(language: str):
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try:
        return get_lexer_by_name(language.strip().lower()) if language.strip() else None
    except ClassNotFound:
        return None


def _colour(document_cursor: QTextCursor, start: int, end: int, fmt: QTextCharFormat) -> None:
    document_cursor.setPosition(start)
    document_cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    document_cursor.mergeCharFormat(fmt)


def _highlight(document: QTextDocument, run: list, code: CodeBlock, palette: QPalette, shade: QColor) -> None:
    lexer = _lexer(code.language)
    if lexer is None:
        return
    from pygments.styles import get_style_by_name
    style = get_style_by_name("monokai" if is_dark(palette) else "default")
    text_colour = palette.color(QPalette.ColorRole.Text)
    cursor = QTextCursor(document)
    first = run[0].position()
    for index, token, value in lexer.get_tokens_unprocessed(code.text):
        spec = style.style_for_token(token)
        if not (spec.get("color") or spec.get("bold") or spec.get("italic")) or not value.strip():
            continue
        fmt = QTextCharFormat()
        if spec.get("color"):
            colour = QColor("#" + spec["color"])
            fmt.setForeground(colour if contrast(colour, shade) >= AA_TEXT else text_colour)
        if spec.get("bold"):
            fmt.setFontWeight(QFont.Weight.Bold)
        if spec.get("italic"):
            fmt.setFontItalic(True)
        _colour(cursor, first + index, first + index + len(value), fmt)


def decorate_code(document: QTextDocument, palette: QPalette, copy_word: str, copied_word: str, code_word: str,
                  copied: int = -1) -> list[CodeBlock]:
    """Tint, colour and label every code block of ``document``; returns the blocks (what ``copy:N`` copies).

    Args:
        copied: the block whose link says ``copied_word`` for now (it was just copied).
    """
    shade = mix(palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text), 0.08)
    groups = code_groups(document)
    blocks = [CodeBlock(str(run[0].blockFormat().property(QTextFormat.Property.BlockCodeLanguage) or ""),
                        "\n".join(b.text() for b in run)) for run in groups]
    for n in range(len(groups) - 1, -1, -1):  # from the end: inserting the label lines moves what follows
        run, code = groups[n], blocks[n]
        cursor = QTextCursor(run[0])
        for block in run:
            fmt = block.blockFormat()
            fmt.setBackground(shade)
            QTextCursor(block).setBlockFormat(fmt)
        _highlight(document, run, code, palette, shade)
        cursor.setPosition(run[0].position())
        cursor.insertBlock()  # the code moves down one block; the empty one above becomes the label line
        cursor.movePosition(QTextCursor.MoveOperation.PreviousBlock)
        label_format = QTextBlockFormat()
        label_format.setBackground(mix(shade, palette.color(QPalette.ColorRole.Text), 0.06))
        label_format.setTopMargin(4)
        cursor.setBlockFormat(label_format)
        plain = QTextCharFormat()
        plain.setForeground(palette.color(QPalette.ColorRole.PlaceholderText))
        plain.setFontPointSize(max(7.0, document.defaultFont().pointSizeF() * 0.85))
        cursor.setCharFormat(plain)
        cursor.insertText((code.language or code_word) + "   ")
        link = QTextCharFormat(plain)
        link.setAnchor(True)
        link.setAnchorHref(f"{COPY_SCHEME}:{n}")
        link_colour = palette.color(QPalette.ColorRole.Link)  # a theme may leave it blue on a dark fill
        link.setForeground(link_colour if contrast(link_colour, label_format.background().color()) >= AA_TEXT
                           else palette.color(QPalette.ColorRole.Text))
        link.setFontUnderline(True)
        cursor.insertText(copied_word if n == copied else copy_word, link)
    return blocks


def copy_index(url: str) -> int | None:
    """The code block a ``copy:N`` link names; None for any other link."""
    match = re.fullmatch(rf"{COPY_SCHEME}:(\d+)", url)
    return int(match.group(1)) if match else None
