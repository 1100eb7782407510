"""The offline book's rendering helpers (.ci/htmlbook.py): formulas to MathML outside code (Pandoc's rule), clean
signatures that are valid Python, source links that work offline, no CDN scripts, wide rows of panels split in two;
.ci/linkcheck.py's text checks (a source link per signature, no `$` left); and .ci/docs.py's show_doc signatures for every
public symbol. The book itself is checked by .ci/linkcheck.py and, in headless Chromium, by .ci/offline.py."""
import ast
import base64
import importlib.util
import inspect
import io
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("latex2mathml")
pytest.importorskip("nbconvert")
spec = importlib.util.spec_from_file_location("htmlbook", Path(__file__).parents[1] / ".ci" / "htmlbook.py")
hb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hb)


def test_formulas_become_mathml_outside_code():
    m = hb.Math()
    md = "MI $I(X;Y)$ in nats, `$not$ code`, costs $5 and $10, and\n\n$$\\hat I = \\sum_x p(x)$$\n\n```\n$x$\n```"
    out = m.tokens(md)
    assert len(m.mathml) == 2 and not m.failed
    assert "`$not$ code`" in out and "costs $5 and $10" in out and "```\n$x$\n```" in out
    html = m.render(out)
    assert html.count("<math") == 2 and 'display="block"' in html and "$$" not in html


def test_signatures_are_clean_code():
    md = ("```python\n\ndef make_test(\n    test:str='g-adf', # see [`g_test`](https://x.io/a.html#g_test).\n"
          "    args:VAR_POSITIONAL, kwargs:VAR_KEYWORD\n):\n```\n\nProse keeps [`g_test`](https://x.io/a.html#g_test).")
    out = hb.clean_signatures(md)
    assert "# see `g_test`." in out and "*args, **kwargs" in out and "VAR_" not in out
    assert out.endswith("Prose keeps [`g_test`](https://x.io/a.html#g_test).")
    link = '[source](https://github.com/a/b/blob/main/x.py#L3){target="_blank"}\n\n### f'
    assert hb.SOURCE_LINK.sub("", link) == "### f"


def test_no_cdn_scripts():
    body = ('<head><script src="https://cdnjs.cloudflare.com/require.min.js"></script><style>p{}</style>\n'
            '<!-- Load mathjax -->\n<script src="https://cdn/mathjax.js"> </script>'
            '<script type="text/x-mathjax-config">'
            'MathJax.Hub.Config({});</script>\n<!-- End of mathjax configuration --><script type="module">'
            'import("https://cdn/mermaid.mjs")</script><script>var local = 1;</script></head>')
    out = hb.offline(body)
    assert "https://" not in out and "<style>p{}</style>" in out and "var local = 1;" in out


def png(w, h, gaps=()):
    from PIL import Image
    a = np.zeros((h, w), np.uint8)
    for g in gaps: a[:, g:g + 20] = 255
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode()


def test_wide_rows_of_panels_split_at_a_blank_column():
    from PIL import Image
    parts = hb.split_wide(png(3600, 500, gaps=(880, 1790, 2700)))
    sizes = [Image.open(io.BytesIO(base64.b64decode(p))).size for p in parts]
    assert sizes == [(1800, 500), (1800, 500)]                       # cut in the middle gap
    assert len(hb.split_wide(png(3600, 500))) == 1                   # no blank column: left whole
    assert len(hb.split_wide(png(1200, 500, gaps=(590,)))) == 1      # not wide: left whole


def test_math_follows_pandoc_rules():
    "Pandoc's (Quarto's) rule: a formula may wrap over a line, touch a word, be followed by a letter; not by a digit."
    m = hb.Math()
    out = m.tokens("from\n$N=10$k on; max-BEPP$_k$; $X \\perp Y_0\n\\mid Z$; costs $5 and $10; $a$\n\n$b$; $x $y")
    assert len(m.mathml) == 5 and not m.failed and "costs $5 and $10" in out and "$x $y" in out


def test_source_links_point_at_the_books_copy_offline():
    md = '---\n\n[source](https://github.com/u/r/blob/main/semisel/iamb.py#L624){target="_blank" style="x"}\n\n### f'
    off = hb.source_links(md, "https://github.com/u/r", "main", online=False)
    assert 'class="source-link" href="book-source:semisel/iamb.py#L624"' in off and off.endswith("### f")
    on = hb.source_links(md, "https://github.com/u/r", "main", online=True)
    assert 'href="https://github.com/u/r/blob/main/semisel/iamb.py#L624"' in on


def test_signature_check_catches_a_description_out_of_its_comment():
    import nbformat
    good = "```python\n\ndef f(\n    a,  # one\n        # two\n    *,\n    b=1,\n):\n\n```"
    bad = "```python\n\ndef f(\n    a, # one\ntwo words\n):\n\n```"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
        "display_data", {"text/markdown": md}) for md in (good, bad)])])
    errors = hb.signature_errors(nb)
    assert len(errors) == 1 and "two words" in errors[0]


lc_spec = importlib.util.spec_from_file_location("linkcheck", Path(__file__).parents[1] / ".ci" / "linkcheck.py")
lc = importlib.util.module_from_spec(lc_spec)
lc_spec.loader.exec_module(lc)


def test_linkcheck_finds_dollars_and_signatures_without_source(tmp_path):
    sig = '<hr/><h3 id="f">f</h3><div class="highlight"><pre><span class="k">def</span> f(\n):</pre></div>'
    page = (f'<div class="jp-RenderedMarkdown">{sig}<p>costs <code>$x$</code> and <math>$</math>, but $y$ left</p>'
            '</div><div class="jp-InputArea"><pre>def g(): pass</pre></div>')
    (tmp_path / "a.html").write_text(page)
    problems = lc.check(tmp_path)[0]
    assert len(problems) == 2 and "1 show_doc signature(s) but 0 source link(s)" in problems[0]
    assert "$y$ left" in problems[1]
    (tmp_path / "m.py.html").write_text('<a id="L-3"></a>')
    (tmp_path / "a.html").write_text(page.replace("<hr/>", '<hr/><a class="source-link" href="m.py.html#L-3">source</a>')
                                     .replace("$y$", "y"))
    assert lc.check(tmp_path)[0] == []


docs_spec = importlib.util.spec_from_file_location("docs", Path(__file__).parents[1] / ".ci" / "docs.py")
docs = importlib.util.module_from_spec(docs_spec)
docs_spec.loader.exec_module(docs)


def shown_symbols():
    "Every public function and class of semisel and semisel.experiments (what show_doc renders in the book)."
    import importlib as il
    import pkgutil

    import semisel
    mods = ["semisel"] + [m.name for m in pkgutil.walk_packages(semisel.__path__, "semisel.")
                          if not m.name.split(".")[-1].startswith("_")]
    seen = {}
    for name in mods:
        for nm, obj in vars(il.import_module(name)).items():
            if not nm.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj)) and \
                    getattr(obj, "__module__", "").startswith("semisel"):
                seen[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return list(seen.items())


def check_signature(text: str, sym, docs_of: dict):
    "The rendered signature `text` of `sym` is Python with `sym`'s parameters, kinds and defaults, and every description."
    tree = ast.parse(text.strip() + "\n    pass").body[0]
    a, sig = tree.args, inspect.signature(sym)
    kinds = ([(x.arg, "POSITIONAL_ONLY") for x in a.posonlyargs] + [(x.arg, "POSITIONAL_OR_KEYWORD") for x in a.args]
             + ([(a.vararg.arg, "VAR_POSITIONAL")] if a.vararg else []) + [(x.arg, "KEYWORD_ONLY") for x in a.kwonlyargs]
             + ([(a.kwarg.arg, "VAR_KEYWORD")] if a.kwarg else []))
    assert kinds == [(p.name, p.kind.name) for p in sig.parameters.values()]
    n_defaults = len(a.defaults) + sum(d is not None for d in a.kw_defaults)
    assert n_defaults == sum(p.default is not p.empty for p in sig.parameters.values())
    comments = " ".join(re.findall(r"#\s?(.*)$", text, flags=re.M)).split()
    for doc in filter(None, docs_of.values()):
        words = doc.split()
        assert any(comments[i:i + len(words)] == words for i in range(len(comments))), doc[:80]


def test_rendered_signatures_are_python_with_every_marker_and_description():
    """show_doc's signatures as the book renders them (.ci/docs.py's `BookRenderer`), for every public symbol: valid
    Python with the parameters' kinds (the keyword-only `*`), defaults, and each description whole in comments."""
    from nbdev.showdoc import show_doc
    failures = []
    for name, sym in shown_symbols():
        try: inspect.signature(sym)
        except (TypeError, ValueError): continue             # no signature (an exception class): fastcore's text
        r = show_doc(sym, renderer=docs.BookRenderer)
        md = r._repr_markdown_()
        text = re.search(r"```python\n(.*?)```", md, flags=re.S).group(1)
        try: check_signature(text, r.sym, {k: v.get("docment") for k, v in r.dm.dm.items()})
        except (SyntaxError, AssertionError) as e: failures.append(f"{name}: {type(e).__name__} {e}"[:200])
    assert not failures, "\n".join(failures)
