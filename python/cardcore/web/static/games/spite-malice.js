// Spite & Malice: shared centre stacks (A up to Q, kings wild) in the middle; your pay-off
// pile, side stacks and hand at the bottom; the other players around.
// The view is the seat's observation (v.observation, the embedding protocol's JSON; cards are
// texts such as "7h@1") plus the match: game_no, target, totals.
// Pile keys: payoff, card:<card text>, side:<i>, center:<i>.

import { cardSvg, faceOf, fitStack, isJoker, slotSvg, rankLabel, rankOf } from "../cards.js";

const isWild = (v, text) => {
  if (!text) return false;
  const f = faceOf(text);
  return v.observation.options.wild_mode === "kings" ? !isJoker(f) && rankOf(f) === 13 : isJoker(f);
};

function pile(h, attrs, card, count, v, opts = {}) {
  const e = h("div", { class: "pile", ...attrs });
  e.append(card ? cardSvg(faceOf(card), { wild: isWild(v, card), ...opts }) : slotSvg(opts.hint || ""));
  if (count !== undefined) e.append(h("span", { class: "count", text: count }));
  return e;
}

function sides(h, v, seat, mine) {
  const row = h("div", { class: "sides" });
  v.observation.observation.side_stacks[seat].forEach((stack, i) => {
    const key = `side:${i}`;
    const col = h("div", { class: "stack", ...(mine ? { "data-src": key, "data-dst": key, title: `side stack ${"asdfghjk"[i]}` } : {}) });
    fitStack(col, stack.length, mine ? 2.2 : 2, 0.22); // a side stack keeps its height
    if (!stack.length) col.append(slotSvg(""));
    for (const c of stack) col.append(cardSvg(faceOf(c), { wild: isWild(v, c) }));
    row.append(col);
  });
  return row;
}

function opponent(h, v, ctx, { seat, pos }) {
  const o = v.observation.observation;
  const last = v.last[seat];
  const backs = h("div", { class: "fan" });
  for (let i = 0; i < o.hand_sizes[seat]; i++) backs.append(cardSvg(null, { back: true }));
  return h("div", { class: `seat-box small seat-${seat} pos-${pos}` + (v.current === seat ? " turn" : ""), "data-seat-box": seat },
    h("div", { class: "who" }, h("span", { class: "name", text: ctx.name(seat) }), h("span", { class: "meta", text: `match ${v.totals[seat]}` })),
    h("div", { class: "row-piles" },
      pile(h, { title: "pay-off pile" }, o.payoff_tops[seat], o.payoff_counts[seat], v),
      sides(h, v, seat, false),
      backs),
    h("div", { class: "said", text: last ? last.text : "" }));
}

export default {
  render(root, v, ctx) {
    const { h, me } = ctx;
    const o = v.observation.observation;
    const centre = h("div", { class: "centre" });
    const extra = (v.legal || []).some((m) => m.dst === `center:${o.center.length}`);
    const stacks = extra ? [...o.center, []] : o.center;
    stacks.forEach((s, i) => {
      const top = s[s.length - 1];
      const as = top && isWild(v, top) ? rankLabel(s.length) : null;
      centre.append(pile(h, { "data-dst": `center:${i}`, title: `centre stack ${"zxcvbnm,"[i]}` }, top, undefined, v, { asText: as, hint: "A" }));
    });
    const hand = h("div", { class: "hand flat" });
    o.hand.forEach((c, i) => {
      const w = h("div", { class: "cardwrap", "data-src": `card:${c}`, "data-card": c, title: `hand card ${i + 1}` });
      w.append(cardSvg(faceOf(c), { wild: isWild(v, c) }));
      hand.append(w);
    });
    const mine = v.last[me];
    root.replaceChildren(
      h("div", { class: "opponents" }, ...ctx.around.map((a) => opponent(h, v, ctx, a))),
      h("div", { class: "middle" },
        h("div", { class: "pile", title: "stock" }, cardSvg(null, { back: true }), h("span", { class: "count", text: o.stock_count })),
        centre,
        h("div", { class: "info" }, h("div", { class: "big", text: `Game ${v.game_no}` }), h("div", { text: `match to ${v.target}` }))),
      h("div", { class: `seat-box me seat-${me}` + (v.current === me ? " turn" : ""), "data-seat-box": me },
        h("div", { class: "who" }, h("span", { class: "name", text: "You" }), h("span", { class: "meta", text: ` pay-off ${o.payoff_counts[me]} left · match ${v.totals[me]}` })),
        h("div", { class: "row-piles" },
          pile(h, { "data-src": "payoff", title: "pay-off pile (p)" }, o.payoff_tops[me], o.payoff_counts[me], v),
          sides(h, v, me, true)),
        hand,
        h("div", { class: "said", text: mine ? mine.text : "" })),
    );
  },

  status(v, { me, name }) {
    if (v.current === me) return "Your turn: play to the centre, then discard a hand card to a side stack to end it.";
    const wait = v.current === null ? "" : `${name(v.current)} is playing…`;
    return v.sheet_open ? `Game over: the next game is dealt. ${wait}` : wait;
  },

  // a tap plays at once when the card has a single place to go on the centre
  tap(src, moves) {
    return moves.length === 1 && moves[0].dst.startsWith("center:") ? moves[0] : null;
  },

  key(k, v, ctx) {
    const sel = ctx.selected;
    const go = (dst) => {
      const m = ctx.legal.find((x) => x.src === sel && x.dst === dst);
      if (m) ctx.play(m.id);
      return Boolean(m);
    };
    if (k === "p") return ctx.select("payoff"), true;
    const hand = v.observation.observation.hand;
    if (/^[1-9]$/.test(k) && hand[Number(k) - 1]) return ctx.select(`card:${hand[Number(k) - 1]}`), true;
    const side = "asdfghjk".indexOf(k);
    if (side >= 0) {
      if (sel && sel.startsWith("card:") && go(`side:${side}`)) return true;
      return ctx.select(`side:${side}`), true;
    }
    const c = "zxcvbnm,".indexOf(k);
    if (c >= 0 && sel) return go(`center:${c}`);
    return false;
  },

  // o: the room's rules options (empty in the lobby: the defaults)
  help(h, o = {}) {
    const target = o.target_score ?? 50;
    const hand = o.hand_size ?? 5;
    const bonus = o.win_bonus ? `, plus ${o.win_bonus} for going out` : "";
    return [
      h("h2", { text: "Spite & Malice" }),
      h("p", { text: "Empty your pay-off pile first. The centre stacks are built up from A to Q, one rank at a time, by everyone, whatever the suit; a king is wild and stands for the rank the stack needs (shown as =7). A full stack (Q) is cleared." }),
      h("p", { text: `On your turn play cards to the centre from the top of your pay-off pile, your hand or the tops of your side stacks, as many as you can or like. End your turn by discarding one hand card to one of your side stacks. If you play your whole hand you draw ${hand} more.` }),
      h("p", { text: `When your pay-off pile is empty you win the game and score 1 point per card left in the other players' pay-off piles${bonus}. The match goes on until someone reaches ${target}.` }),
      h("h3", { text: "Keys" }),
      h("p", { text: "p pay-off · 1–9 hand card · a s d f side stack (pick it up, or discard the chosen hand card there) · z x c v play to that centre stack" }),
    ];
  },
};
