// Nerts in real time: the shared foundations in the middle (a ring in the colour of whoever
// played the top card), the other players' layouts around, yours at the bottom.
// Drop a card anywhere: it goes to the nearest pile where it may legally go. Tap a card to
// send it to a foundation when it fits (else to its only place); tap the stock to flip.
// The view is the seat's observation (v.observation, the embedding protocol's JSON: cards are
// texts such as "7h@1", the deck number being the seat whose card it is) plus the match.
// Pile keys: nerts, waste, stock, work:<p> (target), work:<p>:<d> (source), foundations, call, undo.

import { cardSvg, deckOf, faceOf, fitStack, slotSvg } from "../cards.js";

function layout(h, v, seat, mine) {
  const p = v.observation.observation.players[seat];
  const src = (key) => (mine ? { "data-src": key } : {});
  const nerts = h("div", { class: "pile", ...src("nerts"), title: "Nerts pile (n)" },
    p.nerts_top ? cardSvg(faceOf(p.nerts_top)) : slotSvg(""), h("span", { class: "count", text: p.nerts_count }));
  const work = h("div", { class: "work" });
  p.work.forEach((pile, i) => {
    const col = h("div", { class: "stack", ...(mine ? { "data-dst": `work:${i}` } : {}), title: `work pile ${i + 1}` });
    // a pile keeps its height: a long one shows less of each covered card
    fitStack(col, pile.length, 2.2, 0.3);
    if (!pile.length) col.append(slotSvg(""));
    pile.forEach((c, k) => {
      const depth = pile.length - k;
      const w = h("div", { class: "cardwrap", ...src(`work:${i}:${depth}`) });
      w.append(cardSvg(faceOf(c)));
      col.append(w);
    });
    work.append(col);
  });
  const stock = h("div", { class: "pile", ...src("stock"), title: "stock: flip (space)" },
    p.stock_count ? cardSvg(null, { back: true }) : slotSvg("↻"), h("span", { class: "count", text: p.stock_count }));
  // your own waste is face up: the last cards turned show fanned (only the top one plays);
  // of the others' wastes you see the top card
  const fan = mine ? v.observation.observation.waste_fan : p.waste_top ? [p.waste_top] : [];
  const waste = h("div", { class: "pile waste-fan", ...src("waste"), title: "waste (w)" },
    ...(fan.length ? fan.map((c) => cardSvg(faceOf(c))) : [slotSvg("")]), h("span", { class: "count", text: p.waste_count }));
  return h("div", { class: "row-piles" }, nerts, work, stock, waste);
}

export default {
  dropAnywhere: true,
  realtime: true, // nobody waits for anybody: no turn timer, no seat handed to an AI

  render(root, v, ctx) {
    const { h, me } = ctx;
    const o = v.observation.observation;
    const found = h("div", { class: "foundations", "data-dst": "foundations", title: "foundations (f)" });
    let onFoundations = 0;
    o.foundations.forEach((pile) => {
      const top = pile[pile.length - 1];
      onFoundations += pile.filter((c) => deckOf(c) === me).length;
      const w = h("div", { class: "pile ring", "data-owner": deckOf(top) });
      w.append(cardSvg(faceOf(top)));
      found.append(w);
    });
    found.append(h("div", { class: "pile" }, slotSvg("A")));
    const legalSrc = new Set((v.legal || []).map((m) => m.src));
    root.replaceChildren(
      h("div", { class: "opponents" }, ...ctx.around.map(({ seat, pos }) =>
        h("div", { class: `seat-box small seat-${seat} pos-${pos}`, "data-seat-box": seat },
          h("div", { class: "who" }, h("span", { class: "name", text: ctx.name(seat) }),
            h("span", { class: "meta", text: `Nerts ${o.players[seat].nerts_count} · total ${v.totals[seat]}` })),
          layout(h, v, seat, false),
          h("div", { class: "said", text: v.last[seat] ? v.last[seat].text : "" })))),
      h("div", { class: "middle" }, found,
        h("div", { class: "info" }, h("div", { class: "big", text: `Round ${v.round_no}` }),
          h("div", { text: `${v.speed} · ${(o.now / 1000).toFixed(0)} s` }))),
      h("div", { class: `seat-box me seat-${me}`, "data-seat-box": me },
        h("div", { class: "who" }, h("span", { class: "name", text: "You" }),
          h("span", { class: "meta", text: ` ${onFoundations} on the foundations · total ${v.totals[me]}` }),
          h("button", { type: "button", class: "primary", "data-src": "call", disabled: !legalSrc.has("call"), text: "Nerts!" }),
          h("button", { type: "button", "data-src": "undo", disabled: !legalSrc.has("undo"), text: "Undo" })),
        layout(h, v, me, true),
        h("div", { class: "said", text: v.last[me] ? v.last[me].text : "" })),
    );
  },

  status(v) {
    if (v.sheet_open) return "Round over: close the score sheet to start the next round (it starts when everyone has, or 15 s after the first did).";
    if (v.running) return "Everyone plays at once: empty your Nerts pile, then call Nerts!";
    return "Waiting for the others to close the score sheet: the next round starts within 15 s.";
  },

  tap(src, moves) {
    return moves.find((m) => m.dst === "foundations") || (moves.length === 1 ? moves[0] : null);
  },

  key(k, v, ctx) {
    const by = (pred) => ctx.legal.find(pred);
    const sel = ctx.selected;
    if (k === " " || k === "Spacebar") {
      const m = by((x) => x.src === "stock");
      if (m) ctx.play(m.id);
      return true;
    }
    if (k === "u" || k === "c") {
      const m = by((x) => x.src === (k === "u" ? "undo" : "call"));
      if (m) ctx.play(m.id);
      return Boolean(m);
    }
    if (k === "n" || k === "w") return ctx.select(k === "n" ? "nerts" : "waste"), true;
    if (k === "f" && sel) {
      const m = by((x) => x.src === sel && x.dst === "foundations");
      if (m) ctx.play(m.id);
      return true;
    }
    if (/^[1-5]$/.test(k)) {
      const i = Number(k) - 1;
      if (sel) {
        const m = by((x) => x.src === sel && x.dst === `work:${i}`);
        if (m) return ctx.play(m.id), true;
      }
      const top = v.observation.observation.players[ctx.me ?? 0]?.work[i];
      return ctx.select(`work:${i}:1`), Boolean(top);
    }
    return false;
  },

  // o: the room's rules options (empty in the lobby: the defaults)
  help(h, o = {}) {
    const flip = { 1: "one", 3: "three" }[o.flip_count ?? 3] ?? o.flip_count;
    const plus = o.foundation_points ?? 1;
    const minus = o.nerts_penalty ?? 2;
    const bonus = o.nerts_bonus ? `, +${o.nerts_bonus} for calling Nerts` : "";
    const undo = (o.undo_depth ?? 1) === 0 ? "There is no undo." : (o.undo_depth ?? 1) === 1 ? "You may undo your last move." : `You may undo your last ${o.undo_depth} moves.`;
    return [
      h("h2", { text: "Nerts" }),
      h("p", { text: "Nerts is a race: everyone plays at once. Get rid of your Nerts pile." }),
      h("p", { text: `Foundations in the middle are shared: start one with any ace, then build up in suit (A, 2, 3 … K). Your work piles build down in alternating colours (a red 6 on a black 7); you may move the top part of a work pile onto another. Your Nerts pile's top card can go to a foundation or a work pile. Turn the stock ${flip} at a time onto the waste (your waste shows the cards just turned, fanned); the waste's top card plays. When the stock is empty, tapping it turns the waste over again.` }),
      h("p", { text: `When your Nerts pile is empty, call Nerts: the round ends. Score: +${plus} for each of your cards on the foundations, −${minus} for each card left in your Nerts pile${bonus}. The match goes to ${o.target_score ?? 100}. ${undo} The AI opponents play in real time at the table speed (chill, classic, frantic); the ring round a foundation card shows who played it.` }),
      h("h3", { text: "Keys" }),
      h("p", { text: "space flip · n Nerts pile · w waste · 1–5 work pile (pick up its top, or move the picked card there) · f to a foundation · u undo · c call Nerts" }),
    ];
  },
};
