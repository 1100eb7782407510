"""Every public figure function of semisel and semisel.experiments, drawn on small inputs: it runs, the figure it makes
is at least 600 px wide at no less than 100 dpi (legible at a notebook's width), its axes carry labels and a title, and
no two tick labels overlap. A new public function that draws must be added to FIGURES (the discovery test fails)."""
import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import semisel
import semisel.experiments

MIN_WIDTH_PX, MIN_DPI = 600, 100


def public_functions():
    "(module name, function name, function) of every public function defined in semisel and semisel.experiments."
    mods = [m.name for m in pkgutil.walk_packages(semisel.__path__, "semisel.")
            if not m.name.split(".")[-1].startswith("_")]
    for name in ["semisel"] + mods:
        if name == "semisel.cli": continue
        mod = importlib.import_module(name)
        for fname, f in vars(mod).items():
            if inspect.isfunction(f) and f.__module__ == name and not fname.startswith("_"):
                yield name, fname, f


def draws(f) -> bool:
    "True for a function that draws with matplotlib (imports or calls pyplot, or takes an `ax`/`axes` to draw on)."
    src = inspect.getsource(f)
    params = inspect.signature(f).parameters
    return "plt." in src or "matplotlib" in src or bool({"ax", "axes"} & set(params))


# --- small inputs for each figure function: a callable returning the Figure it drew (or a list of them) -------------

def _explorer():
    "power_explorer draws into an ipywidgets Output with IPython's display(): capture the figure handed to display()."
    import IPython.display
    from semisel.power import power_explorer
    shown, real = [], IPython.display.display
    IPython.display.display = lambda *objs, **kw: shown.extend(objs)
    try: power_explorer(p=50, n=50, m=400)
    finally: IPython.display.display = real
    figs = [o for o in shown if isinstance(o, matplotlib.figure.Figure)]
    assert figs, "power_explorer drew no figure"
    return figs


def _acceptance_rates():
    from semisel.experiments.surrogates import acceptance_rates
    return acceptance_rates([0.0, 0.01, 0.02], n=200, arity=2, p_y=0.3, p_labelled=0.3, repetitions=20, random_state=0)


def _plot_acceptance():
    from semisel.experiments.surrogates import plot_acceptance
    return plot_acceptance(_acceptance_rates(), title="test").figure


def _plot_figures():
    from semisel.experiments.surrogates import plot_figures
    r = _acceptance_rates()
    return [plot_figures({"3a": r}), plot_figures({"3a": r, "3b": r, "4a": r, "4b": r})]


def _plot_theta():
    from semisel.experiments.fscpu import plot_theta
    fig, ax = plt.subplots(figsize=(6.4, 3))
    rng = np.random.default_rng(0)
    plot_theta(np.clip(0.5 + rng.normal(0, 0.1, (50, 6)).cumsum(0) / 5, 0, 1), [0, 1], ax, "θ trajectories")
    ax.set_ylabel("θ")                                             # the caller labels θ (panels share it)
    return fig


def _plot_protocol():
    from semisel.experiments.iamb import plot_protocol, run_protocol
    res = run_protocol(("asia",), ("mcar",), sizes=(500, 1000), trials=2, versions=2, progress=False)
    one = plot_protocol(res[res.n == 500], "mcar")
    return [one[0].figure, plot_protocol(res, "mcar")[0].figure]


def _plot_cd():
    from semisel.experiments.ranking import plot_cd
    return plot_cd(pd.Series({"Semi-JMI": 1.4, "MINT": 2.2, "Semi-MIM": 2.4}), 1.3, title="test").figure


FIGURES = {
    "semisel.power.power_explorer": _explorer,
    "semisel.experiments.surrogates.plot_acceptance": _plot_acceptance,
    "semisel.experiments.surrogates.plot_figures": _plot_figures,
    "semisel.experiments.fscpu.plot_theta": _plot_theta,
    "semisel.experiments.iamb.plot_protocol": _plot_protocol,
    "semisel.experiments.ranking.plot_cd": _plot_cd,
}
NO_AXIS_LABELS = {"semisel.experiments.ranking.plot_cd"}          # a critical-difference diagram: axis drawn off


def test_every_figure_function_is_covered():
    found = {f"{m}.{n}" for m, n, f in public_functions() if draws(f)}
    assert found == set(FIGURES), (f"figure functions without a test here: {sorted(found - set(FIGURES))}; "
                                   f"listed but not found: {sorted(set(FIGURES) - found)}")


def overlapping_ticklabels(fig) -> list[tuple[str, str]]:
    "Pairs of visible, non-empty tick labels (major and minor, per axis) whose drawn boxes intersect."
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    canvas = FigureCanvasAgg(fig)                  # a figure closed by its function (power_explorer) has no canvas left
    canvas.draw()
    renderer = canvas.get_renderer()
    bad = []
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison: continue
        for axis in (ax.xaxis, ax.yaxis):
            labels = [t for t in axis.get_ticklabels(which="both") if t.get_visible() and t.get_text().strip()]
            boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in labels]
            bad += [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:]
                    if ba.overlaps(bb) and ba.width > 0 and bb.width > 0]
    return bad


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure(name):
    figs = FIGURES[name]()
    figs = figs if isinstance(figs, list) else [figs]
    try:
        for fig in figs:
            width = fig.get_size_inches()[0] * fig.dpi
            assert fig.dpi >= MIN_DPI, f"{name}: drawn at {fig.dpi} dpi"
            assert width >= MIN_WIDTH_PX, f"{name}: {width:.0f} px wide at {fig.dpi} dpi"
            axes = [ax for ax in fig.axes if ax.get_visible() and (ax.has_data() or ax.texts or ax.collections)]
            assert axes, f"{name}: nothing drawn"
            for ax in axes:
                assert ax.get_title() or fig.get_suptitle(), f"{name}: a panel without a title"
                if name not in NO_AXIS_LABELS:
                    assert ax.get_xlabel() or ax.get_xticklabels(), f"{name}: no x label"
                    assert ax.get_ylabel() or ax is not axes[0], f"{name}: no y label on the first panel"
            assert not overlapping_ticklabels(fig), f"{name}: overlapping tick labels {overlapping_ticklabels(fig)[:5]}"
    finally:
        plt.close("all")


def test_overlap_check_catches_garbled_log_ticks():
    "The check itself: a log axis over a narrow range, as Fig 5 once was, has colliding minor tick labels."
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([2.5, 10, 50], [0.2, 0.4, 0.6])
    ax.set_xscale("log")
    try: assert overlapping_ticklabels(fig)
    finally: plt.close(fig)


def test_cd_diagram_lines_cross_no_label():
    """Issue 27 point 2: in replication 05's critical-difference diagrams (Figs 13-14) every method's label stands
    clear: no two labels overlap and no line crosses a label (they did: labels centred under their ranks, crossed by the
    lines of the methods drawn below them)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from semisel.experiments.ranking import plot_cd
    ranks = pd.Series({"FW-SemiFS": 3.0, "CLS": 4.57, "SemiFS": 3.57, "RRPC": 3.14, "MINT": 3.71, "Semi-JMI": 3.0})
    fig = plot_cd(ranks, 2.59, title="test").figure
    try:
        FigureCanvasAgg(fig).draw()
        renderer = fig.canvas.get_renderer()
        ax = fig.axes[0]
        labels = [t for t in ax.texts if "(" in t.get_text()]
        boxes = [t.get_window_extent(renderer).expanded(0.98, 0.9) for t in labels]
        assert len(labels) == len(ranks)
        assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
        for line in ax.lines:                                   # segments are vertical or horizontal: box tests suffice
            pts = ax.transData.transform(line.get_xydata())
            for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:]):
                for t, b in zip(labels, boxes):
                    assert not (min(x0, x1) < b.x1 and max(x0, x1) > b.x0 and min(y0, y1) < b.y1 and max(y0, y1) > b.y0), \
                        f"a line crosses the label {t.get_text()!r}"
    finally:
        plt.close("all")


# --- the book's own figures: cells of the notebooks that draw with matplotlib directly ------------------------------

DRAWING = {"boxplot", "plot", "bar", "barh", "scatter", "hist", "imshow", "errorbar", "fill_between", "step",
           "violinplot", "pcolormesh", "matshow", "hexbin", "stem", "heatmap"}
LABELS = {"x": {"set_xlabel", "xlabel", "supxlabel", "set_xticklabels"}, "y": {"set_ylabel", "ylabel", "supylabel",
                                                                                "set_yticklabels"}}


def _calls(tree):
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def _name(call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def labelled(trees, library: set) -> dict:
    """Which axes ('x', 'y') the drawing code `trees` labels: a label or named ticks (`set_xticks(pos, names)`, a box
    plot's `tick_labels`, a pandas bar chart's index), the axes turned off, or a call to a library figure function
    (`library`: they are checked above)."""
    out = {"x": False, "y": False}
    for call in (c for t in trees for c in _calls(t)):
        nm, kws = _name(call), {k.arg for k in call.keywords}
        named_ticks = {a for a in "xy" if nm == f"set_{a}ticks" and (len(call.args) > 1 or "labels" in kws)}
        off = nm == "set_axis_off" or (nm == "axis" and call.args and getattr(call.args[0], "value", None) == "off")
        for a in "xy":
            if nm in LABELS[a] or f"{a}label" in kws or a in named_ticks or off or nm in library: out[a] = True
        if nm == "boxplot" and kws & {"tick_labels", "labels"}: out["x"] = True
        f = call.func                                              # df.plot.bar(): the index names the bars
        if nm in ("bar", "barh") and isinstance(getattr(f, "value", None), ast.Attribute) and f.value.attr == "plot":
            out["x" if nm == "bar" else "y"] = True
    return out


def draws_directly(trees) -> bool:
    "True when the code calls a matplotlib/seaborn/pandas drawing method itself (not only library figure functions)."
    return any(_name(c) in DRAWING for t in trees for c in _calls(t))


def _parse(src: str):
    try: return ast.parse("\n".join(l for l in src.splitlines() if not l.lstrip().startswith(("%", "!"))))
    except SyntaxError: return None


def unlabelled_figures(nb_path, library: set) -> list[str]:
    """Cells of the notebook at `nb_path` that store a figure drawn by the notebook's own code (the cell and the
    functions it calls that the notebook defines, not exports) without a label on an axis."""
    import json
    cells = [c for c in json.loads(nb_path.read_text())["cells"] if c["cell_type"] == "code"]
    defs = {}
    for c in cells:
        src = "".join(c["source"])
        if re.search(r"^#\|\s*export", src, flags=re.M) or (tree := _parse(src)) is None: continue
        defs.update({n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)})
    out = []
    for c in cells:
        if not any("image/png" in o.get("data", {}) for o in c.get("outputs", [])): continue
        if (tree := _parse("".join(c["source"]))) is None: continue
        trees, todo, seen = [], [tree], set()
        while todo:
            t = todo.pop()
            trees.append(t)
            for nm in {_name(call) for call in _calls(t)} & set(defs) - seen:
                seen.add(nm)
                todo.append(defs[nm])
        if not draws_directly(trees): continue
        missing = [a for a, ok in labelled(trees, library).items() if not ok]
        if missing: out.append(f"{nb_path.relative_to(NBS.parent)} cell {c.get('id')}: no {' or '.join(missing)} label")
    return out


NBS = Path(__file__).resolve().parents[1] / "nbs"


def test_book_figures_label_their_axes():
    "Every figure a notebook draws itself labels both axes (or names its ticks, or turns the axes off)."
    library = {name for _, name, f in public_functions() if draws(f)}
    problems = [p for nb in sorted(NBS.rglob("*.ipynb")) if not any(x.startswith((".", "_")) for x in nb.parts)
                for p in unlabelled_figures(nb, library)]
    assert not problems, "\n".join(problems)


def test_label_check_catches_an_unlabelled_box_plot():
    "The check itself: a box plot with named boxes but no y label fails on y only."
    trees = [ast.parse('fig, ax = plt.subplots()\nax.boxplot([a, b], tick_labels=["a", "b"])')]
    assert draws_directly(trees) and labelled(trees, set()) == {"x": True, "y": False}
    trees.append(ast.parse('ax.set_ylabel("Kuncheva index")'))
    assert labelled(trees, set()) == {"x": True, "y": True}
