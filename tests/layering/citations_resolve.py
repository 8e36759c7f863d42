#!/usr/bin/env python3
"""A repository that explains itself (issue 30): every citation of docs/kafka.md resolves to a
section of it, nothing cites the old facts file or a file outside the repository, and no file
names an absolute path of a machine. Usage: citations_resolve.py SOURCE_ROOT. Exit 1 with the
offending file:line list, 0 when clean."""
import os
import re
import sys

root = sys.argv[1]
kafka_md = os.path.join(root, "docs", "kafka.md")

# The sections docs/kafka.md defines: "## 5. …", "### 5.7 …", "#### 5.7.2 …", "## Appendix D. …",
# "### A.5 …", and the numbered items "**D.12**".
sections = set()
with open(kafka_md, encoding="utf-8") as f:
    for line in f:
        m = re.match(r"^#+ (?:Appendix )?((?:[0-9]+|[A-E])(?:\.[0-9]+)*)\.? ", line)
        if m:
            sections.add(m.group(1))
        for item in re.findall(r"^(?:- )?\*\*([A-E]\.[0-9]+)\*\*", line):
            sections.add(item)

TEXT = (".cpp", ".hpp", ".md", ".txt", ".cmake", ".scenario", ".py", ".sh", ".config", ".ndjson", ".dot", ".json")
SCRIPTS = {os.path.join("scripts", n) for n in ("setup", "main", "test", "test-sanitized", "fuzz")} | {os.path.join(".ci", "run")}
# What a citation must not name: the facts file that is not in the repository, or a machine's path.
FORBIDDEN = [
    (re.compile(r"\bfacts §|\bfacts Appendix"), "cites the facts file: cite docs/kafka.md"),
    (re.compile(r"controller-facts\.md|historic-bugs\.md|shared/kafka/"), "names a file outside the repository"),
    (re.compile(r"(?<![\w.~-])/(?:work|home|root|Users)/"), "names an absolute path of a machine"),
]
CITATION = re.compile(r"kafka\.md (?:§|Appendix )((?:[0-9]+|[A-E])(?:\.[0-9]+)*)")
# In C++ sources a bare "§N" cites kafka.md too (its header says so); "world.md §N" does not.
BARE = re.compile(r"(?<!md )(?<!md, )§([0-9]+(?:\.[0-9]+)*)")
CODE = (".cpp", ".hpp")

problems = []
for folder, dirs, files in os.walk(root):
    rel_folder = os.path.relpath(folder, root)
    dirs[:] = [d for d in dirs if not d.startswith(".git") and not d.startswith("build") and d != "__pycache__"]
    for name in files:
        rel = os.path.normpath(os.path.join(rel_folder, name))
        if not (name.endswith(TEXT) or rel in SCRIPTS) or rel == os.path.join("tests", "layering", "citations_resolve.py"):
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                for pattern, why in FORBIDDEN:
                    if pattern.search(line):
                        problems.append(f"{rel}:{number}: {why}: {line.strip()}")
                cited_here = CITATION.findall(line) + (BARE.findall(line) if name.endswith(CODE) else [])
                for cited in cited_here:
                    cited = cited.rstrip(".")
                    if cited not in sections:
                        problems.append(f"{rel}:{number}: kafka.md has no section {cited}: {line.strip()}")

if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"every kafka.md citation resolves ({len(sections)} sections); no file outside the repository or machine path is named")
