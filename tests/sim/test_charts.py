"""The analytics charts (issue 35): every label inside the figure, legends off the data,
13 distinct joker lines, whole-number ticks on count axes, no interval from one sample."""

from __future__ import annotations

import pytest

from cardtable.sim.analytics_report import mean_text, write_charts
from cardtable.sim.output import pyplot

ABLUXXEN = [(v, n) for v in ("basic", "advanced", "expert") for n in (3, 4, 5)] + \
    [("classic", n) for n in (2, 3, 4, 5)]


def _share(rate):
    return {"rate": rate, "low": rate - 0.05, "high": rate + 0.05, "n": 1000}


def _summary(game, players, variant=None):
    label = f"{game}/{variant + '/' if variant else ''}{players}p"
    s = {"game": game, "label": label, "players": players, "variant": variant,
         "seats": [{"seat": k, **_share(1 / players + 0.02 * (k == 1))} for k in range(players)],
         "decisions": {"p10": 40, "median": 90, "p90": 300}}
    if game == "abluxxen":
        s.update(abluxx_turns=_share(0.4), ended_by_hand=_share(0.99),
                 jokers=[{"jokers": j, "n": 500, **_share((0.8 + 0.1 * j) / players)}
                         for j in range(4)])
    else:
        s["calls"] = [{"circuit": c, "rounds": 500, "caller_score": {"mean": 8 + c}}
                      for c in (1, 2)]          # two circuits: matplotlib ticks 1.2, 1.4
    return s


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    plt = pyplot()
    kept = {}
    close = plt.close
    summaries = [_summary("abluxxen", n, v) for v, n in ABLUXXEN] + \
        [_summary("kombio", n) for n in range(2, 7)]
    plt.close = lambda fig: kept.setdefault(len(kept), fig)      # keep them to look at
    try:
        names = write_charts(summaries, tmp_path_factory.mktemp("charts"))
    finally:
        plt.close = close
    figs = dict(zip(names, kept.values()))
    yield figs
    for f in figs.values():
        close(f)


def _inside(box, fig):
    return box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.x1 + 0.5 \
        and box.y1 <= fig.bbox.y1 + 0.5


def test_labels_are_inside_the_figure(figures):
    assert set(figures) >= {"seats.png", "lengths.png", "abluxx.png", "jokers.png",
                            "kombio-calls.png"}
    for name, fig in figures.items():
        r = fig.canvas.get_renderer()
        for ax in fig.axes:
            for text in (ax.yaxis.label, ax.xaxis.label, ax.title):
                if text.get_text():
                    assert _inside(text.get_window_extent(r), fig), (name, text.get_text())
            assert _inside(ax.get_tightbbox(r), fig), name


def test_legends_do_not_cover_the_data(figures):
    for name in ("seats.png", "abluxx.png", "jokers.png"):
        fig = figures[name]
        r = fig.canvas.get_renderer()
        ax = fig.axes[0]
        legend = ax.get_legend().get_window_extent(r)
        assert not legend.overlaps(ax.get_window_extent(r)), name
        assert _inside(legend, fig), name


def test_joker_lines_have_distinct_colours(figures):
    ax = figures["jokers.png"].axes[0]
    lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
    assert len(lines) == 13
    assert len({tuple(ln.get_color()) for ln in lines}) == 13


@pytest.mark.parametrize("name", ["jokers.png", "kombio-calls.png"])
def test_count_axes_have_whole_ticks(figures, name):
    ax = figures[name].axes[0]
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks)


def test_no_interval_from_one_sample():
    assert mean_text({"mean": 12.0, "low": 12.0, "high": 12.0, "n": 1}) == "12.00 (n=1)"
    assert mean_text({"mean": 12.0, "low": 11.0, "high": 13.0, "n": 30}) == "12.00 (11.00–13.00)"
    assert mean_text({"mean": 0.0, "low": 0.0, "high": 0.0, "n": 0}) == "–"
