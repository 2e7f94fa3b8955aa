// Three-Thirteen Rummy: the stock and discard pile in the middle, your hand in its best
// arrangement (melds, then deadwood) at the bottom, the other seats around.
// The view is the seat's observation (v.observation, the embedding protocol's JSON) plus the
// hand's arrangement (v.hand: melds of [card, face it stands for], deadwood, points).
// Pile keys: stock, discard, hand, card:<card text>.

import { cardSvg, faceOf, isJoker, rankLabel, rankOf, slotSvg } from "../cards.js";

const wildOf = (o, f) => isJoker(f) || rankOf(f) === o.wild_rank;

function card(h, text, as, o, extra = {}) {
  const wrap = h("div", { class: "cardwrap", ...extra });
  const f = faceOf(text);
  wrap.append(cardSvg(f, { wild: wildOf(o, f), as }));
  return wrap;
}

function opponent(h, v, ctx, { seat, pos }) {
  const o = v.observation.observation;
  const n = o.hand_sizes[seat];
  const fan = h("div", { class: "fan" });
  for (let i = 0; i < Math.min(n, 13); i++) fan.append(cardSvg(null, { back: true }));
  const last = v.last[seat];
  return h("div", { class: `seat-box seat-${seat} pos-${pos}` + (v.current === seat ? " turn" : ""), "data-seat-box": seat },
    h("div", { class: "who" },
      h("span", { class: "name", text: ctx.name(seat) }),
      o.dealer === seat ? h("span", { class: "badge", text: "dealer" }) : null,
      o.out_seat === seat ? h("span", { class: "badge out", text: "out!" }) : null),
    fan,
    h("div", { class: "meta", text: `${n} cards · total ${o.totals[seat]}` }),
    h("div", { class: "said", text: last ? last.text : "" }));
}

export default {
  render(root, v, ctx) {
    const { h, me } = ctx;
    const o = v.observation.observation;
    const top = o.discard_pile[o.discard_pile.length - 1];
    const stock = h("div", { class: "pile", "data-src": "stock", title: "stock (s)" },
      cardSvg(null, { back: true }), h("span", { class: "count", text: o.stock_size }));
    const discard = h("div", { class: "pile", "data-src": "discard", "data-dst": "discard", title: "discard pile (p)" },
      top ? cardSvg(faceOf(top), { wild: wildOf(o, faceOf(top)) }) : slotSvg(""),
      h("span", { class: "count", text: o.discard_pile.length }));
    const jokers = v.observation.options.jokers;
    const info = h("div", { class: "info" },
      h("div", { class: "big", text: `Round ${o.round}/${v.rounds}` }),
      h("div", { text: `${o.round + 2} cards · ${rankLabel(o.wild_rank)}s wild` + (jokers ? ` · ${jokers} jokers` : "") }));
    const hand = h("div", { class: "hand", "data-dst": "hand" });
    const mine = (text, as) => card(h, text, as, o, { "data-src": `card:${text}`, "data-card": text, class: "cardwrap" + (text === o.drawn ? " drawn" : "") });
    for (const meld of v.hand.melds) {
      const g = h("div", { class: "meld" });
      for (const [text, as] of meld) g.append(mine(text, as));
      hand.append(g);
    }
    const dead = h("div", { class: "meld dead" });
    for (const text of v.hand.deadwood) dead.append(mine(text, null));
    hand.append(dead);
    const said = v.last[me];
    root.replaceChildren(
      h("div", { class: "opponents" }, ...ctx.around.map((a) => opponent(h, v, ctx, a))),
      h("div", { class: "middle" }, stock, discard, info),
      h("div", { class: `seat-box me seat-${me}` + (v.current === me ? " turn" : ""), "data-seat-box": me },
        h("div", { class: "who" }, h("span", { class: "name", text: "You" }),
          o.dealer === me ? h("span", { class: "badge", text: "dealer" }) : null,
          o.out_seat === me ? h("span", { class: "badge out", text: "out!" }) : null,
          h("span", { class: "meta", text: ` deadwood ${v.hand.points} · total ${o.totals[me]}` })),
        hand,
        h("div", { class: "said", text: said ? said.text : "" })),
    );
  },

  // the end of a round (v.reveal): every hand face up, its melds and its deadwood
  reveal(h, v, names) {
    const r = v.reveal;
    // that round's wild rank: the wild rank goes up by one each round (3s in round 1)
    const o = v.observation.observation;
    const wild = { wild_rank: r.wild_rank ?? o.wild_rank - (o.round - r.round) };
    return h("div", { class: "reveal" }, ...r.hands.map((x) => {
      const cards = h("div", { class: "reveal-cards" });
      for (const meld of x.melds) {
        const g = h("div", { class: "meld" });
        for (const [text, as] of meld) g.append(card(h, text, as, wild));
        cards.append(g);
      }
      const dead = h("div", { class: "meld dead" });
      for (const text of x.deadwood) dead.append(card(h, text, null, wild));
      if (x.deadwood.length) cards.append(dead);
      return h("div", { class: `reveal-hand seat-box seat-${x.seat}`, "data-reveal-seat": x.seat },
        h("div", { class: "who" }, h("span", { class: "name", text: names[x.seat] }),
          x.out || r.went_out === x.seat ? h("span", { class: "badge out", text: "went out" }) : null,
          h("span", { class: "meta", text: x.deadwood.length ? ` deadwood ${x.points}` : " all melded" })),
        cards);
    }));
  },

  status(v, { me, name }) {
    const o = v.observation.observation;
    if (v.current === me) {
      const out = o.out_seat !== null ? ` ${name(o.out_seat)} went out: last turn!` : "";
      return (o.phase === "draw" ? "Your turn: draw from the stock or take the discard." : "Discard a card (drag it to the pile, or tap it twice).") + out;
    }
    const wait = v.current === null ? "" : `${name(v.current)} is playing…`;
    return v.sheet_open ? `Round over: the next round is dealt. ${wait}` : wait;
  },

  // a tap on the stock or the discard pile draws at once; a hand card discards on its second tap
  tap(src, moves, again) {
    if (src === "stock" || src === "discard") return moves[0];
    return again && moves.length === 1 ? moves[0] : null;
  },

  key(k, v, ctx) {
    const by = (src) => ctx.legal.find((m) => m.src === src);
    if (k === "s" && by("stock")) return ctx.play(by("stock").id), true;
    if (k === "p" && by("discard")) return ctx.play(by("discard").id), true;
    const order = [...v.hand.melds.flat().map(([text]) => text), ...v.hand.deadwood].map((text) => `card:${text}`);
    if (k === "ArrowLeft" || k === "ArrowRight" || k === "h" || k === "l") {
      const i = order.indexOf(ctx.selected);
      const step = k === "ArrowLeft" || k === "h" ? -1 : 1;
      const j = i < 0 ? (step > 0 ? 0 : order.length - 1) : (i + step + order.length) % order.length;
      ctx.select(order[j]);
      return true;
    }
    if ((k === "d" || k === "Enter") && ctx.selected && by(ctx.selected)) return ctx.play(by(ctx.selected).id), true;
    return false;
  },

  // o: the room's rules options (empty in the lobby: the defaults)
  help(h, o = {}) {
    const jokers = o.jokers ? `This table has ${o.jokers} jokers, always wild.` : "Jokers (an option) are always wild.";
    const ace = o.ace_mode === "high" ? "ace high" : o.ace_mode === "both" ? "ace low or high" : "ace low";
    return [
      h("h2", { text: "Three-Thirteen Rummy" }),
      h("p", { text: `11 rounds. Round 1 deals 3 cards and 3s are wild, round 2 deals 4 and 4s are wild … round 11 deals 13 and kings are wild. ${jokers}` }),
      h("p", { text: `On your turn draw one card (the stock or the top of the discard pile), then discard one. Arrange your cards in melds: sets (3 or more of a rank) and runs (3 or more in sequence in one suit, ${ace}). Wild cards stand for any card (shown as =7♥). Unmelded cards are deadwood: A = 1, 2–10 face value, J/Q/K 10, an unmelded wild ${o.wild_points ?? 15}, a joker ${o.joker_points ?? 20}.` }),
      h("p", { text: "When your whole hand melds after a discard you go out: everyone else gets one last turn, then each hand's deadwood is added to its total. Lowest total after 11 rounds wins. Your hand is always shown in its best arrangement: melds first, then the deadwood." }),
      h("h3", { text: "Keys" }),
      h("p", { text: "s draw from the stock · p take the discard · ← → choose a card · d or Enter discard it" }),
    ];
  },
};
