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
