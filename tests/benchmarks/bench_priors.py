"""semisel.priors on PU data: against the reference implementations (issue 29), and on the held-out draws (issue 39).

Part 1, `reference`: semisel.priors against the reference implementations of the PU class-prior estimators, on the
same data.

The reference code is never a dependency and nothing of it is copied here: point the environment at checkouts and run

    SEMISEL_DEDPUL_REF=/path/to/DEDPUL [SEMISEL_BBE_REF=/path/to/PU_learning] python tests/benchmarks/bench_priors.py
    SEMISEL_DEDPUL_REF=... pytest tests/benchmarks/bench_priors.py -q -p no:cacheprovider

github.com/dimonenka/DEDPUL holds KM (KMPE.py, Ramaswamy et al.'s code; needs cvxopt), TIcE (TIcE.py, Bekker & Davis's
code for Python 3; needs bitarray) and Elkan-Noto (algorithms.estimate_poster_en: e1 on the scores of a class-balanced
classifier, algorithms.estimate_preds_cv_sklearn); github.com/acmi-lab/PU_learning
holds BBE (estimator.BBE_estimator). Their modules import torch and catboost at the top, which these functions do not
use, so those functions are read out of the files with `ast` and run alone. Without the checkouts (or cvxopt and
bitarray) the test skips.

Same data means: the same rows, the same cross-fitted classifier scores (EN, BBE), the same standardised subsample
(KM2), the same folds and [0, 1]-scaled attributes (TIcE). Each case prints ours beside the reference's. Elkan-Noto
twice: semisel's "en-balanced" (the DEDPUL variant) on the same class-balanced scores as the reference (`en_bal`,
`en_bal_ref`), and end to end, each with its own classifier and split over five seeds: the reference's class-weighted
logistic regression on 3 stratified folds (`en_bal_own`: the mean, `own_sd`: the spread, the reference's own
randomness) beside `estimate_prior(method="en-balanced", n_folds=3)` (`en_bal_e2e`, `e2e_sd`). `en` is semisel's e1 on
calibrated scores, Elkan & Noto's own estimator.

Part 2, `heldout`: every PU method through the public `estimate_prior` (its defaults but `method`) on the one-vs-rest
PU draws chapter 02b chooses its default on (`pu_draws`): per method the mean absolute error where it calls the prior
identified and overall, the coverage of its 95% interval, its mean width, the share called identified and the CPU-s per
estimate (time.process_time around the call), and the default's interval as 02b's rule had it before its amendment 1
(anchor level 0.01, from the same calls); then the default's CPU on waveform (5,000 x 40) in a fresh process, beside the
old default's path (Elkan-Noto, 100 full refits, the threads as they come) timed in this process (a ratio), and, when
SEMISEL_BEFORE points at a checkout of the code before the change, that checkout's default in a fresh process too.

    python tests/benchmarks/bench_priors.py heldout [--all]     # one draw per class at c = 0.3; --all: every draw
"""
import ast
import importlib.util
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from semisel.datasets import data_path, load_dataset
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from threadpoolctl import threadpool_limits

from semisel.priors import (PU_CHOICES, _anchored, _bbe, _en, _en_balanced, _extended_low, _feature_matrix, _folds, _km2,
                            _oof_scores, _pu_interval, _tice, default_classifier, estimate_prior)
from semisel.surrogates import pu

DEDPUL, BBE = os.environ.get("SEMISEL_DEDPUL_REF"), os.environ.get("SEMISEL_BBE_REF")
LOGISTIC = lambda: make_pipeline(StandardScaler(), LogisticRegression(solver="newton-cholesky"))   # the old default's classifier


def _functions(path: Path, names: list[str]) -> dict:
    "Run only the named top-level functions of a reference file (its other imports are not needed by them)."
    tree = ast.parse(path.read_text())
    body = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    ns = {"np": np, "StratifiedKFold": StratifiedKFold}
    exec(compile(ast.Module(body=body, type_ignores=[]), str(path), "exec"), ns)
    return ns


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(f"ref_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cases(seeds=range(4)):
    "Gaussian PU mixtures (two priors) and spambase draws (1,000 rows), each PU-labelled at c = 0.3."
    out = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        for prior in (0.3, 0.6):
            y = (rng.random(1000) < prior).astype(int)
            X = rng.normal(size=(1000, 4)) + 2.0 * y[:, None] * np.r_[1, 1, 0, 0]
            out.append((f"gauss pi={prior} #{seed}", X, y))
        Xs, ys = load_dataset("spambase")
        idx = rng.choice(len(ys), 1000, replace=False)
        out.append((f"spambase #{seed}", _feature_matrix(Xs.iloc[idx]), ys.to_numpy()[idx]))
    return out


def compare(seeds=range(4)):
    km = _module(Path(DEDPUL) / "KMPE.py")
    tice = _module(Path(DEDPUL) / "TIcE.py")
    bits = tice.bitarray              # the file feeds numpy bools to bitarray, which NumPy 2 refuses: hand it Python bools
    tice.bitarray = lambda v: bits(v) if isinstance(v, bits) else bits([bool(b) for b in v])
    en = _functions(Path(DEDPUL) / "algorithms.py", ["estimate_poster_en", "estimate_preds_cv_sklearn"])
    bbe = _functions(Path(BBE) / "estimator.py", ["DKW_bound", "BBE_estimator"]) if BBE else None
    rows = []
    for name, X, y in cases(seeds):
        rng = np.random.default_rng(0)
        s = (pu(y, 0.3, random_state=1) == 1).astype(np.int64)
        N, p = len(s), int(s.sum())
        folds = _folds(s, 5, rng)
        g = _oof_scores(LOGISTIC(), X, s, folds, 5)
        row = dict(case=name, true=y.mean())
        # EN, e1: Elkan & Noto's reads c = mean g(x) over the labelled rows of a calibrated p(s=1|x); the reference reads
        # the scores of "unlabelled rather than positive" of a class-balanced classifier: semisel's "en-balanced".
        # Same scores: our class-balanced fit's, given to both (the reference's as 1 - ours)
        b = _oof_scores(LOGISTIC(), X, s, folds, 5, balanced=True)
        row["en"], row["en_bal"] = _en(g, s)[0], _en_balanced(b, s)[0]
        to_prior = lambda a: (p + (1 - a) * (N - p)) / N
        row["en_bal_ref"] = to_prior(en["estimate_poster_en"](preds=1 - b, target=1 - s, estimator="e1")[0])
        # end to end, over five seeds each: the reference's own classifier (class-weighted logistic regression on the
        # standardised table, 3 stratified folds) and estimate_prior's (3 folds)
        Zs = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1)
        own = [to_prior(en["estimate_poster_en"](preds=en["estimate_preds_cv_sklearn"](
            Zs, 1 - s, LogisticRegression, random_state=r, params=dict(max_iter=1000)), target=1 - s, estimator="e1")[0])
            for r in range(5)]
        e2e = [estimate_prior(X, np.where(s == 1, 1, -1), "pu", "en-balanced", LOGISTIC(), n_boot=0, n_folds=3,
                              random_state=r).estimate
               for r in range(5)]
        row["en_bal_own"], row["own_sd"] = np.mean(own), np.std(own, ddof=1)
        row["en_bal_e2e"], row["e2e_sd"] = np.mean(e2e), np.std(e2e, ddof=1)
        # KM2 on one standardised subsample (300 unlabelled rows, the labelled ones up to 300)
        Z = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1)
        mix = rng.choice(np.flatnonzero(s == 0), 300, replace=False)
        comp = rng.choice(np.flatnonzero(s == 1), min(300, p), replace=False)
        t = time.perf_counter()
        k_ours = _km2(Z[mix], Z[comp])[0]
        row["km2_s"] = time.perf_counter() - t
        t = time.perf_counter()
        k_ref = km.wrapper(Z[mix], Z[comp], disp=False, KM_1=False, KM_2=True, lambda_lower_bound=1.0,
                           lambda_upper_bound=10.0)
        row["km2_ref_s"] = time.perf_counter() - t
        row["km2"], row["km2_ref"] = [(p + k * (N - p)) / N for k in (k_ours, k_ref)]
        # TIcE with the paper's settings (k = 5, 5 folds, delta from Eq. 8, 500 splits, minT 10, 4 bins per attribute)
        c_ours = _tice(X, s, folds, 5)[1]["c"]
        scaled = (X - X.min(0)) / np.where(np.ptp(X, 0) > 0, np.ptp(X, 0), 1)
        c_ref = tice.tice(scaled, s, 5, folds, None, nbIterations=2, maxSplits=500, minT=10, n_splits=3)[0]
        row["tice"], row["tice_ref"] = p / (c_ours * N), p / (c_ref * N)
        row["bbe"] = _bbe(g, s)[0]
        if bbe is not None:
            k_ref = bbe["BBE_estimator"](g[s == 1], np.c_[g[s == 0], 1 - g[s == 0]], np.zeros(N - p, int))[0]
            row["bbe_ref"] = (p + min(k_ref, 1) * (N - p)) / N
        rows.append(row)
    return pd.DataFrame(rows)


need = pytest.mark.skipif(not DEDPUL or not Path(DEDPUL, "KMPE.py").exists(),
                          reason="set SEMISEL_DEDPUL_REF to a checkout of github.com/dimonenka/DEDPUL")


@need
def test_reference_agreement():
    pytest.importorskip("cvxopt")
    pytest.importorskip("bitarray")
    df = compare(range(2))
    # EN-balanced: on the same scores, the reference's number; end to end (each its own classifier and split), the
    # means over five seeds within three standard errors of their difference (the two randomnesses) plus 0.005
    assert (df.en_bal - df.en_bal_ref).abs().max() <= 1e-9, df[["case", "en_bal", "en_bal_ref"]]
    se = np.sqrt((df.own_sd ** 2 + df.e2e_sd ** 2) / 5)
    assert ((df.en_bal_e2e - df.en_bal_own).abs() <= 3 * se + 0.005).all(), df.filter(like="e")
    # KM2: both bisect lambda to 0.04 (kappa to 0.04 near lambda = 1); TIcE: same folds, tie-breaking of equal
    # priorities may differ; BBE: the reference counts the unlabelled rows above a threshold one short
    assert (df.km2 - df.km2_ref).abs().max() <= 0.04, df[["case", "km2", "km2_ref"]]
    assert (df.tice - df.tice_ref).abs().max() <= 0.03, df[["case", "tice", "tice_ref"]]
    if "bbe_ref" in df: assert (df.bbe - df.bbe_ref).abs().max() <= 0.01, df[["case", "bbe", "bbe_ref"]]


# ---- the held-out protocol's draws (issue 39): chapter 02b chooses the PU default on them, and the benchmark below
# times and scores every method through the public `estimate_prior` on them

SELECTION = ("spambase", "krvskp", "splice", "landsat", "musk2", "waveform", "ionosphere")   # leave-one-dataset-out
KEPT_BACK = ("semeion", "adult")                                                              # looked at once, at the end


def one_vs_rest(name):
    "A bundled dataset's features and its source classes (the papers' binary target where the file has two classes)."
    X, y = load_dataset(name)
    if name in ("splice", "landsat", "waveform"):                  # multi-class files: the classes as the source has them
        y = pd.read_csv(data_path() / "uci" / f"{name}.csv.gz", usecols=["class"])["class"]
    return X, y.to_numpy()


def pu_draws(datasets, cs=(0.1, 0.3, 0.6), n_draws=2, max_rows=5000, seed=0):
    """PU draws, one class against the rest: for each dataset, each class as the positive one, each label frequency c
    and `n_draws` repetitions, at most `max_rows` rows (a random subset) with round(c N_1) positives labelled at random.
    Yields (case, X, y, y_partial, seed): the true prior is the draw's share of positives, y.mean()."""
    for i, name in enumerate(datasets):
        X, labels = one_vs_rest(name)
        for k, cls in enumerate(np.unique(labels)):
            for c in cs:
                for r in range(n_draws):
                    sd = [seed, i, k, int(round(c * 100)), r]
                    rng = np.random.default_rng(sd)
                    rows = np.sort(rng.choice(len(labels), max_rows, replace=False)) if len(labels) > max_rows else slice(None)
                    y = (labels[rows] == cls).astype(np.int64)
                    yield f"{name} class={cls} c={c} #{r}", X.iloc[rows], y, pu(y, c, random_state=rng), sd


AS_WRITTEN_LEVEL = 0.01   # the anchor level chapter 02b's rule chose as written, before its amendment 1 (now ANCHOR_LEVEL)


def as_written(r) -> tuple[float, float, bool]:
    "A default bbe call's interval and verdict as the rule written before amendment 1 had them (anchor level 0.01)."
    d, a = r.diagnostics, (1 - r.diagnostics["level"]) / 2
    q_lo, q_hi = np.quantile(d["replicates"], [a, 1 - a])
    identified = bool(_anchored(d, 0.0, AS_WRITTEN_LEVEL))
    low, high = _pu_interval(r.estimate, _extended_low(q_lo, q_hi, d["labelled_share"]), q_hi, d, identified, "bounds")
    return float(low), float(high), identified


def heldout(draws, before=False, **kw) -> pd.DataFrame:
    """Each PU method through `estimate_prior` (defaults but `method` and `kw`) on each draw: estimate, interval, verdict,
    CPU-s; `before`: also bbe's interval as the rule written before amendment 1 had it, from the same call (`as_written`)."""
    rows = []
    for case, X, y, yp, seed in draws:
        for m in PU_CHOICES:
            t = time.process_time()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")                      # clipped estimates warn
                r = estimate_prior(X, yp, method=m, random_state=seed, **kw)
            rows.append(dict(case=case, method=m, true=y.mean(), estimate=r.estimate, low=r.low, high=r.high,
                             identified=r.identified, cpu=time.process_time() - t))
            if before and m == "bbe":
                low, high, ident = as_written(r)
                rows.append({**rows[-1], "method": f"bbe, anchor level {AS_WRITTEN_LEVEL} (before)", "low": low, "high": high,
                             "identified": ident})
    df = pd.DataFrame(rows)
    return df.assign(error=(df.estimate - df.true).abs(), covered=(df.low <= df.true) & (df.true <= df.high),
                     width=df.high - df.low)


def top_bin_truth(case, X, y, yp, seed, n_folds=5) -> dict:
    """What only the truth shows on a draw: the default's cross-fitted scores again (the folds of chapter 02b's runner,
    the first draw of the seed's generator), BBE's estimate and top bin, and in that bin the negatives' share of the
    unlabelled rows; the true kappa (positives' share of the unlabelled rows) beside BBE's; the share of the positives
    that score above every negative (0: this score has no anchor set at all)."""
    Xf, s, y = _feature_matrix(X), (np.asarray(yp) == 1).astype(np.int64), np.asarray(y)
    folds = _folds(s, n_folds, np.random.default_rng(seed))
    with threadpool_limits(1):
        g = _oof_scores(default_classifier("bbe"), Xf, s, folds, n_folds)
    value, d = _bbe(g, s)
    top, u = g >= d["threshold"], s == 0
    return dict(case=case, bbe=value, bbe_kappa=d["kappa"], true_kappa=float(y[u].mean()),
                negatives_in_bin=float((top & u & (y == 0)).sum() / max(int((top & u).sum()), 1)),
                anchor_mass=float((g[y == 1] > g[y == 0].max()).mean()))


FRESH = """
import time, warnings
from semisel.datasets import load_dataset
from semisel.priors import estimate_prior
from semisel.surrogates import pu
X, y = load_dataset("waveform")
yp = pu(y.to_numpy(), 0.3, random_state=0)
warnings.simplefilter("ignore")
t = time.process_time()
r = estimate_prior(X, yp, random_state=0)
print(time.process_time() - t, r.method, X.shape[0], X.shape[1])
"""


def fresh_cpu(path=None) -> tuple[float, str]:
    "CPU-s of the default `estimate_prior` on waveform (5,000 x 40, c = 0.3) in a fresh process (`path`: another checkout)."
    env = {**os.environ, **({"PYTHONPATH": str(path)} if path else {})}
    out = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, env=env, cwd="/", check=True)
    cpu, method, *_ = out.stdout.split()
    return float(cpu), method


def before_cpu(n_boot=100) -> float:
    "CPU-s of the old default's path on waveform in this process: Elkan-Noto with the whole fit redone on n_boot resamples."
    X, y = load_dataset("waveform")
    s = (pu(y.to_numpy(), 0.3, random_state=0) == 1).astype(np.int64)
    Xf, rng, N = _feature_matrix(X), np.random.default_rng(0), len(s)
    t = time.process_time()
    folds = _folds(s, 5, rng)
    _en(_oof_scores(LOGISTIC(), Xf, s, folds, 5), s)
    for _ in range(n_boot):
        idx = rng.integers(0, N, N)
        _en(_oof_scores(LOGISTIC(), Xf[idx], s[idx], folds[idx], 5), s[idx])
    return time.process_time() - t


def main_heldout(every=False):
    draws = [d for d in pu_draws(SELECTION + KEPT_BACK) if every or (" c=0.3 " in d[0] and d[0].endswith("#0"))]
    df = heldout(draws, before=True)
    df["error_identified"] = df.error.where(df.identified.astype(bool))
    print(f"{len(draws)} one-vs-rest PU draws of {len(SELECTION + KEPT_BACK)} datasets, every method through estimate_prior "
          "(bbe's interval also as chapter 02b's rule had it before its amendment 1, from the same calls)")
    print(df.groupby("method", sort=False).agg(
        mae_identified=("error_identified", "mean"), mae=("error", "mean"), coverage=("covered", "mean"),
        width=("width", "mean"), identified=("identified", "mean"), cpu=("cpu", "mean"),
        draws=("covered", "size")).round(3).to_string())
    new, method = fresh_cpu()
    old = before_cpu()
    print(f"default ({method}) on waveform 5,000 x 40, fresh process: {new:.2f} CPU-s; the old default's path in this "
          f"process {old:.1f} CPU-s (100 refits): ratio {new / old:.3f}")
    if os.environ.get("SEMISEL_BEFORE"):
        b, bm = fresh_cpu(os.environ["SEMISEL_BEFORE"])
        print(f"the checkout at SEMISEL_BEFORE, its default ({bm}) in a fresh process: {b:.1f} CPU-s; ratio {new / b:.3f}")


def main_reference():
    if not DEDPUL:
        print("skipped: set SEMISEL_DEDPUL_REF (and SEMISEL_BBE_REF) to the reference checkouts")
        sys.exit(0)
    pd.set_option("display.width", 200)
    df = compare()
    print(df.round(3).to_string(index=False))
    cols = [c for c in ("en_bal", "km2", "tice", "bbe") if f"{c}_ref" in df]
    print("mean |ours - reference|:", {c: round(float((df[c] - df[f"{c}_ref"]).abs().mean()), 4) for c in cols})
    print("mean |estimate - true| ours:", {c: round(float((df[c] - df.true).abs().mean()), 4) for c in cols})
    print("mean |estimate - true| reference:", {c: round(float((df[f"{c}_ref"] - df.true).abs().mean()), 4) for c in cols})
    print("EN-balanced end to end (means over 5 seeds): mean |ours - reference|",
          round(float((df.en_bal_e2e - df.en_bal_own).abs().mean()), 4), "; the seeds' sd, reference",
          round(float(df.own_sd.mean()), 4), "ours", round(float(df.e2e_sd.mean()), 4),
          "; e1 (Elkan & Noto's, ours) mean |estimate - true|", round(float((df.en - df.true).abs().mean()), 4))


if __name__ == "__main__":
    if sys.argv[1:2] == ["heldout"]: main_heldout(every="--all" in sys.argv)
    else: main_reference()
