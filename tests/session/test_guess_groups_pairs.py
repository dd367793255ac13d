"""``guess_groups`` compares tags only within buckets of their first letters; it must give
what joining every pair the rule joins (and closing over shared members) gives."""

from __future__ import annotations

import random

from yardstick.inputs.run_names import _same_team, _stem
from yardstick.session.workspace import guess_groups


def _every_pair(tags, min_prefix=3):
    stems = [_stem(t) for t in tags]
    group = list(range(len(tags)))
    changed = True
    while changed:
        changed = False
        for i in range(len(tags)):
            for j in range(len(tags)):
                if (i != j and len(stems[i]) >= min_prefix and len(stems[j]) >= min_prefix
                        and _same_team(stems[i], stems[j], min_prefix)
                        and group[i] != group[j]):
                    low = min(group[i], group[j])
                    old = {group[i], group[j]}
                    group = [low if g in old else g for g in group]
                    changed = True
    return group


def _partition(labels):
    return sorted(sorted(i for i, x in enumerate(labels) if x == lab)
                  for lab in set(labels))


def test_buckets_give_the_every_pair_partition():
    rng = random.Random(7)
    for _ in range(2000):
        tags = ["".join(rng.choice("abAB1_") for _ in range(rng.randint(0, 8)))
                for _ in range(rng.randint(0, 12))]
        for m in (1, 2, 3):
            got = guess_groups(tags, m)
            want = _every_pair(tags, m)
            grouped = [i for i in range(len(tags)) if got[i]]
            # every grouped run is with exactly the runs the every-pair rule puts with it
            for i in grouped:
                assert {j for j in range(len(tags)) if got[j] == got[i]} == \
                    {j for j in range(len(tags)) if want[j] == want[i]}, (tags, m)
            for i in set(range(len(tags))) - set(grouped):
                assert want.count(want[i]) == 1, (tags, m)


def test_a_track_of_team_prefixed_tags():
    tags = [f"{team}04{kind}{i}" for team in ("pircRB", "uogRob", "apl", "JuruDes")
            for kind in ("t", "d") for i in range(3)] + ["x1", "solo"]     # pircRB04t1 style
    got = guess_groups(tags)
    assert got[:6] == ["pircRB04"] * 6 and got[6:12] == ["uogRob04"] * 6
    assert got[-2:] == ["", ""]          # shares nothing
