// Cards drawn as SVG. A face code is 0..51 (suit = face / 13 in ♣ ♦ ♥ ♠ order, rank = face % 13
// + 1, ace = 1) or 52+ for a joker. Every card is one <svg> scaled by CSS (--cw), so it stays
// sharp at phone and desktop sizes. This file is the one place the page does card arithmetic:
// the games' views call faceOf, rankOf, suitOf, isJoker and isRed, never `% 13` themselves.

import { BACKS } from "./backs.js";

export const SUITS = ["♣", "♦", "♥", "♠"];
export const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const RANKS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_NAMES = ["", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"];

/** The face code of a card as JSON documents write it: "7h@1" (face, deck) or "X1" (joker). */
export function faceOf(text) {
  if (text === null || text === undefined) return null;
  if (text[0] === "X") return 52;
  return "cdhs".indexOf(text[1]) * 13 + "A23456789TJQK".indexOf(text[0]);
}

/** The deck of a card's text ("7h@1" -> 1): in Nerts, the seat whose deck it is. */
export const deckOf = (text) => Number(text.split("@")[1] ?? 0);

export const rankOf = (f) => (f % 13) + 1;
export const suitOf = (f) => Math.floor(f / 13) % 4;
export const isJoker = (f) => f >= 52;
export const isRed = (f) => !isJoker(f) && (suitOf(f) === 1 || suitOf(f) === 2);
export const rankLabel = (r) => RANKS[r] ?? "?";

/** Short text of a face: "7♥", "10♠", "JK". */
export function label(f) {
  return isJoker(f) ? "JK" : RANKS[rankOf(f)] + SUITS[suitOf(f)];
}

/** Words for screen readers: "7 of hearts". */
export function spoken(f) {
  return isJoker(f) ? "joker" : `${RANK_NAMES[rankOf(f)]} of ${SUIT_NAMES[suitOf(f)]}`;
}

const NS = "http://www.w3.org/2000/svg";

/** The player's card look (settings): the back design's id and large-print faces. */
export const look = { back: "classic", large: false };

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** An SVG card. opts: {back, wild, as (the face a wild card stands for), asText (or a rank)} */
export function cardSvg(f, opts = {}) {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card", role: "img" });
  if (opts.back || f === null || f === undefined) {
    svg.classList.add("back");
    svg.setAttribute("aria-label", "face-down card");
    const back = BACKS[look.back] ? look.back : "classic";
    svg.dataset.back = back;
    svg.append(el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, class: "edge" }), ...BACKS[back].draw());
    return svg;
  }
  const red = isRed(f);
  svg.classList.add(isJoker(f) ? "joker" : red ? "red" : "black");
  if (opts.wild) svg.classList.add("wild");
  svg.setAttribute("aria-label", spoken(f) + (opts.wild ? " (wild)" : ""));
  svg.append(el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, class: "edge" }));
  if (isJoker(f)) {
    svg.append(
      el("text", { x: 10, y: 30, class: "idx" }, "J"),
      el("text", { x: 10, y: 54, class: "idx" }, "K"),
      el("text", { x: 50, y: 95, class: "pip", "text-anchor": "middle" }, "★"),
    );
  } else if (look.large) {
    // large print: a big rank in the top left corner with the suit beside it (the strip a
    // stacked card shows) and below it (the strip a fanned card shows)
    const r = RANKS[rankOf(f)];
    svg.classList.add("large");
    svg.append(
      el("text", { x: 4, y: 38, class: "idx" + (r.length > 1 ? " wide" : "") }, r),
      el("text", { x: 93, y: 35, class: "idx-suit side", "text-anchor": "end" }, SUITS[suitOf(f)]),
      el("text", { x: 5, y: 84, class: "idx-suit" }, SUITS[suitOf(f)]),
    );
  } else {
    const r = RANKS[rankOf(f)];
    const s = SUITS[suitOf(f)];
    svg.append(
      el("text", { x: 8, y: 33, class: "idx" + (r.length > 1 ? " wide" : "") }, r),
      el("text", { x: 9, y: 60, class: "idx-suit" }, s),
      el("text", { x: 58, y: 118, class: "pip", "text-anchor": "middle" }, s),
    );
  }
  if (opts.wild) svg.append(el("circle", { cx: 84, cy: look.large ? 54 : 18, r: 9, class: "wild-dot" }));
  const as = opts.as !== undefined && opts.as !== null ? label(opts.as) : opts.asText;
  if (as) {
    // bottom left: the part of a card that the next card of a meld or stack leaves showing
    svg.append(
      el("rect", { x: 4, y: 104, width: 52, height: 30, rx: 6, class: "as-bg" }),
      el("text", { x: 30, y: 127, class: "as", "text-anchor": "middle" }, "=" + as),
    );
  }
  return svg;
}

/** Makes a cascaded pile of `n` cards fit a fixed height of `rows` card heights: each
 * covered card shows `base` of its height, or less when the pile is long (the pile never
 * grows, so nothing around it moves). */
export function fitStack(col, n, rows, base) {
  col.classList.add("fit");
  col.style.setProperty("--rows", rows);
  const reveal = n > 1 ? Math.min(base, (rows - 1) / (n - 1)) : base;
  col.style.setProperty("--reveal", reveal.toFixed(3));
}

/** An empty pile's outline with an optional hint ("A", "K", "+"). */
export function slotSvg(hint = "") {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card slot", role: "img" });
  svg.setAttribute("aria-label", "empty pile");
  svg.append(el("rect", { x: 3, y: 3, width: 94, height: 134, rx: 9, class: "slot-edge" }));
  if (hint) svg.append(el("text", { x: 50, y: 84, class: "slot-hint", "text-anchor": "middle" }, hint));
  return svg;
}
