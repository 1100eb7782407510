"""Speed work on semisel.baselines must not change results: co-training's lazy rounds, float32 tree matrix and
threaded CV folds are checked against the plain algorithm (every learner and interval recomputed every round)."""
import numpy as np
import pytest

from semisel.baselines import CoTraining, _CodeNB, _LaplaceTree
from semisel.core import UNLABELLED, check_random_state, derive_seed, partial_labels
from semisel.experiments.baselines import make_abcd, mcar_split


class _PlainCoTraining(CoTraining):
    "The unoptimised loop: both learners and both CV intervals in every round, float64 tree input, no threads."
    def fit(self, X, y_partial):
        from semisel.baselines import _Encoder, _frame, MDLDiscretizer
        df = _frame(X)
        labels = partial_labels(y_partial, n_rows=len(df)).require("both", who="CoTraining")
        y, lab = labels.codes, labels.labelled
        rng = check_random_state(self.random_state)
        self.discretizer_ = MDLDiscretizer().fit(df[lab], y[lab]); codes = self.discretizer_.transform(df)
        self.encoder_ = _Encoder(onehot=False).fit(df); A = self.encoder_.transform(df)      # float64 on purpose
        self.n_tree_fits_ = 0
        L = np.flatnonzero(lab); yL = y[L]
        extra = {"nb": (np.empty(0, int), np.empty(0, int)), "tree": (np.empty(0, int), np.empty(0, int))}
        pool = {"nb": np.flatnonzero(~lab), "tree": np.flatnonzero(~lab)}
        w = {"nb": 0.0, "tree": 0.0}
        self.n_rounds_ = 0
        def learners(seed):
            nb = _CodeNB(self.discretizer_.n_codes_).fit(codes[np.r_[L, extra["nb"][0]]], np.r_[yL, extra["nb"][1]])
            return nb, self._tree(A, np.r_[L, extra["tree"][0]], np.r_[yL, extra["tree"][1]], seed)
        for r in range(self.max_rounds):
            nb, tr = learners(derive_seed(rng))
            iv = {m: self._intervals(codes, A, L, yL, *extra[m], m, rng) for m in ("nb", "tree")}
            changed = False
            for labeller, target, model in (("nb", "tree", nb), ("tree", "nb", tr)):
                P = pool[target]
                if not len(P): continue
                pred = (model.proba(codes[P]) if labeller == "nb" else model.proba(A[P])) > 0.5
                (l_t, _), _ = iv[target]; _, cls = iv[labeller]
                m_t = len(L) + len(extra[target][0])
                q_t = m_t * (1 - 2 * w[target] / m_t) ** 2
                take = np.zeros(len(P), bool); labels = np.zeros(len(P), np.int64); w_add = 0.0
                for c in (0, 1):
                    Uk = pred == c; nk = int(Uk.sum())
                    if not nk: continue
                    l_k, h_k = cls[c]
                    w_k = (1 - l_k) * nk; m2 = m_t + nk
                    eta = (w[target] + w_k) / m2
                    q_k = m2 * (1 - 2 * eta) ** 2
                    if h_k > l_t and eta < 0.5 and q_k > q_t:
                        take |= Uk; labels[Uk] = c; w_add += w_k
                if take.any():
                    extra[target] = (np.r_[extra[target][0], P[take]], np.r_[extra[target][1], labels[take]])
                    pool[target] = P[~take]; w[target] += w_add; changed = True
            self.n_rounds_ = r + 1
            if not changed: break
        self.nb_, self.tree_ = learners(derive_seed(rng))
        self.n_labelled_for_nb_, self.n_labelled_for_tree_ = len(extra["nb"][0]), len(extra["tree"][0])
        self._set_classes(df)
        return self

    def _p1(self, df):
        return 0.5 * (self.nb_.proba(self.discretizer_.transform(df)) + self.tree_.proba(self.encoder_.transform(df)))


CASES = [("30_80_00_05", 0.01, 3), ("30_80_00_05", 0.10, 0), ("80_80_00_05", 0.01, 0), ("80_80_00_05", 0.33, 7)]


@pytest.fixture(scope="module")
def fits():
    out = []
    for name, p, seed in CASES:
        X, y, Xt, _ = make_abcd(name, 1500, 500, random_state=seed)
        yp = mcar_split(y, p, random_state=seed)
        if np.unique(yp[yp != UNLABELLED]).size < 2: continue
        out.append((X, yp, Xt, seed))
    assert len(out) >= 3
    return out


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_cotraining_matches_plain_loop(fits):
    skipped = 0
    for X, yp, Xt, seed in fits:
        fast = CoTraining(random_state=seed).fit(X, yp); plain = _PlainCoTraining(random_state=seed).fit(X, yp)
        np.testing.assert_array_equal(fast.predict_proba(Xt), plain.predict_proba(Xt))
        assert (fast.n_rounds_, fast.n_labelled_for_nb_, fast.n_labelled_for_tree_) == \
               (plain.n_rounds_, plain.n_labelled_for_nb_, plain.n_labelled_for_tree_)
        assert fast.n_tree_fits_ <= plain.n_tree_fits_
        skipped += plain.n_tree_fits_ - fast.n_tree_fits_
    assert skipped > 0, "no case exercised the skipped rounds"


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_cotraining_threads_do_not_change_result(fits):
    for X, yp, Xt, seed in fits[:2]:
        a = CoTraining(random_state=seed).fit(X, yp); b = CoTraining(random_state=seed, n_jobs=2).fit(X, yp)
        np.testing.assert_array_equal(a.predict_proba(Xt), b.predict_proba(Xt))
        assert a.n_tree_fits_ == b.n_tree_fits_


def test_laplace_tree_float32_input_is_the_same_tree():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(400, 5)); y = (A[:, 0] + 0.5 * rng.normal(size=400) > 0).astype(np.int64)
    t64, t32 = _LaplaceTree(1).fit(A, y), _LaplaceTree(1).fit(A.astype(np.float32), y)
    np.testing.assert_array_equal(t64.proba(A), t32.proba(A.astype(np.float32)))


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-1, ValueError), (1.5, TypeError), ("2", TypeError)])
def test_cotraining_n_jobs_is_checked(bad, error):
    X, y, _, _ = make_abcd("30_30_00_05", 300, 100, random_state=0)
    with pytest.raises(error, match="n_jobs"):
        CoTraining(n_jobs=bad).fit(X, mcar_split(y, 0.5, random_state=0))


def test_common_component_log_density_is_the_broadcast_formula():
    from semisel.baselines import CommonComponentEM
    X, y, _, _ = make_abcd("30_80_00_05", 1000, 100, random_state=0)
    cc = CommonComponentEM(random_state=0, max_iter=20).fit(X, mcar_split(y, 0.2, random_state=0))
    Z, O = cc._split(cc._check_X(X))
    v = cc.variances_
    ref = np.log(cc.weights_) - 0.5 * np.log(2 * np.pi * v).sum(1) - 0.5 * (((Z[:, None, :] - cc.means_[None]) ** 2) / v[None]).sum(2)
    np.testing.assert_array_equal(cc._log_dens(Z, O), ref)
