// Feel: cards that fly to where they are played, short sounds, a buzz on phones.
//
// Sounds are synthesised here with the Web Audio API (no sound files). Motion uses the Web
// Animations API on a clone of the card (a "flyer"), so the table's layout never moves; nothing
// moves when the system asks for reduced motion. app.js calls snapshot() before it draws the
// table and land() after, with the view; `feel.settings` holds the player's mute switch.

export const feel = {
  settings: { mute: false },
  played: [], // the names of the sounds played (for tests), the last 50
  flights: 0, // cards flown so far (for tests)
};

const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

// ---- sound ----------------------------------------------------------------------------------

let audio = null;
let lastSound = 0;

function ctx() {
  if (!audio) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    audio = new AC();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** A burst of filtered noise: the slap of a card on a table. */
function slap(a, t, { freq = 1800, q = 0.8, dur = 0.07, gain = 0.35 } = {}) {
  const n = Math.ceil(a.sampleRate * dur);
  const buf = a.createBuffer(1, n, a.sampleRate);
  const d = buf.getChannelData(0);
  for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = a.createBufferSource();
  src.buffer = buf;
  const f = a.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.value = freq;
  f.Q.value = q;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(f).connect(g).connect(a.destination);
  src.start(t);
}

/** A short tone with a quick attack and decay. */
function tone(a, t, freq, { dur = 0.12, type = "triangle", gain = 0.18 } = {}) {
  const o = a.createOscillator();
  o.type = type;
  o.frequency.value = freq;
  const g = a.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  o.connect(g).connect(a.destination);
  o.start(t);
  o.stop(t + dur + 0.02);
}

const SOUNDS = {
  play: (a, t) => slap(a, t),
  draw: (a, t) => slap(a, t, { freq: 3200, dur: 0.05, gain: 0.2 }),
  deal: (a, t) => { for (let i = 0; i < 4; i++) slap(a, t + i * 0.06, { freq: 2600, dur: 0.04, gain: 0.15 }); },
  turn: (a, t) => tone(a, t, 660, { dur: 0.15, type: "sine", gain: 0.12 }),
  error: (a, t) => tone(a, t, 150, { dur: 0.16, type: "square", gain: 0.06 }),
  earn: (a, t) => [523, 659, 784, 1047].forEach((f, i) => tone(a, t + i * 0.08, f, { dur: 0.22 })),
  win: (a, t) => [392, 523, 659, 784, 659, 1047].forEach((f, i) => tone(a, t + i * 0.1, f, { dur: 0.3 })),
  lose: (a, t) => [392, 349, 311].forEach((f, i) => tone(a, t + i * 0.16, f, { dur: 0.3, type: "sine" })),
};

/** Plays a named sound unless muted (at most one card sound every 60 ms: Nerts is fast). */
export function sound(name) {
  if (feel.settings.mute || !SOUNDS[name]) return;
  const now = performance.now();
  if ((name === "play" || name === "draw") && now - lastSound < 60) return;
  lastSound = now;
  feel.played.push(name);
  if (feel.played.length > 50) feel.played.shift();
  try {
    const a = ctx();
    if (a) SOUNDS[name](a, a.currentTime + 0.005);
  } catch { /* no audio here: silence */ }
}

/** A short vibration on phones that have one (touch screens only: never a desktop's gamepad). */
export function buzz(pattern) {
  if (!navigator.vibrate || !window.matchMedia?.("(pointer: coarse)").matches) return;
  try { navigator.vibrate(pattern); } catch { /* not allowed before a tap: fine */ }
}

// ---- motion ---------------------------------------------------------------------------------

const cardKey = (e) => e.dataset.card || (e.dataset.src?.startsWith("card:") ? e.dataset.src.slice(5) : null);

/** Where things are before the table is drawn again: own cards by their text, piles by key. */
export function snapshot(root) {
  const cards = new Map();
  for (const e of root.querySelectorAll("[data-card], [data-src^='card:']")) {
    const k = cardKey(e);
    if (k) cards.set(k, e.getBoundingClientRect());
  }
  const piles = new Map();
  for (const e of root.querySelectorAll("[data-src], [data-dst]")) {
    const labels = [...e.querySelectorAll(".card")].map((c) => c.getAttribute("aria-label"));
    const r = e.getBoundingClientRect();
    const mine = Boolean(e.closest(".seat-box.me"));
    if (e.dataset.src && !piles.has("src:" + e.dataset.src)) piles.set("src:" + e.dataset.src, { r, labels, mine });
    if (e.dataset.dst && !piles.has("dst:" + e.dataset.dst)) piles.set("dst:" + e.dataset.dst, { r, labels, mine });
  }
  const seats = new Map();
  for (const e of root.querySelectorAll("[data-seat-box]")) seats.set(e.dataset.seatBox, e.getBoundingClientRect());
  return { cards, piles, seats };
}

const seen = { room: null, last: [], version: -1 };

/** Flies a clone of card `target` (an <svg class=card>) from rect `from` to where it is. */
function fly(target, from, delay = 0) {
  const to = target.getBoundingClientRect();
  if (!to.width || !from) return;
  const ghost = target.cloneNode(true);
  ghost.classList.add("flyer");
  Object.assign(ghost.style, { left: to.left + "px", top: to.top + "px", width: to.width + "px", height: to.height + "px" });
  document.body.append(ghost);
  target.style.visibility = "hidden";
  const fromW = from.width || to.width;
  const dx = from.left + fromW / 2 - (to.left + to.width / 2);
  const dy = from.top + (from.height || to.height) / 2 - (to.top + to.height / 2);
  const s = Math.min(2, Math.max(0.4, fromW / to.width));
  const anim = ghost.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${s})` }, { transform: "none" }],
    { duration: 280, delay, easing: "cubic-bezier(.2,.8,.25,1)", fill: "backwards" },
  );
  feel.flights += 1;
  const done = () => { ghost.remove(); target.style.visibility = ""; };
  anim.onfinish = done;
  anim.oncancel = done;
}

/** The card (svg) a move put on pile element `e`: the one that differs from before, else the top. */
function landed(e, before) {
  const cards = [...e.querySelectorAll(".card")];
  if (!cards.length) return e.matches(".card") ? e : null;
  if (before) {
    const i = cards.findIndex((c, j) => c.getAttribute("aria-label") !== before.labels[j]);
    if (i >= 0) return cards[i];
  }
  return cards[cards.length - 1];
}

/**
 * After the table is drawn: fly the cards of the moves that are new since the last view
 * (their `last` entries), slide your own cards that changed place, deal new hands from the
 * stock, and sound each move. `snap` is snapshot()'s answer from before the drawing.
 */
export function land(root, msg, snap, version) {
  const view = msg.table;
  const fresh = version !== seen.version;
  seen.version = version;
  const last = (view.last || []).map((m) => (m ? JSON.stringify(m) : ""));
  const firstLook = seen.room !== msg.room;
  const changed = firstLook ? [] : last.map((k, seat) => (k && k !== seen.last[seat] ? seat : -1)).filter((s) => s >= 0);
  seen.room = msg.room;
  seen.last = last;
  if (!fresh) return;
  const me = msg.seat;
  for (const seat of changed) {
    // your moves, and the others' moves onto the piles you see (not inside their own areas)
    const m = view.last[seat];
    const onto = root.querySelector(`[data-dst="${CSS.escape(m.dst)}"]`);
    const visible = seat === me || m.dst === "hand" || (onto && !onto.closest(".seat-box.me"));
    if (visible) sound(m.dst === "hand" || m.dst === "waste" ? "draw" : "play");
  }
  if (changed.includes(me)) buzz(15); // your move landed
  if (reduced() || document.hidden) return;
  const flown = new Set();
  for (const seat of changed) {
    const m = view.last[seat];
    const mine = seat === me;
    let dstEl = root.querySelector(`[data-dst="${CSS.escape(m.dst)}"]`);
    if (dstEl && !mine && dstEl.closest(`[data-seat-box="${me}"]`)) dstEl = null;
    // a pile that only gives cards (the Nerts waste a flip lands on) has just its data-src
    if (!dstEl && mine) dstEl = root.querySelector(`.seat-box.me [data-src="${CSS.escape(m.dst)}"]`);
    let target = null;
    if (mine && m.dst === "hand") {
      target = (m.card && root.querySelector(`[data-card="${CSS.escape(m.card)}"] .card`)) || root.querySelector(".drawn .card");
    } else if (dstEl) {
      target = landed(dstEl, snap.piles.get("dst:" + m.dst));
    }
    const srcBefore = m.card && snap.cards.get(m.card);
    const pileBefore = snap.piles.get("src:" + m.src);
    // your move comes from your card or pile; another seat's from a shared pile or its seat
    const from = (mine ? srcBefore || pileBefore?.r : pileBefore && !pileBefore.mine ? pileBefore.r : null) || snap.seats.get(String(seat));
    if (!target && !mine) {
      // an opponent drew: a card back flies from the pile to their seat
      const box = root.querySelector(`[data-seat-box="${seat}"] .fan .card:last-child`) || null;
      if (box && pileBefore && !pileBefore.mine) {
        fly(box, pileBefore.r);
        flown.add(box);
      }
      continue;
    }
    if (target && from) {
      fly(target, from);
      flown.add(target);
    }
  }
  // your own cards: slide those that moved; deal the new ones from the stock
  const stock = snap.piles.get("src:stock")?.r || root.querySelector(".middle")?.getBoundingClientRect();
  let dealt = 0;
  for (const e of root.querySelectorAll("[data-card], [data-src^='card:']")) {
    const k = cardKey(e);
    const card = e.querySelector(".card") || e;
    if (!k || flown.has(card)) continue;
    const before = snap.cards.get(k);
    if (before) {
      const now = e.getBoundingClientRect();
      const dx = before.left - now.left;
      const dy = before.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) > 2) e.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 220, easing: "ease-out" });
    } else if (stock && !changed.includes(me)) {
      fly(card, stock, 45 * dealt);
      dealt += 1;
    }
  }
  if (dealt >= 3) {
    // a new deal: the others' hands come from the stock too
    for (const e of root.querySelectorAll(".opponents .fan")) {
      [...e.querySelectorAll(".card")].forEach((c, i) => fly(c, stock, 45 * i));
    }
    sound("deal");
  }
}
