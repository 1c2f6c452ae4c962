"""Runs the Python example of the repository's README verbatim."""
import os
import re

import pytest

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def python_example():
    text = open(README).read()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    return blocks[0]


@pytest.mark.skipif(not os.path.exists(README), reason="no repository README")
def test_readme_example(capsys):
    import stridekit as sk
    before = sk.get_threads()
    try:
        exec(compile(python_example(), "README.md", "exec"), {})
    finally:
        sk.set_threads(before)
    assert sk.active_target() in capsys.readouterr().out
