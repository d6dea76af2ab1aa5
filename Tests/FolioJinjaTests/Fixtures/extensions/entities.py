#!/usr/bin/env python3
"""Writes Sources/FolioJinja/JinjaHTMLEntities.swift's table from html.entities.name2codepoint (run from the repository root)."""
from html.entities import name2codepoint
import re

path = "Sources/FolioJinja/JinjaHTMLEntities.swift"
text = open(path).read()
lines, line = [], "   "
for k, v in sorted(name2codepoint.items()):
    entry = f' "{k}": 0x{v:X},'
    if len(line) + len(entry) > 118:
        lines.append(line)
        line = "   "
    line += entry
lines.append(line)
table = "static let htmlEntities: [String: UInt32] = [\n" + "\n".join(lines) + "\n    ]"
text = re.sub(r"static let htmlEntities: \[String: UInt32\] = \[.*?\n    \]", lambda m: table, text, flags=re.S)
open(path, "w").write(text)
print(len(name2codepoint), "entities")
