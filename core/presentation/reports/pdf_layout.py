"""The PDF report's page layout: A4 sheets, proportional fonts, wrapped titles, tables that
continue on the next sheet, per-topic charts split into rows, a provenance footer.

Text widths are measured with matplotlib's font metrics
(:data:`matplotlib.textpath.text_to_path`), so columns of a proportional font line
up without a monospaced font.  A report page becomes as many A4 sheets as it
needs: tables flow left to right and wrap to a new row, a table too long for
the rest of the sheet continues in a column beside it or on the next sheet,
under its title with "(continued)" and its header row repeated; figure titles
wrap to the figure's width; and a figure whose data has more than
:data:`TOPICS_PER_ROW` topics is drawn as several full-width rows of at most that
many topics each.
"""

from __future__ import annotations

from matplotlib.font_manager import FontProperties
from matplotlib.textpath import text_to_path

from yardstick.presentation.export.cells import cells, flag_cells, marker_cells, numeric_columns
from yardstick.presentation.reports.figures import new_figure

__all__ = ["PdfLayout", "text_width", "wrap", "TOPICS_PER_ROW"]

PAGE_W, PAGE_H = 595.3, 841.9       # A4 in points
MARGIN = 40.0
FOOTER_H = 34.0
TABLE_PT = 7.5
#: a table too wide at this size is split into groups of columns, each under the index
MIN_TABLE_PT = 6.0
LINE = 1.4
TOPICS_PER_ROW = 60
#: per-topic figures with more topics than this get the page's width (labels legible)
TOPICS_PER_HALF = 25
#: a figure with more labelled rows than this (a ranking of runs) is drawn in parts
ROWS_PER_HALF = 24
#: points a run of such a ranking, and its labels' size
ROW_PT, RANK_LABEL_PT = 8.5, 6.5
FAMILY = "sans-serif"


def text_width(s: str, size: float, bold: bool = False) -> float:
    """Width of ``s`` in points in the report's proportional font."""
    prop = FontProperties(family=FAMILY, size=size, weight="bold" if bold else "normal")
    return text_to_path.get_text_width_height_descent(s, prop, ismath=False)[0]


def wrap(s: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of ``s`` into lines no wider than ``width`` points."""
    lines, cur = [], ""
    for word in s.split():
        trial = f"{cur} {word}" if cur else word
        if cur and text_width(trial, size, bold) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return lines + [cur] if cur else lines or [""]


class PdfLayout:
    """Writes report pages onto A4 sheets of a matplotlib ``PdfPages``."""

    def __init__(self, pdf, doc_title: str, footer: str = ""):
        self.pdf, self.doc_title, self.footer = pdf, doc_title, footer
        self.fig = None
        self.sheets = 0
        self.page_subtitle = ""

    # -- sheets ---------------------------------------------------------------
    def _text(self, x, y, s, size, **kw):
        self.fig.text(x / PAGE_W, y / PAGE_H, s, fontsize=size, family=FAMILY, **kw)

    def new_sheet(self, title: str, subtitle: str = "", continued: bool = False) -> None:
        self.close_sheet()
        self.fig = new_figure(PAGE_W / 72, PAGE_H / 72)
        self.fig.set_layout_engine(None)
        self.sheets += 1
        y = PAGE_H - MARGIN + 12
        self._text(PAGE_W / 2, y, self.doc_title, 10, ha="center", va="top", color="#555")
        y -= 16
        head = title + (" (continued)" if continued else "")
        for line in wrap(head, PAGE_W - 2 * MARGIN, 14, True):
            self._text(PAGE_W / 2, y, line, 14, ha="center", va="top", weight="bold")
            y -= 18
        if subtitle and not continued:
            for line in wrap(subtitle, PAGE_W - 2 * MARGIN, 9):
                self._text(PAGE_W / 2, y, line, 9, ha="center", va="top")
                y -= 12
        self.top = y - 8
        self.x, self.y, self.row_h = MARGIN, self.top, 0.0
        self.page_title = title
        if not continued:
            self.page_subtitle = subtitle

    def close_sheet(self) -> None:
        if self.fig is None:
            return
        lines = wrap(self.footer, PAGE_W - 2 * MARGIN - 40, 6)[:5]
        y = 20 + 8 * (len(lines) - 1)            # the last line ends 14 pt above the edge
        for line in lines:
            self._text(MARGIN, y, line, 6, va="top", color="#666")
            y -= 8
        self._text(PAGE_W - MARGIN, MARGIN - 8, str(self.sheets), 7, ha="right", va="top")
        self.pdf.savefig(self.fig)
        self.fig = None

    @property
    def bottom(self) -> float:
        return MARGIN + FOOTER_H - 10

    def _new_row(self, gap: float = 14.0) -> None:
        if self.x > MARGIN:
            self.y -= self.row_h + gap
        self.x, self.row_h = MARGIN, 0.0

    # -- tables ---------------------------------------------------------------
    def table(self, t) -> None:
        """Place a :class:`~yardstick.presentation.reports.document.ReportTable`.

        A table longer than the room left continues in a column beside it when the sheet
        is wide enough, else on the next sheet; each part repeats the title (with
        "(continued)") and the header row.
        """
        header, body = cells(t.frame, t.decimals)
        right = numeric_columns(t.frame)
        head = [header] if t.header else []
        head_bold = [[True] * len(header)] if t.header else []
        marks = marker_cells(t.frame, t.markers)
        bolds = [[bool(b) for b in r] for r in flag_cells(t.frame, t.bold, "1")]
        size = TABLE_PT
        avail = PAGE_W - 2 * MARGIN
        rows, row_bolds = head + body, head_bold + bolds
        while True:
            mark_w = [max([text_width(m[j], 0.75 * size) for m in marks] + [0.0])
                      for j in range(len(header))]
            widths = [max(text_width(r[j], size, row_bolds[i][j]) for i, r in enumerate(rows))
                      + mark_w[j] for j in range(len(header))]
            w = sum(widths) + 10 * (len(widths) - 1)
            if w <= avail or size <= MIN_TABLE_PT:
                break
            size -= 0.5
        if w > avail and t.frame.shape[1] > 1:
            for part in _column_groups(t, widths, avail):   # never a column off the sheet
                self.table(part)
            return
        w = max(w, min(avail, 160.0, text_width(t.title, 9, True)))   # long titles wrap
        # a table's own caption (the baselines' symbols, a correction) unless the page
        # already says it (the subtitle may go on to say where a long table's files are):
        # the reader of the PDF needs it as much as the LaTeX file's
        caption = t.caption if t.caption and not self.page_subtitle.startswith(t.caption) \
            else ""
        if caption:
            w = max(w, min(avail, 260.0, text_width(caption, 8)))
        line_h = LINE * size
        if self.x > MARGIN and self.x + w > PAGE_W - MARGIN:
            self._new_row()

        def draw_row(r, mrow, brow, y):
            cx = self.x
            for j, cell in enumerate(r):
                bold = brow[j]
                end = cx + widths[j] - mark_w[j] if right[j] else cx + text_width(cell, size,
                                                                                  bold)
                weight = "bold" if bold else "normal"
                if right[j]:
                    self._text(end, y, cell, size, va="top", ha="right", weight=weight)
                else:
                    self._text(cx, y, cell, size, va="top", weight=weight)
                if mrow[j]:
                    self._text(end + 0.5, y + 0.3 * size, mrow[j], 0.75 * size, va="top")
                cx += widths[j] + 10

        start = 0
        while True:
            title_lines = wrap(t.title + (" (continued)" if start else ""), w, 9, True)
            cap_lines = wrap(caption, w, 8) if caption and not start else []
            room = (self.y - self.bottom - 12 * len(title_lines) - 10 * len(cap_lines) - 4
                    - line_h * len(head))
            fit = int(room // line_h)
            if fit < min(len(body) - start, 5) and self.y < self.top:
                self.new_sheet(self.page_title, continued=True)
                continue
            chunk = range(start, min(len(body), start + max(fit, 1)))
            y = self.y
            for line in title_lines:
                self._text(self.x, y, line, 9, va="top", weight="bold")
                y -= 12
            for line in cap_lines:
                self._text(self.x, y, line, 8, va="top")
                y -= 10
            y -= 4
            for r in head:
                draw_row(r, [""] * len(r), head_bold[0], y)
                y -= line_h
            for i in chunk:
                draw_row(body[i], marks[i], bolds[i], y)
                y -= line_h
            start = chunk.stop
            self.row_h = max(self.row_h, self.y - y)
            if start >= len(body):
                break
            if self.x + 2 * w + 24 <= PAGE_W - MARGIN:
                self.x += w + 24                 # the next part in a column beside this one
            else:
                self.new_sheet(self.page_title, continued=True)
        self.x += w + 24

    # -- figures --------------------------------------------------------------
    def figures(self, figs) -> None:
        """Two figures per row; per-topic figures with many topics split into full-width rows."""
        self._new_row(20)
        half = (PAGE_W - 2 * MARGIN - 20) / 2
        for f in figs:
            data = f.data
            n = len(data) if data is not None else 0
            if f.rows > ROWS_PER_HALF:          # 150 runs: every run labelled, in parts
                self._ranking(f)
                continue
            if f.per_topic and TOPICS_PER_HALF < n <= TOPICS_PER_ROW:
                self._new_row(20)
                self._figure(f, PAGE_W - 2 * MARGIN, 190, None)
                self._new_row(20)
                continue
            if f.per_topic and n > TOPICS_PER_ROW:
                self._new_row(20)
                labels = [str(x) for x in data.index]
                per = -(-n // -(-n // TOPICS_PER_ROW))       # equal rows of at most 60
                for i0 in range(0, n, per):
                    i1 = min(n, i0 + per)
                    self._figure(f, PAGE_W - 2 * MARGIN, 190,
                                 (i0, i1, labels[i0:i1], f"topics {i0 + 1}-{i1} of {n}"))
                    self._new_row(20)
                continue
            if self.x > MARGIN + half:
                self._new_row(20)
            self._figure(f, half, 230, None)

    def _ranking(self, f) -> None:
        """A ranking of many runs in parts of at most a sheet's height, :data:`ROW_PT` a
        run so that every run's name is written; two parts side by side when the names
        leave room for the plot."""
        self._new_row(20)
        labels = [str(x) for x in f.data["run"]] if f.data is not None and "run" in f.data \
            else None                      # None: the labels the chart draws itself
        room = self.top - self.bottom - 20
        per = max(10, int((room - 60) // ROW_PT))
        parts = -(-f.rows // per)
        per = -(-f.rows // parts)
        name_w = max(text_width(lb, RANK_LABEL_PT) for lb in labels or ["0" * 12]) + 8
        half = (PAGE_W - 2 * MARGIN - 20) / 2
        w = half if parts > 1 and name_w + 150 <= half else PAGE_W - 2 * MARGIN
        for i0 in range(0, f.rows, per):
            i1 = min(f.rows, i0 + per)
            if self.x + w > PAGE_W - MARGIN + 1:
                self._new_row(20)
            self._figure(f, w, 60 + ROW_PT * (i1 - i0),
                         ("rows", i0, i1, labels[i0:i1] if labels else None,
                          f"runs {i0 + 1}-{i1} of {f.rows}"),
                         left=name_w)
        self._new_row(20)

    def _figure(self, f, w: float, h: float, chunk, left: float = 42) -> None:
        if self.y - h < self.bottom:
            self.new_sheet(self.page_title, continued=True)
            self.x, self.row_h = MARGIN, 0.0
        bottom = 44 if chunk and chunk[0] != "rows" else 34
        ax = self.fig.add_axes((0, 0, 1, 1))
        f.draw(ax)
        title = ax.get_title()
        if chunk is not None and chunk[0] == "rows":
            _, i0, i1, labels, note = chunk
            ax.set_ylim(i1 - 0.5, i0 - 0.5)
            if labels is not None:
                ax.set_yticks(range(i0, i1), labels, fontsize=RANK_LABEL_PT)
            title = f"{title} ({note})"
        elif chunk is not None:
            i0, i1, labels, note = chunk
            ax.set_xlim(i0 - 0.6, i1 - 0.4)
            ax.set_xticks(range(i0, i1), labels, rotation=90, fontsize=6)
            title = f"{title} ({note})"
        right = 8.0
        legend = ax.get_legend()
        if legend is not None and legend.get_bbox_to_anchor().x0 > ax.bbox.x1 - 1:
            # the legend sits right of the axes (render_mpl): the figure's slot grows into
            # the free room on its right, else the plot narrows; the legend stays on the page
            legend_w = legend.get_window_extent().width * 72.0 / self.fig.dpi + 6
            w += min(legend_w, max(0.0, PAGE_W - MARGIN - self.x - w))
            right += legend_w
        lines = wrap(title, w - left - right, 9) if title else []
        ax.set_title("\n".join(lines), fontsize=9)      # wrapped to the axes, never clipped
        top = 8 + 11 * max(len(lines), 1)
        ax.set_position(((self.x + left) / PAGE_W, (self.y - h + bottom) / PAGE_H,
                         (w - left - right) / PAGE_W, (h - bottom - top) / PAGE_H))
        self.x += w + 20
        self.row_h = max(self.row_h, h)


def _column_groups(t, widths: list[float], avail: float) -> list:
    """``t`` as tables of consecutive columns that each fit ``avail`` points, the index
    columns repeated in each, titled with the columns they hold."""
    from dataclasses import replace

    from yardstick.presentation.export.cells import label, n_index

    k = n_index(t.frame)
    fixed = sum(widths[:k]) + 10 * k
    groups: list[list[int]] = [[]]
    used = fixed
    for j in range(t.frame.shape[1]):
        cw = widths[k + j] + 10
        if groups[-1] and used + cw > avail:
            groups.append([])
            used = fixed
        groups[-1].append(j)
        used += cw
    parts = []
    for g in groups:
        cols = t.frame.columns[g]
        names = ", ".join(label(c) for c in cols)
        parts.append(replace(
            t, frame=t.frame[cols], title=f"{t.title} ({names})",
            markers=t.markers.reindex(columns=cols) if t.markers is not None else None,
            bold=t.bold.reindex(columns=cols) if t.bold is not None else None))
    return parts
