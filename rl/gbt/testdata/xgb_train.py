#!/usr/bin/env python3
"""Train small real XGBoost regression models for rl/gbt's loader test.

Usage: xgb_train.py OUTDIR

TestXGBoostTrainedModels (rl/gbt/xgbtrain_test.go) runs this script when a
python3 that can import xgboost and numpy is found. For each case below it
writes into OUTDIR:

  CASE.json  the model, Booster.save_model (XGBoost's JSON model format)
  CASE.txt   one probe per line: the feature values, then XGBoost's own
             Booster.predict output for them, space separated, printed with
             repr (so "nan" marks a missing value and floats round-trip)

and versions.txt with the xgboost, numpy and python versions.

Everything is deterministic: a fixed synthetic data set drawn with a fixed
seed, one thread, no subsampling. The target lies in [5, 15], so that every
prediction is well away from zero and a relative tolerance is meaningful.
"""

import os
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import xgboost as xgb  # noqa: E402

FEATURES = ["rate_frac", "rtt_inflation", "cnps", "qlen"]


def dataset(n, seed):
    """A fixed regression problem with NaNs in one feature (so that the
    trees learn default directions) and a few repeated values."""
    rng = np.random.RandomState(seed)
    x = rng.uniform(-2.0, 2.0, size=(n, len(FEATURES)))
    x[:, 2] = np.round(x[:, 2] * 4) / 4  # a coarse feature: ties on its thresholds
    y = (
        10.0
        + 2.0 * np.sin(1.5 * x[:, 0])
        + np.where(x[:, 1] > 0.3, 1.5, -1.0)
        + 0.5 * x[:, 2] * x[:, 3]
        + 0.1 * rng.normal(size=n)
    )
    y = np.clip(y, 5.0, 15.0)
    missing = rng.uniform(size=n) < 0.1
    x[missing, 1] = np.nan
    return x, y


def thresholds(booster):
    """The split conditions of every tree, per feature index."""
    import json

    model = json.loads(booster.save_raw(raw_format="json"))
    out = {}
    for tree in model["learner"]["gradient_booster"]["model"]["trees"]:
        for left, feat, cond in zip(tree["left_children"], tree["split_indices"], tree["split_conditions"]):
            if left != -1:
                out.setdefault(feat, set()).add(cond)
    return out


def probes(booster, x_test):
    """Held-out rows, plus rows that put each feature exactly on, just below
    and just above every split condition (in float32 and float64), plus
    rows with missing values."""
    rows = [r for r in x_test]
    base = x_test[0].copy()
    for feat, conds in sorted(thresholds(booster).items()):
        for c in sorted(conds):
            c32 = np.float32(c)
            for v in (
                float(c32),
                float(np.nextafter(c32, np.float32(-np.inf))),
                float(np.nextafter(c32, np.float32(np.inf))),
                float(np.nextafter(float(c32), -np.inf)),
                float(np.nextafter(float(c32), np.inf)),
            ):
                r = base.copy()
                r[feat] = v
                rows.append(r)
    for feat in range(len(FEATURES)):
        r = base.copy()
        r[feat] = np.nan
        rows.append(r)
    rows.append(np.full(len(FEATURES), np.nan))
    return np.array(rows, dtype=np.float64)


CASES = [
    # name, extra parameters, rounds
    ("base_set_exact", {"base_score": 7.25, "tree_method": "exact"}, 6),
    ("base_default_hist", {"tree_method": "hist"}, 8),
]


def main():
    out = sys.argv[1]
    x, y = dataset(600, seed=20240611)
    x_test, _ = dataset(40, seed=7)
    dtrain = xgb.DMatrix(x, label=y, feature_names=FEATURES, missing=np.nan)
    for name, extra, rounds in CASES:
        params = {
            "objective": "reg:squarederror",
            "max_depth": 3,
            "eta": 0.3,
            "nthread": 1,
            "seed": 0,
        }
        params.update(extra)
        booster = xgb.train(params, dtrain, num_boost_round=rounds)
        booster.save_model(os.path.join(out, name + ".json"))
        px = probes(booster, x_test)
        pred = booster.predict(xgb.DMatrix(px, feature_names=FEATURES, missing=np.nan))
        with open(os.path.join(out, name + ".txt"), "w") as f:
            for row, p in zip(px, pred):
                f.write(" ".join(repr(float(v)) for v in row) + " " + repr(float(p)) + "\n")
    with open(os.path.join(out, "versions.txt"), "w") as f:
        f.write("xgboost %s numpy %s python %s\n" % (xgb.__version__, np.__version__, sys.version.split()[0]))


if __name__ == "__main__":
    main()
