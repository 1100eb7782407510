"""Render README.md from nbs/index.ipynb (what `nbdev_readme` does where quarto is installed; quarto is not here).

Markdown cells are copied, with links to notebooks made relative to the repository root; code cells without a `#| hide` directive become fenced Python followed by their text
output. `python .ci/readme.py` writes README.md; `--check` only compares and exits 1 when README.md is stale."""
import json
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]


def _text(cell_source) -> str:
    return "".join(cell_source) if isinstance(cell_source, list) else cell_source


def _output_text(output) -> str:
    if output.get("output_type") == "stream": return _text(output["text"])
    data = output.get("data", {})
    return _text(data["text/plain"]) + "\n" if "text/plain" in data else ""


def render(nb_path: Path) -> str:
    "README text of the notebook at `nb_path`."
    parts = []
    for cell in json.loads(nb_path.read_text())["cells"]:
        src = _text(cell["source"])
        if cell["cell_type"] == "markdown":     # the book's links are relative to nbs/, the README's to the root
            parts.append(re.sub(r"\]\((?![a-z]+:|#|/)([^)]+\.ipynb)\)", r"](nbs/\1)", src.strip()))
        elif cell["cell_type"] == "code":
            lines = src.splitlines()
            directives = [l.replace(" ", "") for l in lines if l.startswith("#|")]
            if any(d.startswith(("#|hide", "#|exporti", "#|include:false")) for d in directives): continue
            code = "\n".join(l for l in lines if not l.startswith("#|")).strip()
            if code: parts.append(f"```python\n{code}\n```")
            out = "".join(_output_text(o) for o in cell.get("outputs", [])).rstrip()
            if out: parts.append(f"```\n{out}\n```")
    parts.append("<!-- generated from nbs/index.ipynb by .ci/readme.py: edit the notebook, not this file -->")
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":
    text = render(root / "nbs" / "index.ipynb")
    readme = root / "README.md"
    if "--check" in sys.argv[1:]:
        if readme.read_text() != text:
            sys.exit("README.md is stale: run `python .ci/readme.py` and commit it")
    else:
        readme.write_text(text)
