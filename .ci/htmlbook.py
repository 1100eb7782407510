"""Render the book as offline HTML (named htmlbook.py, not html.py, which would shadow the standard library's `html` for
every script in .ci/) into _html/: one page per notebook (nbconvert's lab template, figures embedded), an
index page that links every chapter and replication in order, and links between pages rewritten to the local files.

Input: the notebooks as nbdev processed them for the docs (`_proc/`, written by .ci/docs.py: show_doc rendered,
hidden and export cells gone, directives turned into Quarto options) or, with `--src nbs`, the notebooks themselves
(hidden and export cells and the `#|` lines are dropped here). Page names are nbdev's (00_core.ipynb -> core.html,
replications/r04_iamb.ipynb -> replications/r04_iamb.html), so nbdev's links into the published docs (doc_host +
doc_baseurl) and links to `NN_x.ipynb` both become relative links to the local pages. nbs/index.ipynb becomes
home.html (index.html is the contents page). Nothing is executed: stored outputs are rendered as they are.

The pages work offline and request nothing from the network: formulas (`$...$`, `$$...$$` in markdown and in
markdown outputs, by Pandoc's rule, as Quarto reads them) are converted to MathML here (latex2mathml, in the dev
extra), and every script nbconvert's template loads from a CDN (MathJax, require.js, mermaid) is left out. Signatures
show as plain code (no markdown links, `*args`/`**kwargs` for nbdev's VAR_POSITIONAL/VAR_KEYWORD in notebooks' own
outputs) and must be valid Python (.ci/docs.py renders them so: a description that falls out of its comment fails
here). show_doc's "source" links go to GitHub when settings.ini's git_url is this clone's `origin` remote, else to the
book's own copy of the module (source/semisel/<module>.py.html, highlighted, one anchor per line), which is always
there offline. Usage: python .ci/htmlbook.py [--src _proc] [--out _html]."""
import argparse
import html
import os
import posixpath
import re
import shutil
import sys
from pathlib import Path

import nbformat
import yaml
from latex2mathml.converter import convert as tex2mathml
from nbconvert import HTMLExporter
from nbconvert.preprocessors import TagRemovePreprocessor
from nbdev.config import get_config

HIDE_DIRS = {"hide", "export", "exporti", "default_exp"}     # nbdev's cells without source in the docs
WIDGET = "application/vnd.jupyter.widget-view+json"
CSS = """
body { margin: 0 auto; max-width: 1180px; padding: 0 1.5rem 3rem; }
nav.book-nav { font: 14px/1.6 system-ui, sans-serif; padding: .6rem 0; border-bottom: 1px solid #ddd;
  margin-bottom: 1rem; display: flex; gap: 1.2rem; flex-wrap: wrap; }
nav.book-nav.bottom { border-top: 1px solid #ddd; border-bottom: none; margin-top: 2rem; }
nav.book-nav a { text-decoration: none; }
.jp-RenderedImage img, .jp-RenderedImage > img { max-width: 100%; height: auto; }
.jp-OutputArea-output pre { white-space: pre-wrap; }
.jp-RenderedMarkdown pre { background: #f5f5f5; padding: .6em .8em; border-radius: 3px; margin: .5em 0 1em; }
p.book-description { font-size: 1.1em; color: #444; border-left: 4px solid #ccc; padding-left: .8em; }
p.widget-note { color: #666; font-style: italic; }
p.slow-note { font-size: .85em; color: #7a5200; background: #fff6e0; border-left: 3px solid #e0a800;
  padding: .3em .6em; margin: .8em 0 .2em; }
"""


def page_name(rel: Path) -> Path:
    "nbdev's page for the notebook at `rel` (relative to nbs/): leading 'NN_' dropped, lower case, '.html'."
    if rel.as_posix() == "index.ipynb": return Path("home.html")
    return rel.with_name(re.sub(r"^\d+[a-zA-Z0-9]*_", "", rel.name.lower())).with_suffix(".html")


def book_order(src: Path) -> list[Path]:
    "Notebooks under `src` (relative paths) in the sidebar's order: index, chapters by name, then each folder's."
    nbs = [p.relative_to(src) for p in src.rglob("*.ipynb") if not any(x.startswith((".", "_")) for x in
                                                                       p.relative_to(src).parts)]
    return sorted(nbs, key=lambda p: (len(p.parts) > 1, p.parts[:-1], p.name != "index.ipynb", p.name))


def directives(source: str) -> dict:
    "The leading `#| key: value` / `#| flag` lines of a code cell, as a dict (flags map to '')."
    out = {}
    for line in source.splitlines():
        m = re.match(r"^#\|\s*([\w-]+):?\s*(.*)$", line)
        if not m: break
        out[m.group(1)] = m.group(2).strip()
    return out


def strip_directives(source: str) -> str:
    return "\n".join(l for l in source.splitlines() if not l.startswith("#|")).strip("\n")


def clean_markdown(text: str) -> str:
    "Markdown as Quarto reads it, for a CommonMark renderer: drop Pandoc attribute blocks such as `{target=...}`."
    return re.sub(r"(\]\([^)]*\))\{[^}]*\}", r"\1", text)


CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)     # markdown code: fenced blocks and inline spans
# Pandoc's (so Quarto's) rule for inline math: the opening `$` has a non-space on its right, the closing one a non-space
# on its left and no digit after it ("costs $5 and $10" is no formula); a formula may wrap over lines, not paragraphs
MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?=[^\s$])((?:\\\$|[^$\n]|\n(?![ \t]*\n))+?)(?<=[^\s\\])\$(?![$\d])", re.S)


class Math:
    """Formulas of markdown text replaced by tokens (markdown rendering leaves them alone) and, after rendering, the
    tokens by MathML; formulas latex2mathml cannot convert stay as they were and are listed in `failed`."""
    def __init__(self): self.mathml, self.failed = {}, []

    def tokens(self, text: str) -> str:
        def one(m):
            tex, block = (m.group(1), True) if m.group(1) is not None else (m.group(2), False)
            try: mathml = tex2mathml(tex.strip(), display="block" if block else "inline")
            except Exception as e:                       # latex2mathml raises its own exception types
                self.failed.append(f"{m.group(0)[:80]} ({type(e).__name__})")
                return m.group(0)
            key = f"mathxx{len(self.mathml):05d}xx"
            self.mathml[key] = mathml
            return key
        parts = CODE.split(text)
        return "".join(p if i % 2 else MATH.sub(one, p) for i, p in enumerate(parts))

    def render(self, body: str) -> str:
        return re.sub(r"mathxx\d{5}xx", lambda m: self.mathml.get(m.group(0), m.group(0)), body)


SOURCE_LINK = re.compile(r"\[source\]\(([^)]*)\)(\{[^}]*\})?\s*")
SOURCE_HREF = "book-source:"           # a source link to the offline copy of a module, made relative to each page


def source_links(md: str, git_url: str, branch: str, online: bool) -> str:
    """show_doc's "source" links (.ci/docs.py points them at the defining line under settings.ini's `git_url`) as
    `<a class="source-link">`: kept when `online` (git_url is this clone's remote), else pointed at the book's copy of
    the module (`SOURCE_HREF` + path#Lline, written by `source_page`). A link elsewhere is kept as it is (linkcheck
    fails on it when it leads nowhere)."""
    base = f"{git_url.rstrip('/')}/blob/{branch}/"
    def one(m):
        url = m.group(1)
        if not online and url.startswith(base): url = SOURCE_HREF + url[len(base):]
        return f'<a class="source-link" href="{html.escape(url)}" style="float:right; font-size:smaller">source</a>\n\n'
    return SOURCE_LINK.sub(one, md)


def source_page(path: Path, rel: str, lines: set) -> str:
    """The module at `path` (`rel` in the repository) as a page of the book: highlighted, each line numbered with the
    anchor `L<n>`, the lines in `lines` (those show_doc links to) marked."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer
    fmt = HtmlFormatter(linenos="inline", anchorlinenos=True, lineanchors="L", linespans=None, hl_lines=sorted(lines),
                        wrapcode=True)
    body = highlight(path.read_text(encoding="utf-8"), PythonLexer(), fmt)
    style = fmt.get_style_defs(".highlight") + "\nbody{font:14px/1.5 system-ui,sans-serif;margin:1rem 2rem}" \
        ".highlight pre{font-size:13px}"
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{html.escape(rel)}</title>"
            f"<style>{style}</style></head><body>\n<p><a href='{'../' * rel.count('/')}../index.html'>&#8962; Contents"
            f"</a> &middot; <code>{html.escape(rel)}</code> (generated from the notebooks by nbdev_export)</p>\n{body}"
            "\n</body></html>\n")


def clean_signatures(md: str) -> str:
    """show_doc's signature blocks as plain code: markdown links (nbdev links names in parameter comments) as their
    text, nbdev's `args:VAR_POSITIONAL` / `kwargs:VAR_KEYWORD` as `*args` / `**kwargs`."""
    def block(m):
        code = re.sub(r"\[(`?[^\]]*?`?)\]\([^)]*\)", r"\1", m.group(0))
        code = re.sub(r"\b(\w+):VAR_POSITIONAL\b", r"*\1", code)
        return re.sub(r"\b(\w+):VAR_KEYWORD\b", r"**\1", code)
    return re.sub(r"```python\n.*?```", block, md, flags=re.S)


def signature_errors(nb) -> list[str]:
    """show_doc signatures of the notebook `nb` (```python blocks of markdown outputs that start with `def`) that are not
    valid Python: each must parse with a body added, its descriptions inside `#` comments."""
    import ast
    out = []
    for c in nb.cells:
        for o in c.get("outputs", []):
            for code in re.findall(r"```python\n(.*?)```", o.get("data", {}).get("text/markdown", ""), flags=re.S):
                if not re.match(r"\s*(async )?def ", code): continue
                try: ast.parse(code.strip() + "\n    pass")
                except SyntaxError as e:
                    line = code.strip().splitlines()[(e.lineno or 1) - 1] if e.lineno else ""
                    out.append(f"{code.strip().splitlines()[0]} line {e.lineno}: {line.strip()[:100]!r}")
    return out


def real_repository(git_url: str) -> bool:
    "True when `git_url` (settings.ini) is this clone's `origin` remote, so that source links lead somewhere real."
    import subprocess
    try: origin = subprocess.run(["git", "remote", "get-url", "origin"], capture_output=True, text=True).stdout.strip()
    except OSError: return False
    origin = re.sub(r"^git@([^:]+):", r"https://\1/", origin).removesuffix(".git").rstrip("/")
    return bool(origin) and origin == git_url.removesuffix(".git").rstrip("/")


OFFLINE = [re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S),
           re.compile(r"<script\b[^>]*>(?:(?!</script>).)*?https?://.*?</script>", re.S),
           re.compile(r"<script\b[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>")]


def offline(body: str) -> str:
    "The page without the scripts nbconvert's template loads from CDNs (MathJax and its configuration, require.js...)."
    for pat in OFFLINE: body = pat.sub("", body)
    return body


def split_wide(png: str, ratio: float = 4.0, min_width: int = 2400) -> list[str]:
    """A wide row of panels (a PNG at least `ratio` times as wide as high and `min_width` pixels wide) as two images
    stacked, cut at the blank column (background only) nearest its middle, so that both halves are shown at twice the
    scale the page width allows; the PNG itself (as one image) when it is not that wide or has no blank column there."""
    import base64
    import io

    import numpy as np
    from PIL import Image
    im = Image.open(io.BytesIO(base64.b64decode(png)))
    w, h = im.size
    if w < min_width or w < ratio * h: return [png]
    grey = np.asarray(im.convert("L"))
    mid = np.arange(w // 3, 2 * w // 3)
    blank = mid[(grey[:, mid] >= 250).all(axis=0)]
    if not len(blank): return [png]
    cut = int(blank[np.argmin(abs(blank - w / 2))])
    out = []
    for box in ((0, 0, cut, h), (cut, 0, w, h)):
        buf = io.BytesIO()
        im.crop(box).save(buf, format="PNG", optimize=True)
        out.append(base64.b64encode(buf.getvalue()).decode())
    return out


def collapse_cr(text: str) -> str:
    "What a terminal shows of text with carriage returns (progress bars): the last segment of each line."
    return "\n".join((line.rsplit("\r", 1)[-1] if "\r" in line.rstrip("\r") else line.rstrip("\r")).rstrip()
                     for line in text.split("\n"))


def title_of(nb) -> tuple[str, str]:
    "(title, description) from nbdev's frontmatter (raw cell) or from the notebook's '# Title' / '> description' cell."
    for c in nb.cells:
        if c.cell_type == "raw" and c.source.lstrip().startswith("---"):
            fm = yaml.safe_load(c.source.strip().strip("-")) or {}
            return str(fm.get("title", "")), str(fm.get("description", ""))
        if c.cell_type == "markdown":
            m = re.match(r"^#\s+(.+?)\s*(?:\n+>\s*(.+))?$", c.source.strip(), flags=re.S)
            if m: return m.group(1).strip(), " ".join((m.group(2) or "").split())
            break
    return "", ""


SLOW_NOTE = ("<p class='slow-note'><b>Slow cell</b> (a full-scale run): its output is stored from that run and "
             "recorded in <code>nbs/results/</code>. <code>nbdev_test</code> skips it (<code>--flags slow</code> runs "
             "it); in Jupyter, VS Code, nbconvert or papermill it prints a note and shows its record unless the "
             "environment variable <code>SEMISEL_SLOW=1</code> is set.</p>")


def slow_sources(nb_path: Path) -> set:
    "Sources (directives stripped) of the cells flagged `#| slow` in the notebook at `nb_path`."
    if not nb_path.exists(): return set()
    nb = nbformat.read(nb_path, as_version=4)
    return {strip_directives(c.source) for c in nb.cells if c.cell_type == "code" and "slow" in directives(c.source)}


def prepare(nb, from_proc: bool, slow: set = frozenset(), math: Math | None = None, sources=None):
    """The notebook as the book shows it: title cell, hidden cells dropped, directives applied, outputs tidied, a note
    before each slow cell (`slow`: their sources), formulas as `math` tokens, signatures clean, source links made by
    `sources` (markdown -> markdown; default: left out)."""
    math = math or Math()
    title, desc = title_of(nb)
    cells = []
    if from_proc or not nb.cells or nb.cells[0].cell_type != "markdown":
        head = f"# {title}" + (f"\n\n<p class='book-description'>{inline_code(desc)}</p>" if desc else "")
        cells.append(nbformat.v4.new_markdown_cell(head))
    for i, c in enumerate(nb.cells):
        if c.cell_type == "raw": continue
        if c.cell_type == "markdown":
            src = c.source
            if not from_proc and i == 0 and src.lstrip().startswith("# "):   # the title cell of a notebook
                src = f"# {title}" + (f"\n\n<p class='book-description'>{inline_code(desc)}</p>" if desc else "")
            if src.strip(): cells.append(nbformat.v4.new_markdown_cell(math.tokens(clean_markdown(src))))
            continue
        d = directives(c.source)
        if d.get("include") == "false" or (not from_proc and d.keys() & HIDE_DIRS): continue
        if "nbdev_export()" in c.source: continue
        c.source = strip_directives(c.source)
        if "slow" in d or (c.source.strip() and c.source in slow):
            cells.append(nbformat.v4.new_markdown_cell(SLOW_NOTE))
        tags = set(c.metadata.get("tags", []))
        if d.get("echo") == "false" or not c.source.strip(): tags.add("remove_input")
        if d.get("output") == "false": c.outputs = []
        for o in c.get("outputs", []):
            if o.output_type == "stream": o.text = collapse_cr(o.text)
            data = o.get("data", {})
            if WIDGET in data:
                o.data = {"text/html": "<p class='widget-note'>[interactive widget: run the notebook in Jupyter to "
                                       "use it]</p>"}
            if "text/markdown" in data:
                md = sources(data["text/markdown"]) if sources else SOURCE_LINK.sub("", data["text/markdown"])
                data["text/markdown"] = math.tokens(clean_signatures(clean_markdown(md)))
        c.outputs = [o for o in c.get("outputs", []) if o.output_type != "stream" or o.text.strip()]  # cleared bars
        wide = []
        for o in c.outputs:
            parts = split_wide(o.data["image/png"]) if "image/png" in o.get("data", {}) else [None]
            wide += [o] if len(parts) == 1 else [nbformat.v4.new_output("display_data", {"image/png": p})
                                                 for p in parts]
        c.outputs = wide
        if not c.source.strip() and not c.get("outputs"): continue
        c.metadata["tags"] = sorted(tags)
        cells.append(c)
    nb.cells = cells
    nb.metadata.pop("widgets", None)
    return nb, title, desc


def rewrite_links(body: str, here: Path, src_rel: Path, pages: dict, site: str, ids: dict | None = None,
                  dropped: list | None = None) -> str:
    """Point links to notebooks (`NN_x.ipynb`, relative to the notebook) and to the published docs (`site`...) at the
    local pages, relative to the page `here`. nbdev links every backticked name of its module index, also names with
    no documented section (private helpers, methods without a show_doc): such a link's `#fragment` names no element
    of the page (in the Quarto site too), so, given `ids` (page -> its element ids), it is dropped and the link goes
    to the page that defines the name; each dropped fragment is appended to `dropped`."""
    def fix(m):
        attr, url = m.group(1), html.unescape(m.group(2))
        target, frag = (url.split("#", 1) + [""])[:2]
        if site and url.startswith(site):
            dest = url[len(site):].lstrip("/") or "index.html"
            dest, frag = (dest.split("#", 1) + [""])[:2]
            dest = dest or "index.html"
            if frag and ids is not None and dest in ids and frag not in ids[dest]:
                if dropped is not None: dropped.append(f"{dest}#{frag}")
                frag = ""
        elif target.endswith(".ipynb") and not re.match(r"^[a-z]+:", target):
            nb = Path(posixpath.normpath((src_rel.parent / target).as_posix()))
            if nb not in pages: return m.group(0)
            dest = pages[nb].as_posix()
        else:
            return m.group(0)
        rel = posixpath.relpath(dest, here.parent.as_posix() or ".")
        return f'{attr}="{html.escape(rel + ("#" + frag if frag else ""))}"'
    return re.sub(r'(href)="([^"]*)"', fix, body)


def pandoc_id(text: str) -> str:
    "Pandoc's automatic identifier of a heading (what Quarto, and so nbdev's doc links, use as its anchor)."
    t = re.sub(r"[^\w\s.-]", "", html.unescape(text), flags=re.U).strip().lower()
    t = re.sub(r"\s+", "-", t)
    t = re.sub(r"^[^a-z]+", "", t)
    return t or "section"


def add_pandoc_ids(body: str) -> str:
    "Give each heading, besides nbconvert's id, the id Quarto would give it, so that nbdev's doc links resolve."
    def fix(m):
        text = re.sub(r"<a class=.anchor-link.*?</a>", "", m.group(3), flags=re.S)
        pid = pandoc_id(re.sub(r"<[^>]+>", "", text))
        if f'id="{pid}"' in m.group(2): return m.group(0)
        return f'<h{m.group(1)}{m.group(2)}><span id="{html.escape(pid)}"></span>{m.group(3)}</h{m.group(1)}>'
    return re.sub(r"<h([1-6])([^>]*)>(.*?)</h\1>", fix, body, flags=re.S)


def nav(here: Path, prev, nxt, bottom=False) -> str:
    def a(p, label): return f'<a href="{posixpath.relpath(p.as_posix(), here.parent.as_posix() or ".")}">{label}</a>'
    parts = [a(Path("index.html"), "&#8962; Contents")]
    if prev: parts.append(a(prev[0], "&#8249; " + html.escape(prev[1])))
    if nxt: parts.append(a(nxt[0], html.escape(nxt[1]) + " &#8250;"))
    return f'<nav class="book-nav{" bottom" if bottom else ""}">' + "".join(parts) + "</nav>"


def inline_code(text: str) -> str:
    "Escape `text` for HTML, with Markdown's `code` spans as <code>."
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def index_page(entries, project: str) -> str:
    "The contents page: every page in order, grouped by folder, with its description."
    groups = {}
    for rel, page, title, desc in entries:
        groups.setdefault("Replications" if len(rel.parts) > 1 else "Chapters", []).append((rel, page, title, desc))
    body = [f"<h1>{html.escape(project)}: the book</h1>",
            "<p>Offline rendering of the notebooks in <code>nbs/</code> (stored outputs, nothing re-run).</p>"]
    for name, items in groups.items():
        body.append(f"<h2>{name}</h2><ol class='toc'>")
        for rel, page, title, desc in items:
            body.append(f'<li><a href="{page.as_posix()}">{html.escape(title or rel.stem)}</a> '
                        f'<small><code>{rel.as_posix()}</code></small>'
                        + (f"<br><span class='desc'>{inline_code(desc)}</span>" if desc else "") + "</li>")
        body.append("</ol>")
    style = ("body{font:16px/1.5 system-ui,sans-serif;max-width:900px;margin:2rem auto;padding:0 1rem}"
             "li{margin:.5rem 0}.desc{color:#555;font-size:.92em}small{color:#888}")
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{html.escape(project)}: the book"
            f"</title><style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, default=None, help="_proc (default, from .ci/docs.py) or nbs")
    ap.add_argument("--out", type=Path, default=None, help="output folder (default _html)")
    args = ap.parse_args()
    cfg = get_config()
    root = cfg.config_path
    src = args.src or root / "_proc"
    out = args.out or root / "_html"
    if not src.exists(): sys.exit(f"{src} does not exist: run `python .ci/docs.py` first (or pass --src nbs)")
    from_proc = src.resolve() != cfg.nbs_path.resolve()
    order = book_order(src)
    if not order: sys.exit(f"no notebook under {src}")
    pages = {rel: page_name(rel) for rel in order}
    site = (cfg.get("doc_host", "") + cfg.get("doc_baseurl", "")).rstrip("/")
    if out.exists(): shutil.rmtree(out)
    out.mkdir(parents=True)
    remove = TagRemovePreprocessor(remove_input_tags={"remove_input"}, enabled=True)
    exporter = HTMLExporter(template_name="lab", exclude_input_prompt=True, exclude_output_prompt=True,
                            embed_images=True, preprocessors=[remove])
    math, online = Math(), real_repository(cfg.get("git_url", ""))
    print("source links: " + (f"to {cfg.git_url} (this clone's origin remote)" if online else
                              "to the book's copy of each module under source/ (settings.ini's git_url "
                              f"{cfg.get('git_url', '')} is not this clone's origin remote)"))
    def sources(md): return source_links(md, cfg.get("git_url", ""), cfg.get("branch", "main"), online)
    notebooks = {rel: prepare(nbformat.read(src / rel, as_version=4), from_proc, slow_sources(cfg.nbs_path / rel), math,
                              sources) for rel in order}
    bad_sigs = [f"{rel}: {e}" for rel, (nb, *_) in notebooks.items() for e in signature_errors(nb)]
    entries = [(rel, pages[rel], t or rel.stem, d) for rel, (_, t, d) in notebooks.items()]
    bodies = {}
    for rel, (nb, title, _) in notebooks.items():
        body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title or rel.stem,
                                                                          "path": str((src / rel).parent)}})
        bodies[rel] = add_pandoc_ids(math.render(offline(body)))
    ids = {pages[rel].as_posix(): {html.unescape(i) for i in re.findall(r'\b(?:id|name)="([^"]*)"', body)}
           for rel, body in bodies.items()}
    dropped = []
    for k, (rel, (nb, title, _)) in enumerate(notebooks.items()):
        here = pages[rel]
        prev = (entries[k - 1][1], entries[k - 1][2]) if k else None
        nxt = (entries[k + 1][1], entries[k + 1][2]) if k + 1 < len(entries) else None
        body = rewrite_links(bodies[rel], here, rel, pages, site, ids, dropped)
        body = re.sub(f'href="{SOURCE_HREF}([^"#]*)#L(\\d+)"', lambda m, here=here: 'href="{}.html#L-{}"'.format(
            posixpath.relpath("source/" + m.group(1), here.parent.as_posix() or "."), m.group(2)), body)
        body = body.replace("</head>", f"<style>{CSS}</style>\n</head>", 1)
        body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + nav(here, prev, nxt), body, count=1)
        body = body.replace("</body>", nav(here, prev, nxt, bottom=True) + "\n</body>", 1)
        (out / here).parent.mkdir(parents=True, exist_ok=True)
        (out / here).write_text(body, encoding="utf-8")
        print(f"{rel.as_posix():40s} -> {out.name}/{here.as_posix()} ({len(body) // 1024} KB)")
    (out / "index.html").write_text(index_page(entries, cfg.get("lib_name", "book")), encoding="utf-8")
    linked = {}
    for body in bodies.values():
        for path, line in re.findall(f'href="{SOURCE_HREF}([^"#]*)#L(\\d+)"', body): linked.setdefault(path, set()).add(
            int(line))
    for path, lines in sorted(linked.items()):
        if not (root / path).is_file(): continue                      # .ci/linkcheck.py reports the link
        (out / "source" / path).parent.mkdir(parents=True, exist_ok=True)
        (out / "source" / f"{path}.html").write_text(source_page(root / path, path, lines), encoding="utf-8")
    if linked: print(f"{len(linked)} module(s) copied to {out.name}/source/, {sum(map(len, linked.values()))} of their "
                     "lines linked from the pages")
    print(f"{len(entries)} pages and {out.name}/index.html written to {out}{os.sep}")
    if dropped:
        print(f"{len(dropped)} doc link(s) to a name with no documented section now point to its page: "
              + ", ".join(sorted(set(dropped))))
    missing = sorted(set(book_order(cfg.nbs_path)) - set(order)) if from_proc else []
    print(f"{len(math.mathml)} formulas rendered as MathML")
    if math.failed: sys.exit(f"{len(math.failed)} formula(s) latex2mathml cannot convert: " + "; ".join(math.failed))
    if bad_sigs: sys.exit(f"{len(bad_sigs)} show_doc signature(s) are not valid Python (a description fell out of "
                          "its comment?):\n" + "\n".join(bad_sigs))
    if missing: sys.exit(f"not in {src} (did the docs processing fail?): {', '.join(p.as_posix() for p in missing)}")


if __name__ == "__main__": main()
