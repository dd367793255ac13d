"""``guess_groups`` compares each tag only with its neighbours in sorted order; it must give
what comparing every pair of tags gives (the rule in its docstring), written out here."""

from __future__ import annotations

import itertools
import random

from yardstick.session.workspace import guess_groups


def _every_pair(tags, min_prefix=3):
    heads = ["".join(itertools.takewhile(str.isalpha, t)) for t in tags]
    out = []
    for i, h in enumerate(heads):
        best = ""
        for j, o in enumerate(heads):
            k = 0
            while j != i and k < min(len(h), len(o)) and h[k] == o[k]:
                k += 1
            if k >= min_prefix and k > len(best):
                best = h[:k]
        out.append(best or (h if len(h) >= min_prefix and h != tags[i] else ""))
    return out


def test_neighbours_in_sorted_order_give_the_every_pair_answer():
    rng = random.Random(7)
    for _ in range(3000):
        tags = ["".join(rng.choice("abAB1_") for _ in range(rng.randint(0, 8)))
                for _ in range(rng.randint(0, 12))]
        for m in (1, 2, 3):
            assert guess_groups(tags, m) == _every_pair(tags, m), (tags, m)


def test_a_track_of_team_prefixed_tags():
    tags = [f"{team}0{i}{kind}" for team in ("pircRB", "uogRob", "apl", "JuruDes")
            for kind in ("t", "d") for i in range(3)] + ["x1", "solo"]     # pircRB04t1 style
    got = guess_groups(tags)
    assert got[:6] == ["pircRB"] * 6 and got[6:12] == ["uogRob"] * 6
    assert got[-2:] == ["", ""]          # shares nothing; "solo" is its own tag
