"""Every stability table is the same, number for number, as the code before the speed-up.

``FROZEN`` holds the SHA-256 of every table (written with ``repr`` precision) that
:func:`run_stability` made with the code at commit cf12bac (before issue #30's speed work)
on the seeded score matrices of :func:`frozen_matrices`: a vectorised or compiled path that
changed one count, one bin or one random draw changes a digest.  The same digests must come
out with the compiled kernels switched off (the numpy path), so both paths are pinned.

Changed on purpose once since: the 12 ``*_fits_*`` / ``*_rates_*`` tables whose bins had a
degenerate exponential fit (the decay at the search's edge, ``A2 = 10``) now show no curve
for those bins (see ``exponential_fit.fit_exponential``); every count, rate, summary and
minimum difference kept its digest.

Regenerate (only when a change of numbers is intended, and say so in the README)::

    .venv/bin/python tests/analysis/test_stability_frozen.py
"""

from __future__ import annotations

import hashlib
import io

import numpy as np
import pandas as pd

from yardstick.analysis.stability.report import ANALYSES, StabilitySettings, run_stability
from yardstick.common.progress import run_sync

#: table name -> sha256 of its CSV, from cf12bac's code (see the module docstring)
FROZEN: dict[str, str] = {
    "bootstrap/bootstrap_fits_P_10_all":
        "32288253310fa9ae10d6951c8df1d2123b9e1f3ff60758d96cca3a65c96bc771",
    "bootstrap/bootstrap_fits_P_10_even":
        "4fa37e3eaa20000db2ee9464f45a436bf2fa8ca5a474087bfc89dbd757300535",
    "bootstrap/bootstrap_fits_P_10_odd":
        "ecb9335465c561880ae221d23004c23ed7873a936b61b9594b25c23111d6d893",
    "bootstrap/bootstrap_fits_area_all":
        "863d5b86f65bdf7a04aba94ffccca2dece6b2569fe898b92153d0782d048cb64",
    "bootstrap/bootstrap_fits_area_even":
        "0c3b23a98ac41972ff88bdf9ee47c06308a8fe9a14c00bdb1e673f0e85d9fdd8",
    "bootstrap/bootstrap_fits_area_odd":
        "b546bb5c8dc033507cca2ae427bfe651293b1336e7f04f2824d360ef4b3b16d3",
    "bootstrap/bootstrap_fits_map_all":
        "87cfe6e5ca3b331e2f4649a80bc42b9cc799ebac2c2b2b5b07df3a3fb6bb76c3",
    "bootstrap/bootstrap_fits_map_even":
        "b9d85f06da34ea96e647a616a041212aecbe033e9c2873f71b00a6beee3da82f",
    "bootstrap/bootstrap_fits_map_odd":
        "19334fc33da84696918d75aebf5468af3cfe2e568ac2fcc61a6c326da3d7bab8",
    "bootstrap/bootstrap_rates_P_10_all":
        "482aa969fcb4ffffdb1ccf2ee4f155c4a87e1edeb885d6b0c4fd769556aa8bf1",
    "bootstrap/bootstrap_rates_P_10_even":
        "1106f39ba60862df8a170516f083b88151c9ad83d6855d8b8cbfcdc1f40b8fbd",
    "bootstrap/bootstrap_rates_P_10_odd":
        "032d819c789defa1236d3defc90c299bd6880552b70b77904bc50c72e7b1b55f",
    "bootstrap/bootstrap_rates_area_all":
        "f027d33ee404afb60693fbb9d10416f5b7c54b9245ca2c27cfef698e519eb778",
    "bootstrap/bootstrap_rates_area_even":
        "38d25465d58eef823bb68f2905fb83c1a2d2c41f0b769d127d6989089fefaa24",
    "bootstrap/bootstrap_rates_area_odd":
        "6bf05ec7698e6612483d8278764061d9014a793326de91e3b8ca546aa4ec4713",
    "bootstrap/bootstrap_rates_map_all":
        "92beb412a41097294568c8370e507596ba9a8acbcd95c26d7e352b78d0e55c58",
    "bootstrap/bootstrap_rates_map_even":
        "855a8383ecfb2b95fed174faba61a1d8ed0feab6a76025650e48edb78238a3f7",
    "bootstrap/bootstrap_rates_map_odd":
        "b8e9c447fedc7a8dcb793016e12c37f937f7ba4897588eecb1a24008ac6abf7d",
    "bootstrap/bootstrap_summary":
        "a85c1b73e8767eaf5c2183557b34458a4cf6be1a85641e7920c7c3dc79e7c26f",
    "bootstrap/notes":
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "discriminative/asl_curve_P_10_all":
        "fec224bbe8e480a8140301b2813e9cfc45278bff04921641bb4352fc00473ccc",
    "discriminative/asl_curve_P_10_even":
        "79348f2b6c3058f8bc03a0621c6e6315ca367b2f87d135ad9f2413814e5dc700",
    "discriminative/asl_curve_P_10_odd":
        "31d037fdf5b91c2f360b3fa296cede1e0f7c43b970589e004caec4869ee64974",
    "discriminative/asl_curve_map_all":
        "3445c582542b873fa056c6b337ca5a9341068385dd88a54f0b8a07908ab247a6",
    "discriminative/asl_curve_map_even":
        "74f9417336f17b71db908f4fa68344f302ec5e6bdf01268cb62d5c938a9758f3",
    "discriminative/asl_curve_map_odd":
        "494ba2a3321222b70ff42e37634d44ae8b6cf65cdb3f907e4eb84d1a20c77ca2",
    "discriminative/discriminative_power":
        "034392e5608d6cac3497266042774c4c780448888e3f9735f8d4b66334396f36",
    "discriminative/notes":
        "35f1abe674e8ed7a96933eb1ecf061eac263847269f96310ac3600167ba4705c",
    "error-rate/error_rate":
        "a3abcb16990f62c72d2b2a81a6c30ee5bcfba57877df29611a128e8a1786849b",
    "error-rate/notes":
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "kendall/notes":
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "kendall/rank_correlation_groups":
        "e875d628142b819f2601d3e987bf36dc2bc2d5f01334b3390ec064ac28aad362",
    "kendall/ranking_legend":
        "0e4ebcd6c5eb7ef95ae07f08a2bb5feee18c7d9252567875f5938272ed963801",
    "kendall/ranking_strings":
        "0696cf4996625159b13a008b3e6ae8319018a29b84acdd5ea64035e275cda6cf",
    "sensitivity/notes":
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "sensitivity/sensitivity":
        "a7ee02f665fd9435c0ca989240ab44c9b5ecc13cdb7072d302488cdd519b5c7f",
    "swap/disjoint_fits_P_10_all":
        "e423eba524ee13d6a49139fbb4c799180e66f166a23ae3743d465504f26b5a90",
    "swap/disjoint_fits_P_10_even":
        "2ffafa2df47a3347cd2283bb58bdf774ff5ed6a18750c9425baa8fc5e65a0d0a",
    "swap/disjoint_fits_P_10_odd":
        "7e9e89dc5a58133fde7316dc16c8bdb26c0cda03521d8ddbf3cf471b01052fbb",
    "swap/disjoint_fits_area_all":
        "0d7b83f04506c044c0768cf34a1b7453ff3b25f747ff88561ea5b064227f54f2",
    "swap/disjoint_fits_area_even":
        "e0844da39d137afbc0bea3599bd09ddf94950781e1408eaf5dba4158b157229d",
    "swap/disjoint_fits_area_odd":
        "84f4e6a854e746e87731b893101d7ffc2b4f847283907124387dfe1ba00a71e3",
    "swap/disjoint_fits_map_all":
        "51efd5f6c9ea2eb2668a2c3ca981c758c85da8e65c65d0a43897e671daf6f011",
    "swap/disjoint_fits_map_even":
        "8ef56c43a67508403754801c29bf98b276e1a50b32718a834fdc958341466289",
    "swap/disjoint_fits_map_odd":
        "191bb1cc77a65fa6d3a6b3c472a63bace7021e7bd73aaa23e85283a783457b11",
    "swap/disjoint_rates_P_10_all":
        "d8ffd3007bab168ad68cf90947123e2895259ff9f5e5d507a46c0d0459bc7103",
    "swap/disjoint_rates_P_10_even":
        "e6b79c7537e971e13fb4aa399896d8a42701dea03fc525fd7cfaf394e51b9a46",
    "swap/disjoint_rates_P_10_odd":
        "994d5616b3f3f389f97ac7d5582dca52471b511f39ac454afe959a91aec3b56c",
    "swap/disjoint_rates_area_all":
        "4a680582d0299da6895f86591b237d9b3a8ff1f239df6f3f925062c2ad692e46",
    "swap/disjoint_rates_area_even":
        "f75e933d46e2563a2350b443e05b689a0daa171bedb7eaf8634bd88909132122",
    "swap/disjoint_rates_area_odd":
        "3827bb8671b4186ea512a6ea1a1b4b02a4f82a2d09edf9a988baee681dc1b629",
    "swap/disjoint_rates_map_all":
        "cde5af2517b3aa6c1901bef0e1d94ec9542cd2163e7f5f2d1963fda2cfa08c26",
    "swap/disjoint_rates_map_even":
        "14bd08aa5f34bb59caaf6e789961c25ace5d91c173bec6236d714012e310771f",
    "swap/disjoint_rates_map_odd":
        "78f8fbe9930dee3d198043ffc8e1547eb2a4af101991233d10596ce93e013602",
    "swap/disjoint_summary":
        "36dd3533042786bd7634b1a737cec4bece1a0cfcbdae17d154bc549ea12371d7",
    "swap/notes":
        "f4d6e3566a233e8fbe67e0f912dc42de4ca6a48408e9d0a191e8baa6ba771439",
    "taup/notes":
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "taup/rank_correlation_groups":
        "e875d628142b819f2601d3e987bf36dc2bc2d5f01334b3390ec064ac28aad362",
    "taup/ranking_legend":
        "0e4ebcd6c5eb7ef95ae07f08a2bb5feee18c7d9252567875f5938272ed963801",
    "taup/ranking_strings":
        "0696cf4996625159b13a008b3e6ae8319018a29b84acdd5ea64035e275cda6cf",
    "topic-set-size/notes":
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "topic-set-size/topic_set_size_P_10_all":
        "a9f209f271f3c56006336916829b07837c5da2025ae528f39c1352d01ac6703e",
    "topic-set-size/topic_set_size_P_10_even":
        "442e5f82773d86efa44e61248a39688e264b8e030010f85463d12f488a82ce03",
    "topic-set-size/topic_set_size_P_10_odd":
        "26d394b6e2f2d94e360d87d8b6ecb18e40cbc5351da5b6188ae6571005b10881",
    "topic-set-size/topic_set_size_map_all":
        "e3b18a0a91afbf0180192dbf1577eb0b9d1a57e27e4502c9f624f6fd5b3470ac",
    "topic-set-size/topic_set_size_map_even":
        "50001336da0b6ce50b3367ec77f8c1ca6150752364f9e8ff36ee7697d46bae7f",
    "topic-set-size/topic_set_size_map_odd":
        "9c13112e03761e8d10ea032c7c0605c19eccb4f5324d3f054d32657039ae6646",
    "tukey/notes":
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "tukey/tukey_P_10_all":
        "dcf3934d9e44e61eeaae08ff96624303efb5b05704160c86052b705c7c5f0ceb",
    "tukey/tukey_P_10_even":
        "c0d14d0adb3efe15b06930552e702efd2a9ddf0d7bbe928e8890f37d85a4265c",
    "tukey/tukey_P_10_odd":
        "62e24815c171456d819a5170702e47695ed1725159e88260c8095778b08df4a1",
    "tukey/tukey_area_all":
        "5f135bc1864f88bdfb1970b86c56756c39d2dec3f02565520f44dba2ebacffff",
    "tukey/tukey_area_even":
        "d0a59de71dc1b3e4daa9cfcb5e9188805c6a15ea473e213b5fce7d6059996877",
    "tukey/tukey_area_odd":
        "6f4d5bea41ee36be15d0cd194af47ebfb77d15f87ac9e7c19af9a17cbb53ed78",
    "tukey/tukey_map_all":
        "6237e82b5ba6f67ed49b4847e46be40cf173831e5df0241ea7bb983a9eee098c",
    "tukey/tukey_map_even":
        "e6889cde493bbb9548395892d27ad7d1ec348259a3070f0b17e59d45981e1950",
    "tukey/tukey_map_odd":
        "9d6d73251bd8d7106d99ea7c35a201cbf44075481f3f6912d608fd89e0dd43ea",
}


def frozen_matrices() -> tuple[dict[str, pd.DataFrame], pd.DataFrame]:
    """40 runs × 30 topics: AP-like continuous scores, P@10-like tenths (exact ties and
    differences on bin edges) and ``area`` (the worst-topics aggregate)."""
    rng = np.random.default_rng(30)
    topics = [str(t) for t in range(401, 431)]
    runs = [f"run{k:02d}" for k in range(40)]
    ap = np.clip(rng.beta(2, 5, (30, 1)) + rng.normal(0, 0.12, (30, 40))
                 + np.linspace(0, 0.25, 40), 0, 1)
    ap = pd.DataFrame(ap, index=topics, columns=runs)
    p10 = (ap * 10).round() / 10
    return {"map": ap, "P_10": p10, "area": ap}, ap


def table_digests() -> dict[str, str]:
    matrices, tie = frozen_matrices()
    topics = list(tie.index)
    sets = {"all": topics, "odd": topics[::2], "even": topics[1::2]}
    st = StabilitySettings(samples=200, seed=11)
    out: dict[str, str] = {}
    for analysis in ANALYSES:
        rep = run_sync(run_stability(matrices, [analysis], sets, st, tie))
        for t in rep.tables:
            buf = io.StringIO()
            t.frame.to_csv(buf, float_format="%r")
            out[f"{analysis}/{t.name}"] = hashlib.sha256(buf.getvalue().encode()).hexdigest()
        notes = "\n".join(rep.notes).encode()
        out[f"{analysis}/notes"] = hashlib.sha256(notes).hexdigest()
    return out


def test_every_table_as_before_the_speed_up():
    got = table_digests()
    assert sorted(got) == sorted(FROZEN)
    assert [k for k in FROZEN if got[k] != FROZEN[k]] == []


if __name__ == "__main__":
    import json
    print(json.dumps(table_digests(), indent=4, sort_keys=True))
