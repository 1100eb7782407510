"""semisel.continuous against R's bnlearn 4.9 `ci.test` (skipped without R and bnlearn): the p-values of "mi-cg",
"zf", "mi-g" and "cor" to 1e-8 on 60 cases each (varied n, numbers of continuous and discrete conditioning columns,
levels, correlations, near-singular conditioning sets, strata too small for their regressions); the permutation
tests on bnlearn's own permutations (R's random numbers replayed), where the counts must be bnlearn's exactly; and
the documented differences (units, a column that is a function of z, the unconditional singular cases, discrete x
and y given continuous z), each shown against R. One Rscript call per family (about a minute in all)."""
import json
import os
import subprocess
import tempfile

import numpy as np
import pandas as pd
import pytest

from semisel.blankets import BNLEARN_LIB, bnlearn_available
from semisel.continuous import continuous_test, permuted_statistics

pytestmark = pytest.mark.skipif(not bnlearn_available(), reason="R with bnlearn 4.9 is not available")

R_HEAD = f'.libPaths(c("{BNLEARN_LIB}", .libPaths())); suppressMessages(library(bnlearn)); library(jsonlite)\n'
READ = """read_case = function(case) {
  d = read.csv(case$csv)
  for (v in names(d)) d[[v]] = if (v %in% case$factors) factor(d[[v]], levels = 0:(case$levels[[v]] - 1)) else as.numeric(d[[v]])
  d
}
zs = function(case) { z = unlist(case$z); if (is.null(z)) character(0) else z }
"""


def run_r(body: str, cases: list, tmp: str) -> list:
    "Run R on `cases` (dicts with a csv path); `body` fills `out[[i]]` for case i; returns the parsed list."
    spec, out, script = (os.path.join(tmp, f) for f in ("cases.json", "out.json", "run.R"))
    with open(spec, "w") as f: json.dump(cases, f)
    with open(script, "w") as f:
        f.write(R_HEAD + READ + f'cases = fromJSON("{spec}", simplifyVector = FALSE)\nout = list()\n'
                + "for (i in seq_along(cases)) {\n  case = cases[[i]]\n  d = read_case(case)\n" + body + "}\n"
                + f'write(toJSON(out, digits = NA, auto_unbox = TRUE), "{out}")\n')
    r = subprocess.run(["Rscript", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    with open(out) as f: return json.load(f)


def save(frame: pd.DataFrame, tmp: str, i: int, **case) -> dict:
    "Write a case's data; discrete columns (integers) become R factors with levels 0..max."
    csv = os.path.join(tmp, f"case{i}.csv")
    frame.to_csv(csv, index=False, float_format="%.17g")
    factors = [c for c in frame.columns if frame[c].dtype.kind in "iu"]
    return dict(csv=csv, factors=factors, levels={c: int(frame[c].max()) + 1 for c in factors}, **case)


def cg_case(rng, i):
    "A random mixed case: x and y of the kinds given by i, 0-3 continuous and 0-2 discrete conditioning columns."
    n = int(rng.choice([25, 60, 150, 400, 1500, 4000]))
    kinds = [("c", "d"), ("d", "c"), ("c", "c")][i % 3]
    qc, qd = int(rng.integers(0, 4)), int(rng.integers(0, 3))
    if kinds == ("c", "c") and qd == 0: qd = 1                # bnlearn's mi-cg needs a discrete column somewhere
    if kinds[0] == "c" and kinds[1] == "d" and qc + qd == 0 and i % 2: qc = 1
    G = rng.normal(size=(n, qc)) * rng.uniform(0.5, 3, qc)
    if qc >= 2 and i % 5 == 0: G[:, 1] = G[:, 0] + 1e-3 * rng.normal(size=n)          # near-singular
    Zd = np.column_stack([rng.integers(0, int(rng.integers(2, 5)), n) for _ in range(qd)]) if qd else np.zeros((n, 0), int)
    ky = int(rng.integers(2, 5))
    signal = G.sum(1) * rng.uniform(0, 1) + Zd.sum(1) * rng.uniform(0, 1)
    effect = rng.choice([0.0, 0.1, 0.3])
    frame = pd.DataFrame({f"g{j}": G[:, j] for j in range(qc)} | {f"d{j}": Zd[:, j] for j in range(qd)})
    if kinds[1] == "d":
        yv = np.digitize(signal + rng.normal(size=n), np.quantile(signal, np.linspace(0, 1, ky + 1)[1:-1]))
    else:
        yv = signal + rng.normal(size=n) * rng.uniform(0.5, 2)
    if kinds[0] == "c":
        xv = signal * rng.uniform(-1, 1) + effect * yv + rng.standard_normal(n) * rng.uniform(0.5, 2)
    else:
        xv = np.digitize(signal + effect * yv + rng.normal(size=n), [-0.5, 0.5][: int(rng.integers(1, 3))])
    frame.insert(0, "y", yv)
    frame.insert(0, "x", xv)
    return frame, [c for c in frame.columns if c not in ("x", "y")]


def test_mi_cg_equals_bnlearn():
    rng = np.random.default_rng(2024)
    with tempfile.TemporaryDirectory() as tmp:
        cases, frames = [], []
        for i in range(66):
            frame, z = cg_case(rng, i)
            frames.append((frame, z))
            cases.append(save(frame, tmp, i, z=z))
        body = ('  r = suppressWarnings(ci.test("x", "y", zs(case), data = d, test = "mi-cg"))\n'
                '  out[[i]] = list(stat = unname(r$statistic), df = unname(r$parameter), p = r$p.value)\n')
        theirs = run_r(body, cases, tmp)
    diffs, singular = [], 0
    for (frame, z), t in zip(frames, theirs):
        r = continuous_test(frame.x, frame.y, frame[z] if z else None, "mi-cg")
        assert r.dof == pytest.approx(t["df"]), (z, r.dof, t["df"])
        assert abs(r.pvalue - t["p"]) <= 1e-8, (z, r, t)
        assert r.statistic == pytest.approx(t["stat"], rel=1e-8, abs=1e-9)
        diffs.append(abs(r.pvalue - t["p"]))
        singular += t["stat"] == 0
    assert len(diffs) >= 50 and 2 <= singular < len(diffs) / 2   # some strata too small for their regressions
    print(f"mi-cg: {len(diffs)} cases ({singular} singular), largest |p - p_bnlearn| = {max(diffs):.1e}")


def gaussian_case(rng, i):
    "A continuous case: 0-5 conditioning columns, some exactly or nearly collinear, from 8 to 5000 rows."
    n = int(rng.choice([8, 12, 30, 100, 1000, 5000]))
    q = int(rng.integers(0, 6))
    Z = rng.normal(size=(n, q)) @ (np.eye(q) + 0.5 * rng.normal(size=(q, q))) if q else np.zeros((n, 0))
    if q >= 2 and i % 4 == 1: Z[:, -1] = Z[:, 0] - 2 * Z[:, 1]                        # collinear within z
    if q >= 2 and i % 4 == 2: Z[:, -1] = Z[:, 0] + 1e-3 * rng.normal(size=n)          # near-singular
    x = Z @ rng.normal(size=q) + rng.normal(size=n)
    y = Z @ rng.normal(size=q) + rng.choice([0.0, 0.05, 0.2, 0.5]) * x + rng.normal(size=n)
    frame = pd.DataFrame({"x": x * rng.uniform(0.5, 3), "y": y} | {f"z{j}": Z[:, j] for j in range(q)})
    return frame, [f"z{j}" for j in range(q)]


@pytest.mark.parametrize("test", ["zf", "mi-g", "cor"])
def test_gaussian_tests_equal_bnlearn(test):
    rng = np.random.default_rng({"zf": 1, "mi-g": 2, "cor": 3}[test])
    with tempfile.TemporaryDirectory() as tmp:
        frames = [gaussian_case(rng, i) for i in range(60)]
        cases = [save(f, tmp, i, z=z) for i, (f, z) in enumerate(frames)]
        body = (f'  r = suppressWarnings(ci.test("x", "y", zs(case), data = d, test = "{test}"))\n'
                '  out[[i]] = list(stat = unname(r$statistic), df = unname(r$parameter), p = r$p.value)\n')
        theirs = run_r(body, cases, tmp)
    diffs = []
    for (frame, z), t in zip(frames, theirs):
        r = continuous_test(frame.x, frame.y, frame[z] if z else None, test)
        assert abs(r.pvalue - t["p"]) <= 1e-8, (len(frame), z, r, t)
        assert r.statistic == pytest.approx(t["stat"], rel=1e-7, abs=1e-9) and r.dof == t["df"]
        diffs.append(abs(r.pvalue - t["p"]))
    print(f"{test}: {len(diffs)} cases, largest |p - p_bnlearn| = {max(diffs):.1e}")



@pytest.mark.parametrize("test", ["zf", "mi-g", "cor"])
def test_a_tested_column_among_z_as_bnlearn(test):
    """bnlearn's HPC conditions a node on itself (chapter 04c); its Gaussian tests then leave the node out of the
    conditioning set (a pseudo-inverse of the correlation matrix), the dof counting it. R's ci.test refuses such a set,
    so bnlearn's internal indep.test is asked, with x and then y added to z. Its pseudo-inverse of a singular matrix
    is accurate to about 1e-6 here (4e-6 at most in p on these cases); semisel's test given z without the column is the
    regular test, equal to bnlearn's ci.test to 1e-8 (`test_gaussian_tests_equal_bnlearn`)."""
    from semisel.continuous import MixedData, ci_test_columns
    rng = np.random.default_rng({"zf": 4, "mi-g": 5, "cor": 6}[test])
    with tempfile.TemporaryDirectory() as tmp:
        frames = [gaussian_case(rng, i) for i in range(20)]
        cases = [save(f, tmp, i, z=z) for i, (f, z) in enumerate(frames)]
        body = ('  attr(d, "metadata") = list(complete.nodes = setNames(rep(TRUE, ncol(d)), names(d)))\n'
                f'  px = bnlearn:::indep.test("x", "y", sx = c(zs(case), "x"), data = d, test = "{test}")[1]\n'
                f'  py = bnlearn:::indep.test("x", "y", sx = c(zs(case), "y"), data = d, test = "{test}")[1]\n'
                '  out[[i]] = list(px = unname(px), py = unname(py))\n')
        theirs = run_r(body, cases, tmp)
    for (frame, z), t in zip(frames, theirs):
        md, cols = MixedData(frame), list(frame.columns)
        zs = [cols.index(c) for c in z]
        for own, key in ((0, "px"), (1, "py")):
            r = ci_test_columns(md, [0], 1, zs + [own], test)
            assert abs(r.pvalue[0] - t[key]) <= 1e-5 and (r.pvalue[0] <= 0.05) == (t[key] <= 0.05), (len(frame), z, key)

def sample_no_replace(u: np.ndarray) -> np.ndarray:
    "bnlearn's RandomPermutation (R's SampleNoReplace) from its uniforms: row i takes the value of row perm[i]."
    n = len(u)
    pool, out, m = list(range(n)), np.empty(n, np.int64), n
    for i in range(n):
        j = int(m * u[i])
        out[i] = pool[j]
        m -= 1
        pool[j] = pool[m]
    return out


def test_permutation_tests_count_as_bnlearn():
    "The same permutations (R's uniforms replayed): bnlearn's p-value #{|r_b| >= |r|} / B is our count exactly."
    rng = np.random.default_rng(7)
    B = 200
    tests = ["mc-zf", "mc-mi-g", "mc-cor", "smc-zf", "smc-mi-g", "smc-cor"]
    with tempfile.TemporaryDirectory() as tmp:
        frames, cases = [], []
        for i in range(50):
            n, q = int(rng.choice([15, 40, 90])), int(rng.integers(0, 4))
            Z = rng.normal(size=(n, q))
            x = Z @ rng.normal(size=q) + rng.normal(size=n)
            y = Z @ rng.normal(size=q) + rng.choice([0.0, 0.2, 0.5]) * x + rng.normal(size=n)
            frame = pd.DataFrame({"x": x, "y": y} | {f"z{j}": Z[:, j] for j in range(q)})
            frames.append((frame, [f"z{j}" for j in range(q)]))
            cases.append(save(frame, tmp, i, z=frames[-1][1], seed=100 + i, n=n))
        body = ("  p = list(); s = list()\n"
                f"  for (t in c({', '.join(repr(t).replace(chr(39), chr(34)) for t in tests)})) {{\n"
                f"    set.seed(case$seed); r = ci.test(\"x\", \"y\", zs(case), data = d, test = t, B = {B})\n"
                "    p[[t]] = r$p.value; s[[t]] = unname(r$statistic) }\n"
                f"  set.seed(case$seed); u = runif(case$n * {B})\n"
                "  out[[i]] = list(p = p, s = s, u = u)\n")
        theirs = run_r(body, cases, tmp)
    for (frame, z), t in zip(frames, theirs):
        n = len(frame)
        P = np.stack([sample_no_replace(u) for u in np.asarray(t["u"]).reshape(B, n)])
        zf = frame[z] if z else None
        law = permuted_statistics(frame[["x"]], frame.y, zf, "mc-zf", permutations=P)[:, 0]
        observed = continuous_test(frame.x, frame.y, zf, "mi-g").statistic
        count = (law >= observed * (1 - 1e-12)).sum()
        for test in tests:              # bnlearn's ci.test passes alpha = 1: its sequential tests never stop
            assert t["p"][test] == count / B, (test, t["p"][test], count / B)
            ours = continuous_test(frame.x, frame.y, zf, test, n_perm=B, random_state=0)
            assert ours.statistic == pytest.approx(t["s"][test], rel=1e-9, abs=1e-12)


def test_documented_differences():
    "Each difference from bnlearn named in chapter 01b, shown against R."
    rng = np.random.default_rng(11)
    n = 200
    g = rng.normal(size=(n, 2))
    x = g[:, 0] + rng.normal(size=n)
    y = g[:, 0] + 0.3 * x + rng.normal(size=n)
    cls = rng.integers(0, 3, n)
    with tempfile.TemporaryDirectory() as tmp:
        frames = {
            "units": pd.DataFrame({"x": x * 1e5, "y": y * 1e5, "g0": g[:, 0] * 1e5}),            # zf in other units
            "unit": pd.DataFrame({"x": x, "y": y, "g0": g[:, 0]}),
            "span": pd.DataFrame({"x": g[:, 0] + g[:, 1], "y": y, "g0": g[:, 0], "g1": g[:, 1], "g2": rng.normal(size=n)}),
            "one_row": pd.DataFrame({"x": x, "y": np.where(np.arange(n) == 0, 2, cls % 2)}),      # a class with one row
            "constant": pd.DataFrame({"x": np.full(n, 3.0), "y": cls}),
        }
        zs = {"units": ["g0"], "unit": ["g0"], "span": ["g0", "g1", "g2"], "one_row": [], "constant": []}
        tests = {"units": "zf", "unit": "zf", "span": "zf", "one_row": "mi-cg", "constant": "mi-cg"}
        keys = list(frames)
        cases = [save(frames[k], tmp, i, z=zs[k], test=tests[k]) for i, k in enumerate(keys)]
        body = ('  r = suppressWarnings(ci.test("x", "y", zs(case), data = d, test = case$test))\n'
                '  out[[i]] = list(stat = unname(r$statistic), p = if (is.na(r$p.value)) -1 else r$p.value)\n')
        theirs = dict(zip(keys, run_r(body, cases, tmp)))
    unit = continuous_test(x, y, g[:, :1], "zf")
    assert abs(unit.pvalue - theirs["unit"]["p"]) <= 1e-8 and unit.pvalue < 0.05
    assert theirs["units"]["p"] == 1.0                                     # bnlearn: independence in other units
    assert continuous_test(x * 1e5, y * 1e5, g[:, :1] * 1e5, "zf").pvalue == pytest.approx(unit.pvalue, abs=1e-12)
    span = frames["span"]
    assert continuous_test(span.x, span.y, span[zs["span"]], "zf").pvalue == 1.0 and theirs["span"]["p"] < 0.5
    assert theirs["one_row"]["stat"] == "Inf" or theirs["one_row"]["stat"] == float("inf") or theirs["one_row"]["p"] == 0
    assert continuous_test(x, frames["one_row"].y.to_numpy(), None, "mi-cg").pvalue == 1.0
    assert theirs["constant"]["p"] == -1                                   # bnlearn: NaN
    assert continuous_test(np.full(n, 3.0), cls, None, "mi-cg").pvalue == 1.0


def bnlearn_unroll(x, y, zd, G):
    """bnlearn 4.9's c_cmicg_unroll, computed independently (numpy lstsq per stratum): 2n MI(x; y | zd) plus, for each
    continuous G_i, [l(G_i|G_>i, x) - l(G_i|G_>i, zd)] - [l(G_i|G_>i, x) - l(G_i|G_>i, y, zd)], a bracket 0 where one
    of its models is singular; its dof, with k_zd = 0 without discrete z."""
    from scipy import stats
    def ll(r, D, strata):
        out = 0.0
        for s in np.unique(strata):
            m = strata == s
            A = np.column_stack([np.ones(m.sum()), D[m]])
            if m.sum() <= A.shape[1]: return -np.inf
            e = r[m] - A @ np.linalg.lstsq(A, r[m], rcond=None)[0]
            sd = np.sqrt(e @ e / (m.sum() - A.shape[1]))
            if sd < np.sqrt(np.finfo(float).eps): return -np.inf
            out += stats.norm.logpdf(e, 0, sd).sum()
        return out
    n = len(x)
    zc = np.zeros(n, int) if zd is None else zd
    yz = y * (zc.max() + 1) + zc
    mi = sum((zc == s).mean() * _mi(x[zc == s], y[zc == s]) for s in np.unique(zc))
    stat = 2 * n * mi
    for i in range(G.shape[1]):
        gi, rest = G[:, i], G[:, i + 1:]
        a = ll(gi, rest, x), ll(gi, rest, zc)
        b = ll(gi, rest, x), ll(gi, rest, yz)
        stat += 2 * ((a[0] - a[1]) if np.isfinite(a).all() else 0) - 2 * ((b[0] - b[1]) if np.isfinite(b).all() else 0)
    return stat


def _mi(a, b):
    from sklearn.metrics import mutual_info_score
    return mutual_info_score(a, b)


def test_discrete_pair_given_continuous_z():
    "bnlearn's statistic for discrete x and y given continuous z is its unroll formula (reproduced); ours is the chain rule."
    rng = np.random.default_rng(12)
    with tempfile.TemporaryDirectory() as tmp:
        frames, cases = [], []
        for i in range(12):
            n = int(rng.choice([150, 600]))
            G = rng.normal(size=(n, 1 + i % 2))
            zd = rng.integers(0, 2, n) if i % 3 else None
            x = (rng.random(n) < 1 / (1 + np.exp(-G[:, 0]))).astype(int) + rng.integers(0, 2, n)
            y = (rng.random(n) < 1 / (1 + np.exp(G[:, -1] - G[:, 0]))).astype(int)    # x ⊥ y | G
            frame = pd.DataFrame({"x": x, "y": y} | {f"g{j}": G[:, j] for j in range(G.shape[1])}
                                 | ({} if zd is None else {"zd": zd}))
            z = [c for c in frame.columns if c not in ("x", "y")]
            frames.append((frame, z, G, zd))
            cases.append(save(frame, tmp, i, z=z))
        body = ('  r = ci.test("x", "y", zs(case), data = d, test = "mi-cg")\n'
                '  out[[i]] = list(stat = unname(r$statistic), p = r$p.value)\n')
        theirs = run_r(body, cases, tmp)
    ours_p, theirs_p = [], []
    for (frame, z, G, zd), t in zip(frames, theirs):
        assert bnlearn_unroll(frame.x.to_numpy(), frame.y.to_numpy(), zd, G) == pytest.approx(t["stat"], rel=1e-8)
        ours_p.append(continuous_test(frame.x, frame.y, frame[z], "mi-cg").pvalue)
        theirs_p.append(t["p"])
    assert np.mean(np.array(theirs_p) < 0.05) >= 0.5 and np.mean(np.array(ours_p) < 0.05) <= 0.25   # a true null
