#!/usr/bin/env python3
"""Writes Sources/FolioJinja/JinjaLorem.swift's word list from Jinja2's (jinja2.constants.LOREM_IPSUM_WORDS, 186 words),
from the repository root: /tmp/jv/bin/python Tests/FolioJinjaTests/Fixtures/extensions/lorem.py"""
from jinja2.constants import LOREM_IPSUM_WORDS
import re

path = "Sources/FolioJinja/JinjaLorem.swift"
text = open(path).read()
words = LOREM_IPSUM_WORDS.split()
lines, line = [], "       "
for w in words:
    entry = f' "{w}",'
    if len(line) + len(entry) > 118:
        lines.append(line)
        line = "       "
    line += entry
lines.append(line)
table = "static let words: [String] = [\n" + "\n".join(lines) + "\n    ]"
text = re.sub(r"static let words: \[String\] = \[.*?\n    \]", lambda m: table, text, flags=re.S)
open(path, "w").write(text)
print(len(words), "words")
