"""What ``yardstick pool`` prints: a section per analysis of the report
(:data:`yardstick.analysis.pool.report.REGISTRY`), the inferred pool and its assumptions
first, the collection's characteristics and notes last."""

from __future__ import annotations

from yardstick.analysis.pool.report import REGISTRY


def _section(out, title, frame) -> None:
    from yardstick.presentation.export.cells import console_text
    from yardstick.presentation.export.columns import whole_numbers_as_integers as whole

    print(f"\n== {title}", file=out)      # a summary's counts as integers, shares as floats
    print(console_text(whole(frame) if list(frame.columns) == ["value"] else frame), file=out)


def _print_stats(report, out, tie_order: str) -> None:
    if report.stats is None:
        return
    _section(out, "pool", report.stats.summary.to_frame("value"))
    if report.assumptions is not None and report.assumptions.pooled:
        kind = report.assumptions.pooled.split(":")[0].split(" ")[0]
        print(f"pooled_runs and pool_groups count the {kind} pool (see Assumptions)", file=out)
    ties = int(report.stats.summary["boundary_ties"])
    print(f"tie order: {tie_order}; {ties} run-topic cut(s) at the pool depth fell "
          f"inside a group of tied scores"
          + (" (another --tie-order keeps other documents there)" if ties else ""), file=out)
    _section(out, "unjudged per run (mean per topic)",
             report.stats.per_run[["group", "pooled", "unjudged_10", "unjudged_100"]])


def _print_sources(report, out, tie_order: str) -> None:
    if report.earliest is not None:
        _section(out, "earliest rank of relevant documents in the pool",
                 report.earliest.histogram(25, max_rank=250).set_index("bin_start"))
        print(f"relevant documents no pooled run retrieved: {report.earliest.not_retrieved}",
              file=out)
    if report.depth_curve is not None:
        dc = report.depth_curve
        print(f"\nrelevant in pool at depth {dc.pool_depth}: "
              f"{int(dc.curve['relevant'].iloc[dc.pool_depth - 1])} of {dc.total_relevant} known; "
              f"fit F(d) = {dc.a:.2f} d^{dc.b:.3f} on depths {dc.fit_from}..{dc.pool_depth} "
              f"(R^2 {dc.r_squared:.3f})", file=out)
        _section(out, "deeper pools (estimate)", dc.extrapolated)


def _print_uniques(report, out, tie_order: str) -> None:
    for u in (report.uniques_run, report.uniques_group):
        if u is not None:
            _section(out, f"leave-out-uniques by {u.unit} ({u.measure})",
                     u.frame[["group", "unique_relevant", "score", "score_without", "percent",
                              "rank", "rank_without", "red_flag"]])
            s = u.summary
            print(f"mean {s['mean_percent']:.2f}%, max {s['max_percent']:.2f}%, "
                  f"red flags (>5%): {s['red_flags']}, runs {s['runs']} "
                  f"(left out: {s['left_out']})", file=out)
            print(f"judgments removed with their {u.unit}: {s['unique_judged']} "
                  f"({s['unique_relevant']} relevant; every judgment only that {u.unit} "
                  f"contributed, as Zobel 1998 and Buckley et al. 2007; listed in "
                  f"uniques_{u.unit}_removed with --out)", file=out)


def _print_titlestat(report, out, tie_order: str) -> None:
    from yardstick.presentation.export.cells import format_p

    if report.titlestat_rel is not None:
        print(f"\ntitlestat_rel: {report.titlestat_rel.mean:.4f}", file=out)
    if report.titlestat_compare is not None:
        c = report.titlestat_compare
        print(f"\ntitlestat_rel {c.names[0]} vs {c.names[1]}: {c.topics} topics, "
              f"{c.a_higher} higher in {c.names[0]}; paired t = {c.t_statistic:.3f}, "
              f"p = {format_p(c.p_value)}", file=out)
    if report.titlestat_uniques is not None:
        _section(out, "titlestat of unique relevant documents", report.titlestat_uniques)


def _print_simulate(report, out, tie_order: str) -> None:
    for name, sim in report.simulations.items():
        _section(out, f"simulation: {name} (reference {sim.reference} with the full qrels)",
                 sim.levels.pivot(index="level", columns="measure", values="kendall_tau")
                 .add_prefix("tau "))


#: what ``yardstick pool`` prints for each analysis of
#: :data:`yardstick.analysis.pool.report.REGISTRY`
PRINTERS = {"stats": _print_stats, "sources": _print_sources, "uniques": _print_uniques,
            "titlestat": _print_titlestat, "simulate": _print_simulate}


def _print_inferred(report, out) -> None:
    if report.assumptions is not None:
        print(report.assumptions.text(), file=out)
    inf = report.inferred
    if inf is None:
        return
    print(f"\n== inferred pool: {inf.summary()}", file=out)
    print(inf.reason, file=out)
    shown = inf.runs[inf.runs["contributing"] != "no"]
    if len(shown):
        print(shown[["group", "contributing", "depth", "judged_depth", "median_judged_depth",
                     "share_to_depth", "unique_documents"]]
              .to_string(float_format=lambda v: f"{v:.2f}"), file=out)
    untold = inf.topics[inf.topics["note"].str.startswith("cannot tell")]
    if len(untold):
        print(f"{len(untold)} topics cannot tell a depth: "
              f"{', '.join(map(str, untold.index[:10]))}{' …' if len(untold) > 10 else ''}",
              file=out)


def print_report(report, out, tie_order: str = "trec_eval") -> None:
    """The report's summary, analysis by analysis, as ``yardstick pool`` prints it."""
    _print_inferred(report, out)
    for name in REGISTRY:
        PRINTERS[name](report, out, tie_order)
    if report.characteristics is not None:
        _section(out, "collection characteristics (Buckley et al. 2007, Table 1)",
                 report.characteristics.to_frame().T)
    for n in report.notes:
        print(f"note: {n}", file=out)
