#!/usr/bin/env python3
"""Fails on raw int64 offset/stride arithmetic in lib/ outside the
checked-arithmetic vocabulary (stridekit/checked.h).

A pattern-based check, not a type checker: a line of lib/*.{h,cc} whose code
(comments and string literals removed) applies `+`, `*`, `+=`, `*=` or `-=`
to a variable named like an offset or a stride (offset, stride, strides,
*_offset, *_stride, *_strides, strides_[...]) is a finding, unless
- the line computes in a type that cannot overflow silently (uint64_t,
  __int128) or calls a checked helper (Checked*, __builtin_*_overflow), or
- the line, or the line above it, carries the marker
  `offset-checked: <reason>` in a comment (the reason says which check
  makes the value fit, e.g. "the view's span was validated").

  checked_arithmetic_test.py SOURCE_ROOT   checks SOURCE_ROOT/lib
  checked_arithmetic_test.py --self-test   checks that a planted raw
                                           `offset += i * stride` fails
"""
import pathlib
import re
import sys

MARKER = "offset-checked:"
NAME = r"(?:\b[A-Za-z_][A-Za-z0-9_]*(?:\.|->))*" \
       r"\b(?:[A-Za-z0-9_]+_)?(?:offsets?|strides?)_?\b" \
       r"(?:\s*\[[^\]]*\])?"
OPERATOR = r"(?:\+=|\*=|-=|\+(?!\+)|\*)"
RAW = re.compile(rf"(?:{NAME}\s*{OPERATOR}(?!=)|(?<![+*/-]){OPERATOR}\s*{NAME})")
SAFE = re.compile(r"uint64_t|__int128|Checked[A-Z]\w*\(|__builtin_\w+_overflow")
STRING = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'')


def code_of(line):
    """The line without string literals and its // comment."""
    return STRING.sub('""', line).split("//", 1)[0]


def findings(path, text):
    out = []
    lines = text.splitlines()
    in_block_comment = False
    for i, line in enumerate(lines):
        code = code_of(line)
        if in_block_comment:
            if "*/" not in code:
                continue
            code = code.split("*/", 1)[1]
            in_block_comment = False
        if "/*" in code:
            before, _, after = code.partition("/*")
            in_block_comment = "*/" not in after
            code = before + (after.split("*/", 1)[1] if not in_block_comment else "")
        # Pointer declarations and dereferences ("int64_t* strides") are not
        # arithmetic: drop `*` directly after a type or before a name at the
        # start of an expression.
        code = re.sub(r"\b(?:int64_t|int32_t|size_t|char|void|auto|sk_view|View)\s*\*", " ", code)
        code = re.sub(r"(?:^|[(,=!&|;{]|return)\s*\*(?=\s*[A-Za-z_(])", " ", code)
        if not RAW.search(code) or SAFE.search(code):
            continue
        if MARKER in line or (i > 0 and MARKER in lines[i - 1]):
            continue
        out.append(f"{path}:{i + 1}: {line.strip()}")
    return out


def check_tree(root):
    problems = []
    for path in sorted((root / "lib").rglob("*")):
        if path.suffix in (".h", ".cc") and path.name != "checked.h":
            problems += findings(path.relative_to(root), path.read_text())
    return problems


def self_test():
    planted = "int64_t f(int64_t offset, int64_t i, int64_t stride) {\n" \
              "  offset += i * stride;\n  return offset;\n}\n"
    marked = "  // offset-checked: validated span\n  offset += i * stride;\n"
    safe = "  offset = CheckedAdd(offset, CheckedMul(i, stride, op), op);\n" \
           "  const char* s = \" * stride \";  // offset * 2\n"
    cases = [(planted, 1), (marked, 0), (safe, 0),
             ("  x = base.strides[k] * 3;\n", 1),
             ("  result_offset += lo[k] * strides[k];\n", 1),
             ("  offsets_[op] -= n;\n", 1),
             ("void F(const int64_t* strides, int64_t* offset);\n", 0),
             ("  lo += uint64_t(first) * stride;\n", 0)]
    ok = True
    for text, want in cases:
        got = len(findings("planted.cc", text))
        if got != want:
            print(f"self-test: {got} findings (want {want}) in:\n{text}")
            ok = False
    return ok


def main():
    if sys.argv[1:] == ["--self-test"]:
        return 0 if self_test() else 1
    if not self_test():
        return 1
    problems = check_tree(pathlib.Path(sys.argv[1]))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} raw offset/stride operations in lib/: use "
              "stridekit/checked.h, or mark the line `// offset-checked: <why it fits>`")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
