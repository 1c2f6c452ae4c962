"""Doxygen INPUT_FILTER for stridekit's headers: their comments are plain
// and /* */ comments, so for the reference they become documentation
comments. The comment block at the top of a header documents the file
(@file); a comment block directly above a declaration documents it; a
comment after code on the same line documents that member (///<, /**<).
The headers themselves are not changed.

  doxygen_filter.py HEADER   (prints the filtered text)
"""
import re
import sys


def main():
    lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
    out = []
    top = True  # still in the comment block at the top of the file
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        if top and i == 0 and stripped.startswith("//"):
            out.append("/// @file")
            out.append(indent + "///" + stripped[2:])
            continue
        if top and i == 0 and stripped.startswith("/*"):
            out.append("/** @file")
            out.append(indent + " *" + stripped[2:])
            continue
        if top and not (stripped.startswith("//") or stripped.startswith("*")
                        or stripped.startswith("/*")):
            top = False
        if top:
            out.append(indent + ("///" + stripped[2:]
                                 if stripped.startswith("//") else stripped))
            continue
        if stripped.startswith("// clang-format") or stripped.startswith("//-"):
            out.append(line)
        elif stripped.startswith("//"):
            out.append(indent + "///" + stripped[2:])
        elif stripped.startswith("/*") and not stripped.startswith("/**"):
            out.append(indent + "/**" + stripped[2:])
        else:
            # A trailing comment documents the member on its line.
            line = re.sub(r"(\S.*?)\s*//\s?(.*)$", r"\1  ///< \2", line) \
                if "//" in line and not line.strip().startswith("#") and \
                '"' not in line else line
            line = re.sub(r"(\S.*?)\s*/\*\s?(.*)$", r"\1  /**< \2", line) \
                if "/*" in line and not line.strip().startswith("#") else line
            out.append(line)
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
