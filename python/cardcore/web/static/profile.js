// The player's side of the page (issue 35): settings (table theme, card back, avatar, large
// print, sound), the profile panel (level, achievements, quests, collections, stats, the
// leaderboard), today's challenges in the lobby and a toast for each thing earned.
//
// Settings live in the server's profile (GET /api/profile, POST /api/settings) and, so
// the page looks right before the server answers, in this browser's localStorage too.

import { AVATARS, BACKS, avatarSvg } from "./backs.js";
import { cardSvg, look } from "./cards.js";
import { buzz, feel, sound } from "./feel.js";

export const THEMES = { green: "Green felt", blue: "Blue felt", burgundy: "Burgundy felt", slate: "Slate", wood: "Oak table", night: "Night sky" };
const DEFAULTS = { theme: "green", card_back: "classic", avatar: "fox", large_print: false, mute: false };

export const settings = { ...DEFAULTS };
let page = null; // {h, toast, redraw, name()} from app.js

function local() {
  try { return JSON.parse(localStorage.getItem("cardcore.settings") || "{}") || {}; } catch { return {}; }
}

/** Shows `s` on the page: theme, card look, sound switch, avatar. */
export function applySettings(s) {
  Object.assign(settings, s);
  if (settings.theme && settings.theme !== "green") document.body.dataset.theme = settings.theme;
  else delete document.body.dataset.theme;
  look.back = settings.card_back;
  look.large = Boolean(settings.large_print);
  feel.settings.mute = Boolean(settings.mute);
  const mute = document.getElementById("btn-mute");
  if (mute) {
    mute.setAttribute("aria-pressed", String(!settings.mute));
    mute.textContent = settings.mute ? "♪ off" : "♪ on";
    mute.setAttribute("aria-label", settings.mute ? "Sound off" : "Sound on");
  }
  try { localStorage.setItem("cardcore.settings", JSON.stringify(settings)); } catch { /* private mode */ }
  page?.redraw();
}

/** The settings kept in this browser (at once), then the profile's (when the server has them). */
export async function loadSettings(p) {
  page = p;
  applySettings({ ...DEFAULTS, ...local() });
  const r = await readProfile();
  if (r?.settings) applySettings(r.settings);
}

/** The profile's settings of the player now named (after the name changed in the lobby). */
export async function refreshSettings() {
  const r = await readProfile();
  if (r?.settings) applySettings(r.settings);
}

async function readProfile() {
  try {
    const answer = await fetch("/api/profile?name=" + encodeURIComponent(page.name()));
    const r = await answer.json();
    return answer.ok ? r : null;
  } catch {
    return null;
  }
}

/** Changes settings: shown at once, kept in the profile; a refusal (a locked item) undoes it. */
export async function changeSettings(partial) {
  const before = { ...settings };
  applySettings(partial);
  let answer;
  try {
    answer = await fetch("/api/settings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: page.name(), ...partial }),
    });
  } catch {
    return; // offline: kept in this browser
  }
  if (answer.status === 404) return; // a server without settings: kept in this browser
  const r = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    applySettings(before);
    page.toast(r.error || `The settings were not saved (${answer.status}).`);
  } else if (r.settings || r.theme) applySettings(r.settings || r); // (no profile: enabled false)
}

// ---- earned: a toast for each achievement, level, quest or challenge -------------------------

const announced = new Set();
const queue = [];
let showing = false;

/** Toasts each item of `earned` ([{kind, id, name, text}]) once per room; the collection
 * items it unlocked go together in one last toast. */
export function announce(room, earned) {
  const unlocked = [];
  for (const e of earned || []) {
    const key = `${room}:${e.kind}:${e.collection ?? ""}:${e.id}`;
    if (announced.has(key)) continue;
    announced.add(key);
    if (e.kind === "unlock") unlocked.push(e.name || e.id);
    else queue.push(e);
  }
  if (unlocked.length) queue.push({ kind: "unlock", id: "", name: unlocked.join(", "), text: "New in your collections (Profile)" });
  if (!showing) next();
}

const KIND = { achievement: "Achievement", level: "Level up", quest: "Quest done", challenge: "Daily challenge met", unlock: "Unlocked" };

function next() {
  const e = queue.shift();
  const t = document.getElementById("earned");
  if (!e) {
    showing = false;
    t.hidden = true;
    if (t.hidePopover && t.matches(":popover-open")) t.hidePopover();
    return;
  }
  showing = true;
  t.replaceChildren(
    page.h("span", { class: "earned-kind", text: KIND[e.kind] || "Earned" }),
    page.h("span", { class: "earned-name", text: e.name || e.id }),
    e.text ? page.h("span", { class: "earned-text", text: e.text }) : null,
  );
  t.dataset.kind = e.kind;
  t.hidden = false;
  // a popover is in the top layer: above the score sheet panel that is open at game over
  if (t.showPopover) {
    if (t.matches(":popover-open")) t.hidePopover();
    t.showPopover();
  }
  sound("earn");
  buzz([30, 50, 30]);
  setTimeout(next, 2600);
}

// ---- lobby: today's challenges ---------------------------------------------------------------

/** Fills `box` with today's challenges: objective, met / missed / open, streak, a Play button. */
export async function showChallenges(box, titles, playDaily) {
  let list;
  try {
    const answer = await fetch("/api/daily?name=" + encodeURIComponent(page.name()));
    if (!answer.ok) throw new Error(String(answer.status));
    const r = await answer.json();
    list = Array.isArray(r) ? r : r.challenges || [];
  } catch {
    box.hidden = true;
    return;
  }
  const { h } = page;
  box.replaceChildren(
    h("h2", { text: "Today's challenges" }),
    h("ul", { class: "challenges" }, ...list.map((c) => {
      const state = c.met ? "met" : c.played ? "missed" : "open";
      const streaks = [c.streak ? `streak ${c.streak}` : "", c.challenge_streak ? `met ${c.challenge_streak} in a row` : ""].filter(Boolean).join(" · ");
      const label = { met: "Met ✓", missed: "Missed", open: "Not played yet" }[state];
      const play = h("button", { type: "button", class: "play-daily", text: state === "open" ? "Play" : "Play again" });
      play.onclick = () => playDaily(c.game);
      return h("li", { class: `challenge ${state}`, "data-game": c.game },
        h("div", { class: "ch-head" },
          h("strong", { text: titles[c.game] || c.title || c.game }),
          h("span", { class: `ch-state ${state}`, text: label })),
        h("div", { class: "ch-objective", text: c.objective?.text ?? c.objective ?? "" }),
        h("div", { class: "ch-foot" }, h("span", { class: "ch-streak", text: streaks }), play));
    })),
  );
  box.hidden = !list.length;
}

// ---- the profile panel -----------------------------------------------------------------------

function bar(h, progress, goal) {
  const p = goal ? Math.max(0, Math.min(1, progress / goal)) : 0;
  const fill = h("span", { class: "meter-fill" });
  fill.style.width = `${(p * 100).toFixed(0)}%`; // (the page's CSP refuses style attributes)
  return h("span", { class: "meter", role: "meter", "aria-valuenow": progress, "aria-valuemin": 0, "aria-valuemax": goal, title: `${progress} / ${goal}` }, fill);
}

/** The collections the server lists (with what is unlocked), or all of this page's designs. */
function collections(r) {
  const all = (reg, names) => Object.keys(reg).map((id) => ({ id, name: names(id), unlocked: true }));
  const c = r.collections || {};
  return {
    themes: c.themes || all(THEMES, (id) => THEMES[id]),
    card_backs: c.card_backs || all(BACKS, (id) => BACKS[id].name),
    avatars: c.avatars || all(AVATARS, (id) => AVATARS[id].name).filter((it) => !AVATARS[it.id].ai),
  };
}

function picker(h, items, key, draw) {
  return h("div", { class: "picker", "data-setting": key }, ...items.map((it) => {
    const chosen = settings[key] === it.id;
    const b = h("button", {
      type: "button", class: "pick" + (chosen ? " chosen" : "") + (it.unlocked === false ? " locked" : ""),
      "data-id": it.id, "aria-pressed": String(chosen), disabled: it.unlocked === false,
      title: it.unlocked === false ? `${it.name}, locked: ${it.how || "play on to unlock it"}` : it.name,
    }, draw(it.id), h("span", { class: "pick-name", text: it.name }), it.unlocked === false ? h("span", { class: "pick-how", text: (it.how || "locked").replace(/ \(.*\)$/, "") }) : null);
    b.onclick = async () => {
      await changeSettings({ [key]: it.id });
      for (const x of b.parentElement.children) {
        x.classList.toggle("chosen", x === b && settings[key] === it.id);
        x.setAttribute("aria-pressed", String(x.classList.contains("chosen")));
      }
    };
    return b;
  }));
}

function check(h, key, text) {
  const box = h("input", { type: "checkbox", id: "set-" + key, checked: key === "mute" ? !settings.mute : Boolean(settings[key]) });
  box.onchange = () => changeSettings({ [key]: key === "mute" ? !box.checked : box.checked });
  return h("label", { class: "check" }, box, " " + text);
}

/** The profile panel's content for profile answer `r`. */
export function profileContent(r, catalog) {
  const { h } = page;
  const lv = r.level || null;
  const head = h("div", { class: "prof-head" }, avatarSvg(settings.avatar),
    h("div", {},
      h("h2", { text: r.player }),
      lv ? h("div", { class: "level" }, h("strong", { text: `Level ${lv.level}` }), " ", bar(h, lv.xp - (lv.floor ?? 0), lv.next - (lv.floor ?? 0)), h("span", { class: "note", text: ` ${lv.xp} XP, level ${lv.level + 1} at ${lv.next}` })) : null));
  const ach = (r.achievements || []).map((a) => {
    const done = a.done || Boolean(a.earned_at);
    return h("li", { class: "ach" + (done ? " earned" : ""), "data-achievement": a.id },
      h("div", { class: "ach-name" }, h("strong", { text: (done ? "★ " : "") + a.name })),
      h("div", { class: "note", text: a.text }),
      done ? h("div", { class: "note", text: a.earned_at ? "earned " + String(a.earned_at).slice(0, 10) : "earned" })
        : h("div", {}, bar(h, a.progress, a.goal), h("span", { class: "note", text: ` ${a.progress} / ${a.goal}` })));
  });
  const quests = (r.quests || []).map((q) => h("li", { class: "quest" + (q.done ? " done" : "") },
    h("strong", { text: (q.done ? "✓ " : "") + q.name }), h("span", { class: "note", text: " " + q.text + " " }),
    bar(h, q.progress, q.goal), h("span", { class: "note", text: ` ${q.progress} / ${q.goal}` })));
  const c = collections(r);
  const mini = (id) => { const saved = look.back; look.back = id; const s = cardSvg(null, { back: true }); look.back = saved; return s; };
  const progress = h("section", { class: "prof-col" },
    ach.length ? h("h3", { text: "Achievements" }) : null, ach.length ? h("ul", { class: "achievements" }, ...ach) : null,
    quests.length ? h("h3", { text: "Quests" }) : null, quests.length ? h("ul", { class: "quests" }, ...quests) : null,
    h("h3", { text: "Games" }),
    h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, ...["Game", "AI", "Played", "Won", "Best"].map((x) => h("th", { text: x })))),
      h("tbody", {}, ...(r.stats || []).map((s) => h("tr", {}, ...[s.game, s.level, s.played, s.won, s.best].map((x) => h("td", { text: x })))))),
    r.streaks ? h("p", { class: "note", text: "Daily streaks: " + Object.entries(r.streaks).map(([g, n]) => `${g} ${n}`).join(" · ") }) : null);
  const colls = h("section", { class: "prof-col collections" },
    h("h3", { text: "Table theme" }), picker(h, c.themes, "theme", (id) => h("span", { class: "theme-swatch", "data-theme": id })),
    h("h3", { text: "Card back" }), picker(h, c.card_backs, "card_back", mini),
    h("h3", { text: "Avatar" }), picker(h, c.avatars, "avatar", avatarSvg),
    h("h3", { text: "Options" }),
    h("div", { class: "row" }, check(h, "large_print", "Large-print cards"), check(h, "mute", "Sound effects")));
  const board = h("section", { class: "prof-col board" }, h("h3", { text: "Leaderboard" }));
  leaderboard(board, catalog, r);
  return [head, h("div", { class: "prof-grid" }, progress, colls), board];
}

/** The leaderboard of one game: local players and the AI levels, ranked (GET /api/leaderboard). */
async function leaderboard(box, catalog, r) {
  const { h } = page;
  const games = catalog?.games || [];
  const pick = h("select", { "aria-label": "game", id: "board-game" }, ...games.map((g) => h("option", { value: g.name, text: g.title })));
  pick.value = localStorage.getItem("cardcore.game") || games[0]?.name;
  const list = h("div", {});
  box.append(h("label", {}, "Game ", pick), list);
  const fill = async () => {
    let rows;
    try {
      const answer = await fetch("/api/leaderboard?game=" + encodeURIComponent(pick.value));
      if (!answer.ok) throw new Error(String(answer.status));
      const d = await answer.json();
      rows = d.ranking || [];
    } catch {
      // a server without ratings: this computer's players by games won, all games together
      rows = (r.leaderboard || []).map((p) => ({ name: p.player, kind: "person", played: p.played, won: p.won }));
    }
    const vs = (p) => Object.entries(p.by_level || {}).map(([lv, x]) => `${lv} ${x.won}/${x.played}`).join(", ");
    list.replaceChildren(rows.length ? h("table", { class: "sheet leaders" },
      h("thead", {}, h("tr", {}, ...["#", "Player", "Rating", "Played", "Won", "Won against"].map((x) => h("th", { text: x })))),
      h("tbody", {}, ...rows.map((p, i) => h("tr", { class: p.kind === "ai" ? "ai" : p.name === page.name() ? "me" : "", title: vs(p) ? "won against: " + vs(p) : false },
        h("td", { text: i + 1 }),
        h("td", { text: p.name }),
        h("td", { text: p.rating ?? "" }),
        h("td", { text: p.played ?? "" }), h("td", { text: p.won ?? "" }),
        h("td", { class: "note", text: vs(p) })))))
      : h("p", { class: "note", text: "No games of this game finished here yet." }));
  };
  pick.onchange = fill;
  await fill();
}
