// What every game's board.js shares (imported as /static/board-kit.js), so a
// board holds only its own game's drawing.

export const SVG = "http://www.w3.org/2000/svg";

// An SVG element with attributes, appended to `parent` (if given), with text (if given).
export function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.append(e);
  return e;
}

// A key laid out as flowing text: item(draw, words) draws a swatch with
// draw(x, y) and its words beside it, wrapping to a new row at `width`.
// Text lengths are measured once drawn (the SVG is in the page).
// Returns { item, bottom() } where bottom() is the y below the last row.
export function flowKey(g, { x, y, width, indent = 0, swatch, row, baseline }) {
  let cx = x + indent, cy = y;
  const item = (draw, words) => {
    const t = el("text", { x: 0, y: 0 }, g, words);
    const w = swatch + (t.getComputedTextLength ? t.getComputedTextLength() : words.length * 6.5) + 14;
    if (cx + w > x + width && cx > x) { cx = x; cy += row; }
    draw(cx, cy);
    t.setAttribute("x", cx + swatch); t.setAttribute("y", cy + baseline);
    cx += w;
  };
  return { item, bottom: () => cy + row };
}
