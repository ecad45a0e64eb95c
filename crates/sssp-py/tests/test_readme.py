"""The README's Python example runs as written."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def test_readme_python_block_runs():
    text = README.read_text()
    section = text[text.index("### From Python") :]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    scope = {}
    exec(compile(block, "README.md (From Python)", "exec"), scope)
    assert scope["d"].shape == (2, 3) and scope["pred"].dtype.name == "int32"
    assert scope["g"].path(0, 2) == (5.0, [0, 1, 2])
