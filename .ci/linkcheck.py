"""Check the offline book in _html/ (from .ci/htmlbook.py) without any network request: every local href/src resolves to
an existing file (and a `#fragment` to an element of that page), every <img> carries its picture (a data: URI or an
existing local file; an image from the web is an error), and file:// URLs exist. External links are counted by host,
not fetched. Two checks of the text besides (no browser needed): each show_doc signature (a highlighted code block
that starts with `def`) comes with its "source" link (`a.source-link`, checked as any other link: offline, to the
book's copy of the module at the defining line), and the text a reader sees (code, preformatted output and MathML left
aside) holds no `$`: a formula the book did not convert to MathML. Exit 1 listing the problems. Usage: python
.ci/linkcheck.py [folder]."""
import re
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

REF_ATTRS = {"a": "href", "link": "href", "area": "href", "img": "src", "script": "src", "iframe": "src",
             "source": "src", "video": "src", "audio": "src", "embed": "src"}


class Page(HTMLParser):
    """Collects the ids/names of a page and its (tag, attribute, url, line) references; the lines of its show_doc
    signatures and source links; and the lines where its visible text (outside code, pre, MathML, scripts) has a `$`."""
    SKIP = {"script", "style", "pre", "code", "math", "textarea"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.refs = set(), []
        self.signatures, self.source_links, self.dollars = [], [], []
        self.skip, self.pre, self.divs = [], None, []

    def handle_endtag(self, tag):
        if tag == "div" and self.divs: self.divs.pop()
        if tag in self.skip:
            while self.skip and self.skip.pop() != tag: pass
        if tag == "pre" and self.pre is not None:
            if re.match(r"\s*(async\s+)?def\s", "".join(self.pre[1])): self.signatures.append(self.pre[0])
            self.pre = None

    def handle_data(self, data):
        if self.pre is not None: self.pre[1].append(data)
        if not self.skip and "$" in data: self.dollars.append((self.getpos()[0], " ".join(data.split())[:100]))

    def handle_startendtag(self, tag, attrs): self._start(tag, attrs, void=True)

    def handle_starttag(self, tag, attrs): self._start(tag, attrs)

    def _start(self, tag, attrs, void=False):
        a = dict(attrs)
        if tag in self.SKIP and not void: self.skip.append(tag)
        if tag == "div" and not void: self.divs.append(a.get("class") or "")
        in_markdown = any("jp-RenderedMarkdown" in c for c in self.divs)     # an output: show_doc's, not a code cell
        if tag == "pre" and self.pre is None and not void and in_markdown: self.pre = (self.getpos()[0], [])
        if tag == "a" and "source-link" in (a.get("class") or "").split(): self.source_links.append(self.getpos()[0])
        for k in ("id", "name"):
            if a.get(k): self.ids.add(a[k])
        if tag in REF_ATTRS:
            url = a.get(REF_ATTRS[tag])
            if url is None and tag == "img": url = ""
            if url is not None: self.refs.append((tag, REF_ATTRS[tag], url.strip(), self.getpos()[0]))
        if tag == "img" and a.get("srcset"):
            self.refs.append((tag, "srcset", a["srcset"].split()[0], self.getpos()[0]))


def parse(path: Path) -> Page:
    p = Page()
    p.feed(path.read_text(encoding="utf-8", errors="replace"))
    return p


def check(folder: Path):
    "(problems, external hosts counter, number of pages, number of local references checked)."
    pages = {p.resolve(): parse(p) for p in sorted(folder.rglob("*.html"))}
    problems, external, n_local = [], Counter(), 0
    for path, page in pages.items():
        where = path.relative_to(folder.resolve())
        for tag, attr, url, line in page.refs:
            at = f"{where}:{line}: <{tag} {attr}>"
            if tag == "img" and not url:
                problems.append(f"{at} has no picture (empty src)")
                continue
            parts = urlsplit(url)
            scheme = parts.scheme.lower()
            if scheme in ("mailto", "javascript", "tel"): continue
            if scheme == "data":
                if tag == "img" and "," not in url or url.endswith(","): problems.append(f"{at} has an empty data URI")
                continue
            if scheme in ("http", "https") or url.startswith("//"):
                external[parts.netloc] += 1
                if tag == "img": problems.append(f"{at} loads its picture from the web ({url[:80]}): embed it")
                continue
            if scheme and scheme != "file":
                problems.append(f"{at} has an unknown scheme: {url[:80]}")
                continue
            n_local += 1
            if scheme == "file": target = Path(unquote(parts.path))
            elif parts.path: target = (path.parent / unquote(parts.path)).resolve()
            else: target = path
            if not target.exists():
                problems.append(f"{at} points to a missing file: {url[:120]}")
                continue
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if parts.fragment not in ids and unquote(parts.fragment) not in ids:
                    problems.append(f"{at} points to a missing anchor: {url[:120]}")
        if len(page.source_links) != len(page.signatures):
            problems.append(f"{where}: {len(page.signatures)} show_doc signature(s) but {len(page.source_links)} source "
                            f"link(s) (first signature at line {page.signatures[0]})")
        problems += [f"{where}:{line}: a `$` in the text, a formula not converted to MathML: {text!r}"
                     for line, text in page.dollars]
    n_sig, n_src = (sum(len(getattr(p, k)) for p in pages.values()) for k in ("signatures", "source_links"))
    print(f"{n_src} source link(s) for {n_sig} show_doc signature(s)")
    return problems, external, len(pages), n_local


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "_html")
    if not folder.is_dir(): sys.exit(f"{folder} is not a folder: run `python .ci/htmlbook.py` first")
    problems, external, n_pages, n_local = check(folder)
    print(f"{n_pages} pages, {n_local} local references checked; external references (not fetched): "
          + (", ".join(f"{h} x{n}" for h, n in external.most_common()) or "none"))
    if problems:
        print("\n".join([f"FAIL: {len(problems)} problem(s):"] + problems[:200]), file=sys.stderr)
        sys.exit(1)
    print("all local links, anchors and images resolve")


if __name__ == "__main__": main()
