"""prior="estimate" where a prior is asked for (issue 29): the selectors, Semi-IAMB and the command line."""
import json
import shutil
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from semisel.iamb import SemiIAMB, semi_iamb
from semisel.priors import PriorEstimate
from semisel.ranking import SemiJMI, SemiMIM
from semisel.surrogates import mcar, pu


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    y = (rng.random(500) < 0.4).astype(int)
    X = np.c_[np.where(rng.random(500) < 0.8, y, 1 - y), (y + (rng.random(500) < 0.3)) % 2, rng.integers(0, 3, (500, 3))]
    return X, y


def test_selectors_on_pu_data_skip_the_estimate(data):
    """PU data: Y0 whatever the prior, so prior="estimate" estimates nothing (issue 43) and says so once; the selection
    is the one of prior=None."""
    X, y = data
    yp = pu(y, 0.3, random_state=0)
    for est, ref in ((SemiJMI(k=2, prior="estimate"), SemiJMI(k=2)), (SemiMIM(k=2, prior="estimate"), SemiMIM(k=2)),
                     (SemiIAMB(prior="estimate"), SemiIAMB())):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            est.fit(X, yp)
        assert [str(x.message) for x in w if "not estimated" in str(x.message)] == [
            "the prior is not estimated (`prior` 'estimate'): the data are positive-unlabelled, so the surrogate is Y0 "
            "whatever the prior (semisel.estimate_prior estimates it, for the number)"]
        assert est.prior_estimate_ is None and est.surrogate_ == "Y0"
        assert list(est.ranking_) == list(ref.fit(X, yp).ranking_)


def test_mcar_estimate_drives_the_choice_and_warns_inside_the_interval(data):
    X, y = data
    ym = mcar(y, 0.2, random_state=0)
    lab = ym[ym != -1]
    est = SemiJMI(k=2, prior="estimate")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        est.fit(X, ym)
    r = est.prior_estimate_
    assert r.scenario == "mcar" and r.estimate == pytest.approx(lab.mean())
    assert est.surrogate_ == ("Y0" if r.estimate < est.threshold_ else "Y1")
    straddles = r.low < est.threshold_ <= r.high
    assert straddles == any("surrogate choice changes" in str(x.message) for x in w)
    res = semi_iamb(X, ym, "estimate")
    assert res.prior_estimate.estimate == pytest.approx(lab.mean()) and res.surrogate == est.surrogate_
    assert SemiJMI(k=2, prior=None).fit(X, pu(y, 0.3, random_state=0)).prior_estimate_ is None


def test_cli_prior_estimate(tmp_path, data):
    X, y = data
    pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]).assign(label=y).to_csv(tmp_path / "t.csv", index=False)
    exe = shutil.which("semisel")
    cmd = [exe] if exe else [sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())"]
    out = subprocess.run([*cmd, "rank", str(tmp_path / "t.csv"), "--label", "label", "--method", "semi", "--pu", "0.3", "--prior", "estimate",
                          "-k", "2", "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "prior" not in json.loads(out.stdout)["metadata"]              # PU: Y0 whatever the prior, nothing estimated
    assert "semisel: note: the prior is not estimated (--prior 'estimate'): the data are positive-unlabelled" in out.stderr
    bad = subprocess.run([*cmd, "rank", str(tmp_path / "t.csv"), "--label", "label", "--prior", "guess"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "'estimate'" in bad.stderr


def test_a_prior_estimate_is_used_as_given(data):
    X, y = data
    yp = pu(y, 0.3, random_state=0)
    from semisel.priors import estimate_prior
    res = estimate_prior(X, yp, "pu", method="bbe", n_boot=0, random_state=0)
    est = SemiJMI(k=2, prior=res).fit(X, yp)
    assert est.prior_estimate_ is res and est.surrogate_ == "Y0"
    assert semi_iamb(X, yp, res).prior_estimate is res


def test_cli_prior_method(tmp_path, data):
    from semisel.cli import PRIOR_METHODS
    from semisel.priors import PU_CHOICES
    assert set(PRIOR_METHODS) == set(PU_CHOICES)
    X, y = data
    pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]).assign(label=y).to_csv(tmp_path / "t.csv", index=False)
    exe = shutil.which("semisel")
    cmd = [exe] if exe else [sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())"]
    run = lambda *a: subprocess.run([*cmd, *a, str(tmp_path / "t.csv"), "--label", "label", "--json"], capture_output=True,
                                    text=True, timeout=300)
    for sub, extra in (("rank", ("--method", "semi", "-k", "2")), ("mb", ())):   # PU: nothing to estimate, a note
        out = run(sub, "--pu", "0.3", "--prior", "estimate", "--prior-method", "bbe", *extra)
        assert out.returncode == 0, out.stderr
        assert "prior" not in json.loads(out.stdout)["metadata"] and "the prior is not estimated" in out.stderr
    out = run("rank", "--method", "semi", "--mcar", "0.3", "--prior", "estimate", "--prior-method", "bbe", "-k", "2")   # MCAR
    assert out.returncode == 0 and "(estimated: exact, mcar)" in json.loads(out.stdout)["metadata"]["prior"]
    assert "--prior-method is ignored: it picks a PU estimator" in out.stderr
    out = run("rank", "--pu", "0.3", "--prior", "0.4", "--prior-method", "tice", "-k", "2")
    assert out.returncode == 0 and "--prior-method is ignored: it picks the estimator of --prior estimate" in out.stderr
    bad = run("rank", "--pu", "0.3", "--prior", "estimate", "--prior-method", "nope")
    assert bad.returncode != 0 and "--prior-method" in bad.stderr


def test_a_bounded_prior_on_pu_data_still_decides_the_surrogate(data):
    """PU data: phi = 1, so Y0 for every prior below 1; a prior that is only bounded gives the blanket and the ranking
    any prior would, without a warning, and rides along in the result's metadata (issue 39)."""
    from semisel.iamb import markov_blanket
    X, y = data
    yp = pu(y, 0.3, random_state=0)
    share = (yp == 1).mean()
    bounded = PriorEstimate(0.62, (share, 0.71), "bbe", "pu", dict(level=0.95, why="test"), identified=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, b = markov_blanket(X, yp, prior=bounded), markov_blanket(X, yp, prior=None)
        est = SemiJMI(k=2, prior=bounded).fit(X, yp)
    assert a.surrogate == b.surrogate == est.surrogate_ == "Y0" and a.prior_estimate is bounded
    assert list(a.blanket) == list(b.blanket) and est.prior_estimate_ is bounded
    assert list(est.ranking_) == list(SemiJMI(k=2, prior=0.3).fit(X, yp).ranking_)
    with pytest.warns(UserWarning, match="the prior is not estimated"):
        res = markov_blanket(X, yp, prior="estimate")                # "estimate": skipped, nothing it could change
    assert res.prior_estimate is None and res.surrogate == "Y0" and list(res.blanket) == list(b.blanket)


def test_a_bounded_prior_with_labelled_negatives_decides_when_phi_is_outside(data):
    """Labels of both classes: the choice asks "prior < phi?"; bounds below phi answer it (Y0, silently), bounds that
    straddle phi draw a warning naming them, and the number handed on is the upper estimate."""
    X, y = data
    ym = mcar(y, 0.2, random_state=0)
    phi = SemiJMI(k=2, prior=0.01).fit(X, ym).threshold_
    below = PriorEstimate(phi * 0.8, (phi * 0.5, phi * 0.9), "bbe", "pu", dict(level=0.95), identified=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert SemiJMI(k=2, prior=below).fit(X, ym).surrogate_ == "Y0"
    across = PriorEstimate(phi * 1.2, (phi * 0.5, phi * 1.3), "bbe", "pu", dict(level=0.95), identified=False)
    with pytest.warns(UserWarning, match=r"bounds \(the data do not identify it\).*the upper estimate"):
        est = SemiJMI(k=2, prior=across).fit(X, ym)
    assert est.surrogate_ == "Y1"                                    # the upper estimate lies above phi
