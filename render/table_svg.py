"""The summary picture: players, corporations, bank, phase and trains (TableView -> SVG).

Plain tables; column widths come from the measured text so nothing overlaps whatever the
names are.
"""

from __future__ import annotations

from collections.abc import Sequence

from render.geometry import fmt
from render.svgkit import attrs, document, esc, text, text_width
from render.view import CorpRow, PlayerRow, TableView

FONT = 12.0
FONT_HEAD = 10.0
FONT_TITLE = 16.0
ROW_H = 22.0
PAD = 10.0
MARGIN = 14.0
STRIPE = "#f1f1f1"
ACTIVE = "#fff3b0"


def table_svg(view: TableView) -> str:
    """Render the game summary as SVG text."""
    body: list[str] = []
    y = MARGIN
    bank = f" \u2014 Bank {money(view.bank_cash)}" if view.bank_cash is not None else ""
    head = f"{view.title} \u2014 {view.round_name} \u2014 Phase {view.phase}{bank}"
    body.append(text(MARGIN, y + FONT_TITLE / 2, head, FONT_TITLE, anchor="start", bold=True, cls="title"))
    y += FONT_TITLE + 12
    widths: list[float] = []
    blocks: list[tuple[str, list[str], list[list[str]], list[dict[str, str]]]] = []

    shorts = any(p.shorts is not None for p in view.players)
    header = ["", "Player", "Cash", "Value", "Certs", "Shares"] + (["Shorts"] if shorts else []) + ["Privates"]
    blocks.append(("players", header, [_player_cells(p, shorts) for p in view.players],
                   [{"data-player": p.name, "active": "1" if p.is_active else "", "bold": "1"} for p in view.players]))
    # Companies nobody has started are one line under the table, not rows of zeros: in 18USA
    # that is most of twenty charters, and their size is only chosen when one is started.
    started = [c for c in view.corporations if not _unstarted(c)]
    unstarted = [c.id for c in view.corporations if _unstarted(c)]
    sizes = any(c.size is not None for c in started)
    loans = any(c.loans is not None for c in view.corporations)
    order = any(c.order is not None for c in started)
    header = ((["Order"] if order else []) + ["Corp"] + (["Size"] if sizes else []) + ["President", "Cash"]
              + (["Loans"] if loans else []) + ["Price", "Trains", "Tokens", "Treasury", "Pool", "Status"])
    blocks.append(("corporations", header, [_corp_cells(c, sizes, loans, order) for c in started],
                   [{"data-corp": c.id, "color": c.color, "text": c.text_color,
                     "active": "1" if c.turn == "now" else "", "chip": str(int(order)), "bold": str(int(order))}
                    for c in started]))
    depot_rows = [[d.train, "\u221e" if d.count is None else str(d.count), money(d.price), d.rusts_on or "\u2014",
                   ", ".join(d.first_brings) or "\u2014"] for d in view.depot]
    blocks.append(("depot", ["Train", "Left", "Price", "Rusts on", "First one brings"], depot_rows,
                   [{"data-train": d.train} for d in view.depot]))
    revenue = any(c.revenue for c in view.privates)  # 18USA's privates pay nothing
    private_rows = [[c.id, c.name, c.holder, money(c.value)] + ([money(c.revenue)] if revenue else [])
                    for c in view.privates]
    blocks.append(("privates", ["Private", "Name", "Holder", "Value"] + (["Revenue"] if revenue else []),
                   private_rows, [{"data-private": c.id} for c in view.privates]))

    for name, header, rows, meta in blocks:
        if rows:
            col_w = _col_widths(header, rows, bold=int(meta[0].get("bold", "-1")))
            y, part, w = _block(name, header, rows, meta, col_w, y)
            body.append(part)
            widths.append(w)
        if name == "corporations" and unstarted:  # right under the companies that have started
            line = "Not started: " + ", ".join(unstarted)
            body.append(text(MARGIN, y + FONT / 2 - (6 if rows else 0), line, FONT, anchor="start",
                             cls="unstarted"))
            widths.append(text_width(line, FONT) + 2 * MARGIN)
            y += ROW_H + (0 if rows else 6)
    extra = []
    if view.loan_bank is not None:
        left = "no limit" if view.loan_bank.loans_left is None else str(view.loan_bank.loans_left)
        extra.append((f"{view.loan_bank.name}: loans left {left} \u00b7 interest "
                      f"{money(view.loan_bank.interest_rate)} per loan", "loan-bank"))
    if view.pool_trains:
        extra.append(("Trains in the open market: " + ", ".join(view.pool_trains), "note"))
    extra.extend((note, "note") for note in view.notes)
    for line, cls in extra:
        body.append(text(MARGIN, y + FONT / 2, line, FONT, anchor="start", cls=cls))
        widths.append(text_width(line, FONT) + 2 * MARGIN)
        y += ROW_H
    width = max(widths + [text_width(head, FONT_TITLE, True) + 2 * MARGIN, 300.0])
    return document(width, y + MARGIN, body)


def money(amount: int) -> str:
    """$120, and -$79 (not $-79) for a bank that has broken."""
    return f"-${-amount}" if amount < 0 else f"${amount}"


def _player_cells(p: PlayerRow, shorts: bool) -> list[str]:
    certs = f"{p.cert_count}/{p.cert_limit}" if p.cert_limit else str(p.cert_count)
    name = f"{p.name} (bankrupt)" if p.bankrupt else p.name
    if p.standing_order:
        name += f" (auto: {p.standing_order})"
    return (["\u2605" if p.has_priority else "", name, money(p.cash), money(p.value), certs,
             ", ".join(p.certs) or "\u2014"] + ([", ".join(p.shorts or ()) or "\u2014"] if shorts else [])
            + [", ".join(p.companies) or "\u2014"])


def _unstarted(c: CorpRow) -> bool:
    return (c.share_price is None and not c.floated and c.president is None and not c.trains
            and not c.cash and not c.loans)


def _corp_cells(c: CorpRow, sizes: bool, loans: bool, order: bool) -> list[str]:
    status = "operated" if c.operated else ("floated" if c.floated else "not floated")
    if c.area:
        status += f", {c.area}"
    price = money(c.share_price) if c.share_price is not None else "\u2014"
    trains = ", ".join(c.trains) or "\u2014"
    cash = money(c.cash) + (f" ({c.loans} loans)" if c.loans and not loans else "")
    owed = f"{c.loans or 0}" + (f" (${c.interest_due} due)" if c.interest_due else "")
    place = (f"{c.order} {c.turn}".strip() if c.order is not None else "\u2014")
    return (([place] if order else []) + [c.id] + ([str(c.size) if c.size is not None else "\u2014"] if sizes else [])
            + [c.president or "\u2014", cash] + ([owed] if loans else [])
            + [price, trains, str(c.tokens_left), f"{c.treasury_pct}%", f"{c.pool_pct}%", status])


def _col_widths(header: Sequence[str], rows: Sequence[Sequence[str]], bold: int) -> list[float]:
    """Each column as wide as its widest cell, measured in bold in the column that may be drawn
    bold (a company's chip, the name of whoever is to act)."""
    out = []
    for k, h in enumerate(header):
        w = max([text_width(h, FONT_HEAD, True)] + [text_width(r[k], FONT, k == bold) for r in rows])
        out.append(w + 2 * PAD)
    return out


def _block(name: str, header: list[str], rows: list[list[str]], meta: list[dict[str, str]],
           col_w: list[float], y: float) -> tuple[float, str, float]:
    total = sum(col_w)
    parts = [f'<g class="table" data-table="{name}">']
    x = MARGIN
    for h, w in zip(header, col_w, strict=True):
        parts.append(text(x + PAD, y + ROW_H / 2, h.upper(), FONT_HEAD, anchor="start", bold=True, fill="#555"))
        x += w
    y += ROW_H
    parts.append(f'<line x1="{fmt(MARGIN)}" y1="{fmt(y)}" x2="{fmt(MARGIN + total)}" y2="{fmt(y)}" '
                 f'stroke="#888" stroke-width="1"/>')
    for i, (row, m) in enumerate(zip(rows, meta, strict=True)):
        data = {k.replace("-", "_"): v for k, v in m.items() if k.startswith("data-")}
        parts.append(f'<g {attrs(cls="row", **data)}>')
        bg = ACTIVE if m.get("active") else (STRIPE if i % 2 else None)
        if bg:
            parts.append(f'<rect x="{fmt(MARGIN)}" y="{fmt(y)}" width="{fmt(total)}" height="{fmt(ROW_H)}" fill="{bg}"/>')
        x = MARGIN
        for k, (cell, w) in enumerate(zip(row, col_w, strict=True)):
            if k == int(m.get("chip", "0")) and "color" in m:  # corporation chip in its own colours
                parts.append(f'<rect class="chip" x="{fmt(x + PAD - 4)}" y="{fmt(y + 3)}" width="{fmt(w - 2 * PAD + 8)}" '
                             f'height="{fmt(ROW_H - 6)}" rx="4" fill="{esc(m["color"])}"/>')
                parts.append(text(x + PAD, y + ROW_H / 2, cell, FONT, anchor="start", bold=True, fill=m["text"]))
            else:
                bold = k == int(m.get("bold", "-1")) and bool(m.get("active"))
                parts.append(text(x + PAD, y + ROW_H / 2, cell, FONT, anchor="start", bold=bold))
            x += w
        parts.append("</g>")
        y += ROW_H
    parts.append("</g>")
    return y + 14.0, "".join(parts), total + 2 * MARGIN
