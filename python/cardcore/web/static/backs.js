// Card backs and avatars, drawn for cardcore (no image files): each back is a few SVG shapes in
// the 100 x 140 card box; each avatar a few shapes in a 40 x 40 box. The ids are the ones the
// server's collections name (settings.card_back, settings.avatar); an unknown id draws the first.

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** Lines every `step` across the inner box (x 9..91, y 9..131), as one path. */
function hatch(step, slope) {
  let d = "";
  for (let x = -130; x < 230; x += step) d += `M${x} 131 L${x + 122 * slope} 9 `;
  return d;
}

const inner = (fill) => el("rect", { x: 9, y: 9, width: 82, height: 122, rx: 5, fill });
/** `parts` cut to the inner box (a nested <svg> clips to its own viewport). */
const clip = (parts) => {
  const g = el("svg", { x: 9, y: 9, width: 82, height: 122, viewBox: "9 9 82 122" });
  g.append(...parts);
  return g;
};

export const BACKS = {
  classic: { name: "Classic blue", draw: () => [inner("#1d4e89"), el("path", { d: "M50 30 L72 70 L50 110 L28 70 Z", fill: "#ffffff30" })] },
  lattice: {
    name: "Red lattice",
    draw: () => [inner("#a4161a"), clip([el("path", { d: hatch(12, 1) + hatch(12, -1), stroke: "#ffffff55", "stroke-width": 2.5, fill: "none" })]), el("circle", { cx: 50, cy: 70, r: 13, fill: "#f2b705" })],
  },
  waves: {
    name: "Sea waves",
    draw: () => {
      let d = "";
      for (let y = 20; y < 131; y += 13) d += `M5 ${y} q11 -8 22 0 t22 0 t22 0 t22 0 t22 0 `;
      return [inner("#0f6e6e"), clip([el("path", { d, stroke: "#bff4ee", "stroke-width": 3, fill: "none", opacity: 0.7 })])];
    },
  },
  stars: {
    name: "Night stars",
    draw: () => {
      const star = (x, y, r) => el("path", { d: `M${x} ${y - r} L${x + r * 0.3} ${y - r * 0.3} L${x + r} ${y} L${x + r * 0.3} ${y + r * 0.3} L${x} ${y + r} L${x - r * 0.3} ${y + r * 0.3} L${x - r} ${y} L${x - r * 0.3} ${y - r * 0.3} Z`, fill: "#ffe28a" });
      return [inner("#1b1f4b"), star(50, 70, 18), star(27, 30, 7), star(74, 38, 6), star(30, 108, 6), star(72, 110, 8), star(64, 20, 4), star(22, 70, 4), star(80, 78, 4)];
    },
  },
  sunburst: {
    name: "Sunburst",
    draw: () => {
      let d = "";
      for (let i = 0; i < 16; i++) {
        const a = (i / 16) * 2 * Math.PI;
        const b = a + Math.PI / 16;
        d += `M50 70 L${(50 + 90 * Math.cos(a)).toFixed(1)} ${(70 + 90 * Math.sin(a)).toFixed(1)} L${(50 + 90 * Math.cos(b)).toFixed(1)} ${(70 + 90 * Math.sin(b)).toFixed(1)} Z `;
      }
      return [inner("#e85d04"), clip([el("path", { d, fill: "#faa307" })]), el("circle", { cx: 50, cy: 70, r: 11, fill: "#fff3b0" })];
    },
  },
  tartan: {
    name: "Tartan",
    draw: () => {
      const band = (attrs, fill) => el("rect", { ...attrs, fill });
      return [inner("#1d3557"), clip([
        ...[14, 44, 74].map((x) => band({ x, y: 0, width: 12, height: 140 }, "#c1121f99")),
        ...[18, 58, 98].map((y) => band({ x: 0, y, width: 100, height: 12 }, "#2d6a4f99")),
        ...[34, 64].map((x) => band({ x, y: 0, width: 2, height: 140 }, "#f1faee88")),
        ...[40, 80, 120].map((y) => band({ x: 0, y, width: 100, height: 2 }, "#ffd23f88")),
      ])];
    },
  },
};

/** An avatar in a 40 x 40 box: a coloured disc with a face or sign. */
const face = (bg, ...parts) => () => [el("circle", { cx: 20, cy: 20, r: 19, fill: bg }), ...parts.map(([n, a]) => el(n, a))];
const eyes = (y, r = 2.4, fill = "#15191d") => [["circle", { cx: 14, cy: y, r, fill }], ["circle", { cx: 26, cy: y, r, fill }]];

export const AVATARS = {
  fox: { name: "Fox", draw: face("#ffb703", ["path", { d: "M8 10 L15 18 L25 18 L32 10 L31 24 L20 33 L9 24 Z", fill: "#e76f51" }], ["path", { d: "M13 25 L20 33 L27 25 L20 28 Z", fill: "#fff" }], ...eyes(21), ["circle", { cx: 20, cy: 31, r: 2, fill: "#15191d" }]) },
  owl: { name: "Owl", draw: face("#8ecae6", ["path", { d: "M9 11 L15 15 L25 15 L31 11 L31 30 Q20 38 9 30 Z", fill: "#6d4c41" }], ["circle", { cx: 15, cy: 20, r: 5, fill: "#fff" }], ["circle", { cx: 25, cy: 20, r: 5, fill: "#fff" }], ...eyes(20, 2.2), ["path", { d: "M18 25 L22 25 L20 29 Z", fill: "#ffb703" }]) },
  cat: { name: "Cat", draw: face("#c77dff", ["path", { d: "M9 9 L16 15 L24 15 L31 9 L31 26 Q20 36 9 26 Z", fill: "#fefae0" }], ...eyes(21), ["path", { d: "M18 26 L22 26 L20 28 Z", fill: "#ff6b6b" }], ["path", { d: "M6 25 L14 26 M6 29 L14 28 M34 25 L26 26 M34 29 L26 28", stroke: "#15191d", "stroke-width": 1 }]) },
  robot: { name: "Robot", ai: true, draw: face("#3bceac", ["rect", { x: 10, y: 12, width: 20, height: 18, rx: 3, fill: "#dfe7ec" }], ["rect", { x: 19, y: 6, width: 2, height: 6, fill: "#dfe7ec" }], ["circle", { cx: 20, cy: 6, r: 2, fill: "#ff6b6b" }], ["rect", { x: 13, y: 17, width: 5, height: 4, fill: "#15191d" }], ["rect", { x: 22, y: 17, width: 5, height: 4, fill: "#15191d" }], ["rect", { x: 14, y: 24, width: 12, height: 2, fill: "#15191d" }]) },
  bear: { name: "Bear", draw: face("#95d5b2", ["circle", { cx: 11, cy: 12, r: 5, fill: "#8d5524" }], ["circle", { cx: 29, cy: 12, r: 5, fill: "#8d5524" }], ["circle", { cx: 20, cy: 22, r: 12, fill: "#8d5524" }], ["ellipse", { cx: 20, cy: 27, rx: 6, ry: 4.5, fill: "#e0ac69" }], ...eyes(19, 2), ["circle", { cx: 20, cy: 25.5, r: 2, fill: "#15191d" }]) },
  rabbit: { name: "Rabbit", draw: face("#ffafcc", ["ellipse", { cx: 14, cy: 10, rx: 3.5, ry: 9, fill: "#f8f9fa" }], ["ellipse", { cx: 26, cy: 10, rx: 3.5, ry: 9, fill: "#f8f9fa" }], ["ellipse", { cx: 14, cy: 10, rx: 1.5, ry: 6, fill: "#ff8fab" }], ["ellipse", { cx: 26, cy: 10, rx: 1.5, ry: 6, fill: "#ff8fab" }], ["circle", { cx: 20, cy: 25, r: 10, fill: "#f8f9fa" }], ...eyes(23, 1.8), ["path", { d: "M18.5 27 L21.5 27 L20 29 Z", fill: "#ff6b6b" }]) },
  hedgehog: { name: "Hedgehog", draw: face("#caffbf", ["path", { d: "M6 26 L8 16 L11 19 L13 9 L17 15 L20 6 L23 15 L27 9 L29 19 L32 16 L34 26 Z", fill: "#6d4c41" }], ["ellipse", { cx: 20, cy: 26, rx: 11, ry: 8, fill: "#e0ac69" }], ...eyes(24, 1.8), ["circle", { cx: 20, cy: 29, r: 2, fill: "#15191d" }]) },
  otter: { name: "Otter", draw: face("#90e0ef", ["circle", { cx: 10, cy: 13, r: 3.5, fill: "#7f5539" }], ["circle", { cx: 30, cy: 13, r: 3.5, fill: "#7f5539" }], ["circle", { cx: 20, cy: 21, r: 12, fill: "#7f5539" }], ["ellipse", { cx: 20, cy: 26, rx: 8, ry: 6, fill: "#ddb892" }], ...eyes(19, 2), ["ellipse", { cx: 20, cy: 24, rx: 2.5, ry: 1.8, fill: "#15191d" }], ["path", { d: "M8 26 L15 26 M8 29 L15 28 M32 26 L25 26 M32 29 L25 28", stroke: "#15191d", "stroke-width": 0.8 }]) },
  crow: { name: "Crow", draw: face("#e9c46a", ["circle", { cx: 19, cy: 21, r: 12, fill: "#22223b" }], ["circle", { cx: 16, cy: 18, r: 3, fill: "#fff" }], ["circle", { cx: 16.5, cy: 18, r: 1.5, fill: "#15191d" }], ["path", { d: "M24 19 L37 23 L24 26 Z", fill: "#f4a261" }]) },
  lion: { name: "Lion", draw: face("#ffe5b4", ["circle", { cx: 20, cy: 21, r: 15, fill: "#bc6c25" }], ["circle", { cx: 20, cy: 22, r: 10, fill: "#fcbf49" }], ...eyes(20, 1.8), ["path", { d: "M17.5 24 L22.5 24 L20 27 Z", fill: "#6d4c41" }], ["path", { d: "M17 28 Q20 30 23 28", stroke: "#6d4c41", "stroke-width": 1.2, fill: "none" }]) },
};

/** An <svg> avatar (unknown ids draw the first; the robot is the AI seats'). */
export function avatarSvg(id) {
  const a = AVATARS[id] || Object.values(AVATARS)[0];
  const svg = el("svg", { viewBox: "0 0 40 40", class: "avatar", role: "img", "aria-label": a.name + " avatar" });
  svg.append(...a.draw());
  return svg;
}
