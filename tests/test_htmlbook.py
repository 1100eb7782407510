"""The offline book's rendering helpers (.ci/htmlbook.py): formulas to MathML outside code, clean signatures, no CDN
scripts, wide rows of panels split in two. The book itself is checked in headless Chromium by .ci/offline.py."""
import base64
import importlib.util
import io
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
