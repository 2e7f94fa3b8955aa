// The cardcore web table: lobby, room connection, and the game-neutral interaction layer.
//
// The server sends each seat its view once ({type: "state", table: {..., legal: [{id, src, dst}]}})
// and then patches of what changed ({type: "patch", ops}: applyOps).
// A game module (games/*.js) draws the view and tags piles with data-src / data-dst keys; this
// file turns clicks, taps, drags and keys into a legal move's id and sends {type: "move"}. A
// drop snaps to the nearest pile that is a legal target for the dragged card.

import { buzz, land, snapshot, sound } from "./feel.js";
import { avatarSvg } from "./backs.js";
import { faceOf, label } from "./cards.js";
import { announce, changeSettings, loadSettings, profileContent, refreshSettings, settings, showChallenges } from "./profile.js";

/** Game name -> its drawing module (games/<name>.js), loaded for each game /api/games lists. */
const GAMES = {};
const POSITIONS = {
  2: ["top"],
  3: ["left", "right"],
  4: ["left", "top", "right"],
  5: ["left", "top-left", "top-right", "right"],
  6: ["left", "top-left", "top", "top-right", "right"],
};
const DRAG_START_PX = 6;

const $ = (id) => document.getElementById(id);
const ui = {
  catalog: null,
  ws: null,
  room: null,
  msg: null, // the last "state" message
  selected: null, // a src key
  drag: null,
  seq: 0,
  sent: new Map(), // seq -> time sent (round trips, shown in the status line)
  rtt: null,
  sheetSeen: "",
  leaving: false,
  retry: 0,
  version: 0, // views received (a new one animates its moves)
};
window.cardcore = ui; // for tests and the curious (ui.render draws ui.msg again)

const store = {
  get(k) {
    try { return localStorage.getItem("cardcore." + k); } catch { return null; }
  },
  set(k, v) {
    try { localStorage.setItem("cardcore." + k, v); } catch { /* private mode */ }
  },
};

function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
}
export { h };

let toastTimer = 0;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 3200);
}

// ---- lobby ----------------------------------------------------------------------------------

async function showLobby() {
  $("room").hidden = true;
  $("lobby").hidden = false;
  $("title").textContent = "";
  for (const b of ["btn-sheet", "btn-invite"]) $(b).hidden = true;
  const cat = ui.catalog;
  const choice = $("game-choice");
  choice.replaceChildren(h("legend", { text: "Game" }));
  const last = store.get("game") || cat.games[0].name;
  for (const g of cat.games) {
    choice.append(
      h("label", { class: "game-pick" },
        h("input", { type: "radio", name: "game", value: g.name, checked: g.name === last }),
        h("span", { text: g.title })),
    );
  }
  $("f-level").replaceChildren(...cat.levels.map((l) => h("option", { value: l, text: l, selected: l === (store.get("level") || "normal") })));
  $("f-name").value = store.get("name") || "You";
  choice.onchange = lobbyGameChanged;
  $("f-players").onchange = lobbySeats;
  $("seat-choice").onchange = seedAllowed;
  lobbyGameChanged();
  const titles = Object.fromEntries(cat.games.map((g) => [g.name, g.title]));
  showChallenges($("challenges"), titles, playDaily);
}

/** A challenge's Play button: today's deal of `game` with the lobby's other choices. */
function playDaily(game) {
  const radio = document.querySelector(`input[name=game][value="${CSS.escape(game)}"]`);
  if (!radio) return;
  radio.checked = true;
  lobbyGameChanged();
  $("f-daily").checked = true;
  $("lobby-form").requestSubmit();
}

function lobbyGame() {
  const name = document.querySelector("input[name=game]:checked").value;
  return ui.catalog.games.find((g) => g.name === name);
}

function lobbyGameChanged() {
  const g = lobbyGame();
  $("f-players").replaceChildren(
    ...Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => {
      const n = g.min_players + i;
      return h("option", { value: n, text: n, selected: n === g.default_players });
    }),
  );
  $("option-choice").replaceChildren(
    ...g.options.map((o) => {
      const id = "opt-" + o.name;
      const input = o.choices
        ? h("select", { id, "data-opt": o.name }, ...o.choices.map((c) => h("option", { value: c, text: c, selected: c === o.default })))
        : h("input", { id, "data-opt": o.name, type: "number", value: o.default, min: o.min ?? false, max: o.max ?? false });
      return h("label", { title: o.help }, o.name.replace(/_/g, " ") + " ", input);
    }),
  );
  lobbySeats();
}

function lobbySeats() {
  const n = Number($("f-players").value);
  const pos = POSITIONS[n] || [];
  $("seat-choice").replaceChildren(
    ...pos.map((p, i) => h("label", {}, p + " ",
      h("select", { "data-seat": i + 1 }, h("option", { value: "ai", text: "AI" }), h("option", { value: "friend", text: "friend (invite)" })))),
  );
  seedAllowed();
}

// whoever knows a friends room's seed knows every hidden card: such rooms deal at random
function seedAllowed() {
  const friends = [...document.querySelectorAll("[data-seat]")].some((e) => e.value === "friend");
  $("f-seed").disabled = friends;
  $("f-seed").title = friends ? "A room with friends is dealt at random (a seed would show you their cards)" : "";
}

async function createRoom(ev) {
  ev.preventDefault();
  const g = lobbyGame();
  const options = {};
  for (const e of document.querySelectorAll("[data-opt]")) {
    const o = g.options.find((x) => x.name === e.dataset.opt);
    const v = typeof o.default === "number" ? Number(e.value) : e.value;
    if (v !== o.default) options[o.name] = v;
  }
  const body = {
    game: g.name,
    players: Number($("f-players").value),
    level: $("f-level").value,
    name: $("f-name").value.trim() || "You",
    seats: [...document.querySelectorAll("[data-seat]")].map((e) => e.value),
    options,
  };
  body.turn_seconds = Number($("f-turn").value);
  if ($("f-daily").checked) body.daily = true;
  else if (!$("f-seed").disabled && $("f-seed").value.trim()) body.seed = $("f-seed").value.trim();
  const renamed = body.name !== (store.get("name") || "You");
  store.set("name", body.name);
  if (renamed) refreshSettings(); // another name: another profile, its own looks
  store.set("game", g.name);
  store.set("level", body.level);
  const r = await fetch("/api/rooms", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) return toast(data.error || `the server answered ${r.status}`);
  store.set("seat:" + data.room, data.token);
  location.hash = "#room=" + data.room;
}

// ---- connection -----------------------------------------------------------------------------

function route() {
  const m = /^#(room|join)=([A-Za-z0-9_-]{16,64})$/.exec(location.hash);
  if (!m) {
    closeSocket();
    return showLobby();
  }
  const [, kind, room] = m;
  const token = store.get("seat:" + room);
  if (kind === "join" && !token) {
    $("j-name").value = store.get("name") || "";
    $("dlg-join").showModal();
    $("join-form").onsubmit = () => {
      const name = $("j-name").value.trim() || "Friend";
      store.set("name", name);
      openRoom(room, { type: "join", room, name });
    };
    return;
  }
  openRoom(room, { type: "resume", room, token });
}

function closeSocket() {
  if (ui.ws) {
    ui.leaving = true;
    ui.ws.close();
    ui.ws = null;
  }
}

function openRoom(room, hello) {
  closeSocket();
  ui.leaving = false;
  ui.room = room;
  $("lobby").hidden = true;
  $("room").hidden = false;
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ui.ws = ws;
  ws.onopen = () => { ui.retry = 0; ws.send(JSON.stringify(hello)); };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    if (ui.ws !== ws || ui.leaving) return;
    if (ui.sent.size) {
      // moves sent but never acknowledged: the state we get back on reconnecting shows
      // whether they were played
      ui.sent.clear();
      toast("The connection dropped: your last move may not have been played.");
    }
    const token = store.get("seat:" + room);
    if (!token) return;
    $("status").textContent = "Connection lost; reconnecting…";
    ui.retry = Math.min(ui.retry + 1, 5);
    setTimeout(() => { if (ui.ws === ws) openRoom(room, { type: "resume", room, token }); }, 400 * ui.retry);
  };
}

/** Sends a message; false (and the player is told) when the connection is down. */
export function send(obj) {
  if (ui.ws && ui.ws.readyState === WebSocket.OPEN) {
    ui.ws.send(JSON.stringify(obj));
    return true;
  }
  toast("Not connected: that was not sent. Reconnecting…");
  return false;
}

export function play(id) {
  ui.selected = null;
  if (!send({ type: "move", move: id, seq: ui.seq + 1 })) {
    if (ui.msg) render();
    return;
  }
  ui.seq += 1;
  ui.sent.set(ui.seq, performance.now());
}

function receive(msg) {
  if (msg.type === "welcome") {
    store.set("seat:" + msg.room, msg.token);
    if (location.hash !== "#room=" + msg.room) history.replaceState(null, "", "#room=" + msg.room);
  } else if (msg.type === "state" || msg.type === "patch") {
    if (msg.ack !== undefined && ui.sent.has(msg.ack)) {
      ui.rtt = performance.now() - ui.sent.get(msg.ack);
      ui.sent.delete(msg.ack);
    }
    if (msg.type === "state") ui.msg = msg;
    else if (ui.msg) applyOps(ui.msg, msg.ops);
    else return;
    ui.version += 1;
    render();
  } else if (msg.type === "rematch") {
    // the same table again: a new room, this seat's own token for it
    clearTimeout(ui.rematchWait);
    store.set("seat:" + msg.room, msg.token);
    if ($("dlg-sheet").open) {
      $("dlg-sheet").dataset.auto = "0";
      $("dlg-sheet").close();
    }
    location.hash = "#room=" + msg.room;
  } else if (msg.type === "earned") {
    announce(ui.room, msg.earned);
  } else if (msg.type === "error") {
    if (msg.seq !== undefined) ui.sent.delete(msg.seq);
    if (/token does not belong|no such room/.test(msg.message)) {
      store.set("seat:" + ui.room, "");
      closeSocket();
      toast(msg.message);
      location.hash = "";
      return;
    }
    toast(msg.message);
    $("sheet-rematch").disabled = false;
    $("sheet-rematch").textContent = "Rematch";
    sound("error");
    buzz(60);
    ui.selected = null;
    if (ui.msg) render();
  }
}

/** Carries out a patch's ops on the state we hold: [path, value] sets (an index equal to the
 * list's length appends), [path] removes a member or cuts a list there (cardcore/web/patch.py). */
export function applyOps(doc, ops) {
  for (const [path, ...value] of ops) {
    let o = doc;
    for (let i = 0; i < path.length - 1; i++) o = o[path[i]];
    const k = path[path.length - 1];
    if (value.length) o[k] = value[0];
    else if (Array.isArray(o)) o.length = k;
    else delete o[k];
  }
}

// ---- seats ----------------------------------------------------------------------------------

/** Where each other seat sits from this seat's point of view: [{seat, pos}], clockwise from the left. */
export function around(n, me) {
  return (POSITIONS[n] || []).map((pos, i) => ({ seat: (me + 1 + i) % n, pos }));
}

function seatName(i) {
  const msg = ui.msg;
  if (i === msg.seat) return "You";
  const s = msg.seats[i];
  return s.name + (s.kind === "ai" ? " (AI)" : s.ai_plays ? " (away: an AI plays)" : s.connected ? "" : " (away)");
}

// ---- rendering ------------------------------------------------------------------------------

function render() {
  ui.render = render;
  const msg = ui.msg;
  const game = GAMES[msg.setup.game];
  const title = ui.catalog?.games.find((g) => g.name === msg.setup.game)?.title || msg.setup.game;
  $("title").textContent = title + (msg.setup.daily ? " · daily deal" : "");
  $("btn-invite").hidden = !msg.seats.some((s, i) => i !== 0 && s.kind !== "ai");
  $("btn-sheet").hidden = !msg.table;
  document.body.dataset.game = msg.setup.game;
  const waiting = $("waiting");
  waiting.hidden = msg.status !== "waiting";
  if (msg.status === "waiting") renderWaiting(waiting, msg);
  const table = $("table");
  if (msg.table) {
    const ctx = { me: msg.seat, n: msg.seats.length, name: seatName, around: around(msg.seats.length, msg.seat), h, ui };
    const before = snapshot(table);
    // the games show each seat's last move line: it names the card when the card is public
    const view = { ...msg.table, last: (msg.table.last || []).map((m) => m && { ...m, text: moveText(m) }) };
    game.render(table, view, ctx);
    decorate(table, msg.table);
    // avatars: yours, the others' when the server sends them, a robot for an AI
    msg.seats.forEach((s, i) => {
      const who = table.querySelector(`[data-seat-box="${i}"] .who`);
      const id = i === msg.seat ? settings.avatar : s.avatar || (s.kind === "ai" ? "robot" : null);
      if (who && id) who.prepend(avatarSvg(id));
    });
    land(table, msg, before, ui.version);
    if (msg.host && msg.status === "playing") handButtons(table, msg);
  } else table.replaceChildren();
  renderStatus(msg, game);
  renderSheet(msg);
  const end = msg.status === "over" ? `${msg.room}:${ui.version}:${JSON.stringify(msg.result)}` : null;
  if (end && !ui.overKey?.startsWith(`${msg.room}:`)) sound(msg.result?.winner === msg.seat ? "win" : "lose");
  ui.overKey = end;
}

/** A move's line naming its card when the move carries it ("discarded 7♥", "took 5♠ from the
 * discard", "played 4♣ from the pay-off pile", "7♥ to a foundation"). */
export function moveText(m) {
  if (!m.card || m.text.includes(label(faceOf(m.card)))) return m.text;
  const c = label(faceOf(m.card));
  if (m.text === "took the discard") return `took ${c} from the discard`;
  if (m.text === "played the pay-off") return `played ${c} from the pay-off pile`;
  return m.text.startsWith("to ") ? `${c} ${m.text}` : `${m.text} ${c}`;
}

/** The latest move when another seat made it, with its player's name ("Left discarded 7♥"), or "". */
function othersMove(msg) {
  let best = null;
  (msg.table?.last || []).forEach((m, seat) => {
    if (m && (!best || (m.n ?? 0) > (best.m.n ?? 0))) best = { m, seat };
  });
  return best && best.seat !== msg.seat ? `${msg.seats[best.seat].name} ${moveText(best.m)}.` : "";
}

/** The host's "AI plays" button on each friend's seat: an AI takes that seat for good. */
function handButtons(root, msg) {
  msg.seats.forEach((s, i) => {
    const who = root.querySelector(`[data-seat-box="${i}"] .who`);
    if (i === msg.seat || s.kind !== "human" || !who) return;
    const b = h("button", { type: "button", class: "hand-seat", title: `An AI plays ${s.name}'s seat for the rest of the game`, text: "AI plays" });
    b.onclick = () => {
      if (confirm(`Hand ${s.name}'s seat to an AI for the rest of the game?`)) send({ type: "hand", seat: i });
    };
    who.append(b);
  });
}

/** "Bob is away: an AI plays for them in 42 s", counted down from the message's arrival. */
function timerText(msg) {
  const t = msg.timer;
  if (!t) return "";
  if (ui.timerKey !== JSON.stringify(t)) {
    ui.timerKey = JSON.stringify(t);
    ui.timerEnd = performance.now() + t.seconds * 1000;
  }
  const left = Math.max(0, Math.ceil((ui.timerEnd - performance.now()) / 1000));
  return `${msg.seats[t.seat].name} is away: an AI plays for them in ${left} s.`;
}

function renderWaiting(box, msg) {
  const link = inviteLink(msg.room);
  box.replaceChildren(
    h("h2", { text: "Waiting for friends" }),
    h("p", { text: "Send this link to the friends who play with you (they must reach this computer):" }),
    h("p", {}, h("input", { class: "invite", readonly: true, value: link, "aria-label": "invite link" })),
    h("ul", {}, ...msg.seats.map((s, i) => h("li", { text: `${seatName(i)}: ${s.kind === "open" ? "open seat" : s.kind === "ai" ? "AI" : "joined"}` }))),
    msg.host ? h("button", { class: "primary", id: "start-now", type: "button", text: "Start now (AIs take the open seats)" }) : h("p", { text: "The host starts the game." }),
  );
  const start = document.getElementById("start-now");
  if (start) start.onclick = () => send({ type: "start" });
}

function renderStatus(msg, game) {
  const t = msg.table;
  let text = "";
  if (msg.status === "error") text = "The table stopped: " + msg.error;
  else if (msg.status === "over") text = "Game over. " + resultText(msg);
  else if (t) text = game.status ? game.status(t, { me: msg.seat, name: seatName }) : "";
  const said = t && msg.status === "playing" && !game.realtime ? othersMove(msg) : "";
  if (said) text = `${said} ${text}`;
  if (msg.timer && msg.status === "playing") text = timerText(msg);
  if (ui.rtt !== null) text += `  ·  ${Math.round(ui.rtt)} ms`;
  $("status").textContent = text;
  clearTimeout(ui.timerTick);
  if (msg.timer) ui.timerTick = setTimeout(() => { if (ui.msg === msg) renderStatus(msg, game); }, 1000);
}

function resultText(msg) {
  const r = msg.result;
  if (!r) return "";
  const who = r.winner === null || r.winner === undefined ? "Nobody wins (tie)." : `${seatName(r.winner)} ${r.winner === msg.seat ? "win" : "wins"}!`;
  return who + (r.replay_saved ? " The replay is saved on the server." : "");
}

/** Marks playable sources, the targets of the selected source, and each seat's last move. */
function decorate(root, view) {
  const legal = view.legal || [];
  const srcs = new Set(legal.map((m) => m.src));
  for (const e of root.querySelectorAll("[data-src]")) {
    e.classList.toggle("playable", srcs.has(e.dataset.src));
    e.classList.toggle("selected", e.dataset.src === ui.selected);
  }
  const targets = new Set(legal.filter((m) => m.src === ui.selected).map((m) => m.dst));
  for (const e of root.querySelectorAll("[data-dst]")) e.classList.toggle("target", targets.has(e.dataset.dst));
  for (const e of root.querySelectorAll(".last")) e.classList.remove("last");
  const me = ui.msg?.seat;
  // oldest first: where several seats' last moves went onto one pile (the Nerts foundations,
  // a centre stack) its ring shows whoever played there last
  const moves = (view.last || []).map((m, seat) => [m, seat]).filter(([m]) => m);
  moves.sort(([a], [b]) => (a.n ?? 0) - (b.n ?? 0));
  moves.forEach(([m, seat]) => {
    let e = root.querySelector(`[data-dst="${CSS.escape(m.dst)}"]`);
    // your own piles (side stacks, work piles) take only your moves: another seat's move to its
    // own "work:3" rings that seat's box, not your work pile 4
    if (e && seat !== me && e.closest(`[data-seat-box="${me}"]`)) e = null;
    e = e || root.querySelector(`[data-seat-box="${seat}"]`);
    if (e && !e.classList.contains("hand")) {
      e.classList.add("last");
      e.dataset.lastSeat = seat;
    }
  });
}

function renderSheet(msg) {
  const t = msg.table;
  if (!t || !t.sheet) return;
  const over = msg.status === "over";
  const key = `${msg.room}:${t.sheet.rows.length}:${over}`;
  const open = t.sheet_open || over;
  if (open && ui.sheetSeen !== key) {
    ui.sheetSeen = key;
    showSheet(true);
  } else if (!open && $("dlg-sheet").open && $("dlg-sheet").dataset.auto === "1") {
    $("dlg-sheet").close();
  }
}

function showSheet(auto) {
  const msg = ui.msg;
  const t = msg.table;
  const s = t.sheet;
  const n = msg.seats.length;
  const names = Array.from({ length: n }, (_, i) => seatName(i));
  const table = h("table", { class: "sheet" },
    h("thead", {}, h("tr", {}, h("th", { text: s.unit || "Round" }), ...names.map((x) => h("th", { text: x })))),
    h("tbody", {}, ...s.rows.map((r) => h("tr", {},
      h("td", { text: r.label }),
      ...r.scores.map((v, i) => h("td", { class: i === r.marked ? "marked" : "", text: (i === r.marked ? "★ " : "") + v }))))),
    h("tfoot", {}, h("tr", {}, h("th", { text: "Total" }), ...s.totals.map((v) => h("th", { text: v })))),
  );
  const over = msg.status === "over";
  const dlg = $("dlg-sheet");
  // a round's end shows every hand face up first (when the game sends them), then the scores
  const revealKey = `${msg.room}:${s.rows.length}`;
  const reveal = auto && t.reveal && ui.revealDone !== revealKey ? game().reveal?.(h, t, names) : null;
  if (reveal) {
    $("sheet-body").replaceChildren(h("h2", { text: `Round ${t.reveal.round ?? s.rows.length}: the hands` }), reveal);
    dlg.dataset.auto = "1";
    $("sheet-rematch").hidden = true;
    $("sheet-next").textContent = "Score sheet";
    $("sheet-next").onclick = () => {
      ui.revealDone = revealKey;
      showSheet(auto);
    };
    if (!dlg.open) dlg.showModal();
    return;
  }
  const note = over ? resultText(msg) : t.sheet_open ? "Continue when you are ready." : "";
  $("sheet-body").replaceChildren(
    h("h2", { text: over ? "Final scores" : "Score sheet" }),
    table,
    h("p", { class: "note", text: (s.lower_wins ? "Lowest total wins. " : "") + (s.footer || "") + " " + note }),
  );
  dlg.dataset.auto = auto ? "1" : "0";
  $("sheet-next").textContent = over ? "New game" : "Continue";
  // game over: the host (or anyone, as the server allows) asks for the same table again
  const again = $("sheet-rematch");
  again.hidden = !over;
  again.disabled = false;
  again.textContent = "Rematch";
  // the panel stays until the server answers with the new room (or refuses: try again)
  again.onclick = () => {
    if (!send({ type: "rematch" })) return;
    again.disabled = true;
    again.textContent = "Rematch…";
    clearTimeout(ui.rematchWait);
    ui.rematchWait = setTimeout(() => { again.disabled = false; again.textContent = "Rematch"; }, 5000);
  };
  $("sheet-next").onclick = () => {
    dlg.close(); // closing continues (sheetClosed)
    if (over) location.hash = "";
  };
  if (!dlg.open) dlg.showModal();
}

/** The score sheet closed in any way (Continue, Esc, a click beside it): play on. */
function sheetClosed() {
  const t = ui.msg?.table;
  if (ui.msg?.status === "playing" && t?.sheet_open) send({ type: "next" });
}

/** A click on a panel's backdrop (outside its box) closes it, as Esc does. */
function closeOnBackdrop(dlg) {
  dlg.addEventListener("click", (ev) => {
    if (ev.target !== dlg) return;
    const r = dlg.getBoundingClientRect();
    const inside = ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
    if (!inside) dlg.close();
  });
}

// ---- pointer: tap, click, drag and drop ------------------------------------------------------

function movesFrom(src) {
  return (ui.msg?.table?.legal || []).filter((m) => m.src === src);
}

function game() {
  return GAMES[ui.msg.setup.game];
}

/** The legal move whose target pile is nearest to (x, y) among `moves` ("snap"). */
function nearest(moves, x, y, maxDist) {
  let best = null;
  let bestD = Infinity;
  for (const m of moves) {
    for (const e of document.querySelectorAll(`#table [data-dst="${CSS.escape(m.dst)}"]`)) {
      const r = e.getBoundingClientRect();
      const dx = Math.max(r.left - x, 0, x - r.right);
      const dy = Math.max(r.top - y, 0, y - r.bottom);
      const d = Math.hypot(dx, dy);
      if (d < bestD) {
        bestD = d;
        best = m;
      }
    }
  }
  return bestD <= maxDist ? best : null;
}

function tap(el) {
  const src = el.closest("[data-src]")?.dataset.src;
  const dst = el.closest("[data-dst]")?.dataset.dst;
  if (ui.selected && dst) {
    const m = movesFrom(ui.selected).find((x) => x.dst === dst);
    if (m) return play(m.id);
  }
  if (src) {
    const moves = movesFrom(src);
    if (moves.length) {
      const quick = game().tap?.(src, moves, ui.selected === src);
      if (quick) return play(quick.id);
      ui.selected = ui.selected === src ? null : src;
      return render();
    }
  }
  if (ui.selected) {
    ui.selected = null;
    render();
  }
}

function onPointerDown(ev) {
  if (ev.button !== 0 || !ui.msg?.table) return;
  const srcEl = ev.target.closest("[data-src]");
  ui.drag = { x: ev.clientX, y: ev.clientY, el: ev.target, srcEl, ghost: null, id: ev.pointerId };
}

function onPointerMove(ev) {
  const d = ui.drag;
  if (!d || d.id !== ev.pointerId || !d.srcEl) return;
  if (!d.ghost) {
    if (Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < DRAG_START_PX) return;
    const src = d.srcEl.dataset.src;
    if (!movesFrom(src).length) return;
    ui.selected = src;
    decorate($("table"), ui.msg.table);
    // a fanned pile (the Nerts waste) lifts only its top card
    const from = d.srcEl.classList.contains("waste-fan") ? d.srcEl.querySelector(".card:last-of-type") || d.srcEl : d.srcEl;
    const r = from.getBoundingClientRect();
    const ghost = from.cloneNode(true);
    ghost.classList.add("ghost");
    ghost.removeAttribute("data-src");
    ghost.style.width = r.width + "px";
    ghost.style.height = r.height + "px";
    d.dx = d.x - r.left;
    d.dy = d.y - r.top;
    document.body.append(ghost);
    d.ghost = ghost;
    d.srcEl.classList.add("lifted");
  }
  d.ghost.style.transform = `translate(${ev.clientX - d.dx}px, ${ev.clientY - d.dy}px)`;
  ev.preventDefault();
}

function onPointerUp(ev) {
  const d = ui.drag;
  ui.drag = null;
  if (!d || d.id !== ev.pointerId) return;
  if (!d.ghost) return tap(d.el);
  d.ghost.remove();
  d.srcEl.classList.remove("lifted");
  const moves = movesFrom(d.srcEl.dataset.src);
  const snap = game().dropAnywhere ? Infinity : Math.max(120, window.innerWidth / 6);
  const m = nearest(moves, ev.clientX, ev.clientY, snap);
  if (m) play(m.id);
  else {
    ui.selected = null;
    render();
  }
}

function onPointerCancel() {
  if (ui.drag?.ghost) {
    ui.drag.ghost.remove();
    ui.drag.srcEl.classList.remove("lifted");
  }
  ui.drag = null;
}

// ---- keys -----------------------------------------------------------------------------------

function onKey(ev) {
  if (ev.target.closest("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "?" || ev.key === "F1") {
    ev.preventDefault();
    return openHelp();
  }
  if (ev.key === "m" && !document.querySelector("dialog[open]")) return changeSettings({ mute: !settings.mute });
  if (!ui.msg?.table || document.querySelector("dialog[open]")) return;
  if (ev.key === "Escape") {
    ui.selected = null;
    return render();
  }
  if (ev.key === "t") return showSheet(false);
  const ctx = {
    legal: ui.msg.table.legal || [],
    selected: ui.selected,
    select(src) { ui.selected = src; render(); },
    play,
  };
  if (game().key?.(ev.key, ui.msg.table, ctx)) ev.preventDefault();
}

// ---- panels ---------------------------------------------------------------------------------

function openHelp() {
  const name = ui.msg?.setup.game || document.querySelector("input[name=game]:checked")?.value || "three-thirteen";
  const g = GAMES[name];
  const body = $("help-body");
  body.replaceChildren();
  // the room's own rules (its observation carries every option), else the defaults
  body.append(...g.help(h, ui.msg?.table?.observation?.options || {}));
  body.append(
    h("p", { text: `The complete rules, with every variant and worked examples: run \`cardcore rules ${name}\` in a terminal.` }),
    h("h3", { text: "Playing here" }),
    h("p", { text: "Click or tap a card to pick it up, then a lit pile to play it; or drag it and drop it near the pile (it snaps to the nearest legal one). Lit cards can be played. Coloured rings show each player's last move. Keys: ? help · t score sheet · m sound on/off · Esc put the card back. Profile (top bar): your level, achievements, quests, the leaderboard, and the table theme, card back, avatar and large-print cards." }),
  );
  $("dlg-help").showModal();
}

async function openProfile() {
  const name = store.get("name") || "You";
  const body = $("profile-body");
  let r;
  try {
    const answer = await fetch("/api/profile?name=" + encodeURIComponent(name));
    r = await answer.json();
    if (!answer.ok) throw new Error(r.error || answer.status);
  } catch (e) {
    return toast(`The profile could not be read: ${e.message || e}`);
  }
  if (!r.enabled) {
    // no profile on this server: the looks are still chosen (kept in this browser)
    body.replaceChildren(h("p", { text: "This server keeps no profile: your choices are kept in this browser." }), ...profileContent({ player: name }, ui.catalog));
  } else {
    body.replaceChildren(...profileContent(r, ui.catalog));
  }
  if (!$("dlg-profile").open) $("dlg-profile").showModal();
  $("dlg-profile").scrollTop = 0; // (opening focuses its first button, further down)
}

/** The invite link of room `room`. A page opened on this computer's loopback address gives
 * the address friends on the network reach (the server's `invite_base`, when it listens
 * beyond this computer): a 127.0.0.1 link would lead them to their own computers. */
export function inviteLink(room) {
  const loopback = /^(127\.|localhost$|\[::1\]$)/.test(location.hostname);
  const base = loopback && ui.catalog?.invite_base ? ui.catalog.invite_base : location.origin;
  return base + "/#join=" + room;
}

function copyInvite() {
  const link = inviteLink(ui.room);
  navigator.clipboard?.writeText(link).then(() => toast("Invite link copied"), () => toast(link));
}

// ---- start ----------------------------------------------------------------------------------

function init() {
  $("lobby-form").addEventListener("submit", createRoom);
  $("btn-help").onclick = openHelp;
  $("btn-profile").onclick = openProfile;
  $("btn-mute").onclick = () => changeSettings({ mute: !settings.mute });
  $("btn-sheet").onclick = () => showSheet(false);
  $("btn-invite").onclick = copyInvite;
  $("retry").onclick = loadCatalog;
  ui.play = play; // for tests
  ui.showSheet = showSheet;
  $("dlg-sheet").addEventListener("close", sheetClosed);
  for (const id of ["dlg-sheet", "dlg-help", "dlg-profile"]) closeOnBackdrop($(id));
  $("home").onclick = (ev) => {
    ev.preventDefault();
    location.hash = "";
  };
  const table = $("table");
  table.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
  window.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  loadSettings({ h, toast, name: () => store.get("name") || "You", redraw: () => { if (ui.msg) render(); } });
  loadCatalog();
}

/** The game list, then the page; when it fails, an error with a retry (and a retry by itself). */
async function loadCatalog() {
  try {
    const r = await fetch("/api/games");
    if (!r.ok) throw new Error(`the server answered ${r.status}`);
    const catalog = await r.json();
    await loadGameModules(catalog);
    ui.catalog = catalog;
  } catch (e) {
    $("load-error-text").textContent = `Could not load the games (${e.message || e}). Is cardcore serve still running?`;
    $("load-error").hidden = false;
    $("lobby").hidden = true;
    clearTimeout(ui.catalogRetry);
    ui.catalogRetry = setTimeout(loadCatalog, 5000);
    return;
  }
  clearTimeout(ui.catalogRetry);
  $("load-error").hidden = true;
  route();
}

/** Each listed game's drawing module, games/<name>.js (no list of games is kept here); a game
 * whose module fails to load is left out of the lobby, with a warning in the console. */
async function loadGameModules(catalog) {
  const loaded = await Promise.all(catalog.games.map(async (g) => {
    if (GAMES[g.name]) return true;
    if (!/^[a-z0-9][a-z0-9-]*$/.test(g.name)) return false;
    try {
      GAMES[g.name] = (await import(`./games/${g.name}.js`)).default;
      return true;
    } catch (e) {
      console.warn(`cardcore: no table for ${g.name}: ${e.message || e}`);
      return false;
    }
  }));
  catalog.games = catalog.games.filter((_, i) => loaded[i]);
}

init();
