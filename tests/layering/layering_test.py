"""The layering of the library, checked on its sources and its objects.

lib/ (the semantic core) includes no Highway header and no header of simd/
or dispatch/ (their folders or the runtime's public headers), and simd/
includes nothing of dispatch/. On the objects: no symbol that the core's
archive leaves undefined is defined by the simd or dispatch archives, and
none that the simd archive leaves undefined by the dispatch archive.

Usage: layering_test.py SOURCE_ROOT CORE.a SIMD.a DISPATCH.a
"""
import pathlib
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def includes(folder):
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".h", ".cc", ".c", ".cpp") and path.is_file():
            for name in INCLUDE.findall(path.read_text()):
                yield path, name


def defined_strong(archive):
    out = subprocess.run(["nm", "-P", "--defined-only", archive], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        # "name type [value size]"; inline functions and template
        # instantiations are weak (W/V/u) and may be defined anywhere.
        if len(parts) >= 2 and parts[1] in "TDBR" and not line.endswith(":"):
            names.add(parts[0])
    return names


def undefined(archive):
    out = subprocess.run(["nm", "-P", "--undefined-only", archive], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines()
            if line.split() and not line.endswith(":")}


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()


def main():
    root = pathlib.Path(sys.argv[1])
    core, simd, dispatch = sys.argv[2:5]
    runtime_headers = {"stridekit/" + p.name for p in
                       (root / "dispatch" / "include" / "stridekit").glob("*.h")}
    errors = []
    for path, name in includes(root / "lib"):
        if (name.startswith(("hwy/", "simd/", "dispatch/")) or
                name in runtime_headers):
            errors.append(f"{path.relative_to(root)} includes {name}")
    for path, name in includes(root / "simd"):
        if name.startswith("dispatch/") or name in runtime_headers:
            errors.append(f"{path.relative_to(root)} includes {name}")
    upper = defined_strong(simd) | defined_strong(dispatch)
    for name in demangle(sorted(undefined(core) & upper)):
        errors.append(f"lib/ object references {name}, defined in simd/ or "
                      "dispatch/")
    for name in demangle(sorted(undefined(simd) & defined_strong(dispatch))):
        errors.append(f"simd/ object references {name}, defined in dispatch/")
    checked = len(list(includes(root / "lib"))) + len(list(includes(root / "simd")))
    for e in errors:
        print("layering:", e)
    print(f"{checked} includes and 3 archives checked, {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
