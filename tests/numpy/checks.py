"""Counted checks for the differential tests: check() records a failure
(printing the first 20), report() prints "N passed, N failed" and returns
the exit status."""
failures = []
_count = 0


def check(condition, what):
    global _count
    _count += 1
    if not condition:
        failures.append(what)
        if len(failures) <= 20:
            print("FAIL:", what)


def report():
    print(f"{_count - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0
