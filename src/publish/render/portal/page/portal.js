// The portal page's live parts: full request URLs, copy buttons, the contract chooser, each
// contract's map and table of stations drawn from its GBFS v3.0 station_information feed, the
// marks and totals coloured from its station_status feed, and the footer's word on how old that
// live data is, every time in the reader's own zone. The table holds a page of rows at a time (a
// network of 100,000 stations built as rows froze the page for seconds); finding a station
// searches all of them.

const REFRESH_FLOOR_SECONDS = 30;
const SVG = "http://www.w3.org/2000/svg";
const MAP_WIDTH = 640;
const MAP_MAX_HEIGHT = 520;
const MAP_MIN_HEIGHT = 200;
const MAP_PAD = 14;
const MAP_HELP =
  "Select a mark, or tap near one, to read its station (with the keyboard: Tab to the map, then the arrow keys, Home and End; from a mark a row of the table led to, Escape goes back to the row).";
// How far from a mark a tap or click still selects it, in CSS pixels: on a phone a mark is ~7 px
// wide, far below the 24 px a finger can aim at (WCAG 2.2's target size).
const REACH_PX = 24;
// Rows of stations added to a table at a time ("Show 100 more").
const PAGE_ROWS = 100;
const LIVE_CELLS = ["bikes", "docks", "state"];
// How long "Copied." stays said: time to read it, and gone before the next copy.
const COPIED_SAID_MS = 3000;
const count = new Intl.NumberFormat("en");
// A station whose last report is this much older than its feed's update is said to be stale (as
// `velodata serve`'s /status counts them, --stale-minutes' default): its numbers are its last known.
const STALE_MINUTES = 15;

// Per contract map: the drawing under way or done, and the last station_status read for it.
const drawings = new WeakMap();
const lastStatus = new WeakMap();
// Per contract map: its table's stations, those matching the search, the rows drawn (by station
// id) and the live data last read (by station id).
const tables = new WeakMap();
// Per contract map: the table's button (a station's name) that led to the mark focused, for Escape.
const ledFrom = new WeakMap();
// Per mark: its station, its label without live data, and the state and text last written.
const marksSaid = new WeakMap();
// Per request's status line: the timer that takes "Copied." away.
const copiedTimers = new WeakMap();

/** The tree's root as the page sees it, so requests read as full URLs under any prefix. */
function baseUrl() {
  const list = document.querySelector(".endpoints");
  const configured = list?.dataset.base;
  if (configured) return configured.replace(/\/$/, "");
  return new URL(".", window.location.href).href.replace(/\/$/, "");
}

function showRequests() {
  const base = baseUrl();
  for (const code of document.querySelectorAll("code[data-request]")) {
    code.textContent = base + code.dataset.request;
    const button = code.nextElementSibling;
    const said = code.closest("li")?.querySelector(".copy-said");
    if (!button || !said) continue;
    // A screen reader's list of buttons says which request each copies, not "Copy" ten times. The
    // name stays: what a copy did is said by the request's status line, a polite live region.
    button.setAttribute("aria-label", `Copy ${code.textContent}`);
    button.hidden = false;
    button.addEventListener("click", () => copyRequest(code, said));
  }
}

/**
 * Copies a request and says so, "Copied." for a moment. Where the browser cannot (a page on plain
 * http, other than from localhost, has no navigator.clipboard) or will not, it says so and selects
 * the request, to copy by hand.
 */
async function copyRequest(code, said) {
  clearTimeout(copiedTimers.get(said));
  said.textContent = "";
  try {
    if (!navigator.clipboard) throw new Error("no clipboard on this page");
    await navigator.clipboard.writeText(code.textContent);
    said.textContent = "Copied.";
    copiedTimers.set(
      said,
      setTimeout(() => {
        said.textContent = "";
      }, COPIED_SAID_MS),
    );
  } catch {
    window.getSelection()?.selectAllChildren(code);
    const why = navigator.clipboard ? "the browser refused" : "only a page on https can";
    said.textContent = `Could not copy (${why}). The request is selected: copy it with Ctrl+C, ⌘C or your device's menu.`;
  }
}

function chooseContract() {
  const select = document.getElementById("contract-choice");
  if (!select) return;
  const show = () => {
    for (const map of document.querySelectorAll(".contract-map")) {
      map.hidden = map.dataset.contract !== select.value;
      if (!map.hidden) drawOnce(map);
    }
    readStale();
  };
  select.addEventListener("change", show);
  // A contract's name in the contracts table leads to its map (the link then goes to #map):
  // with 50 contracts, the map is screens below the table on a phone.
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[data-map]");
    if (!link || select.value === link.dataset.map) return;
    select.value = link.dataset.map;
    show();
  });
  show();
}

// Farther than this from the middle of its contract's stations, a station is a city away (as the
// build's warning says of it): the map frames the others, and shows it at the edge, towards it.
const FAR_KM = 50;
const KM_PER_DEGREE = 111.2;

/** The middle value (the lower of the two middle ones for an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1];
}

/**
 * Equirectangular projection scaled by the cosine of the middle latitude: at a city's scale it
 * keeps distances and angles close to true, which is all a station map needs. It frames the
 * stations near the middle (the median of each coordinate, which a few far ones do not move);
 * a far one is put at the frame's edge, towards where it is, and marked `far` with its distance.
 */
function project(stations) {
  if (stations.length === 0) return { points: [], height: MAP_MIN_HEIGHT };
  const middle = {
    lat: median(stations.map((s) => s.lat)),
    lon: median(stations.map((s) => s.lon)),
  };
  const squeeze = Math.cos((middle.lat * Math.PI) / 180);
  const kmFromMiddle = (s) =>
    Math.hypot((s.lon - middle.lon) * squeeze, s.lat - middle.lat) * KM_PER_DEGREE;
  const near = stations.filter((s) => kmFromMiddle(s) <= FAR_KM);
  let [latMin, latMax, lonMin, lonMax] = [90, -90, 180, -180];
  for (const { lat, lon } of near.length > 0 ? near : stations) {
    latMin = Math.min(latMin, lat);
    latMax = Math.max(latMax, lat);
    lonMin = Math.min(lonMin, lon);
    lonMax = Math.max(lonMax, lon);
  }
  const spanX = (lonMax - lonMin) * squeeze;
  const spanY = latMax - latMin;
  // One station (or all at one place) has no extent: it goes in the middle.
  const scale = Math.min(
    spanX > 0 ? (MAP_WIDTH - 2 * MAP_PAD) / spanX : Number.POSITIVE_INFINITY,
    spanY > 0 ? (MAP_MAX_HEIGHT - 2 * MAP_PAD) / spanY : Number.POSITIVE_INFINITY,
  );
  const finite = Number.isFinite(scale) ? scale : 0;
  const height = Math.max(MAP_MIN_HEIGHT, Math.round(spanY * finite + 2 * MAP_PAD));
  const offsetX = (MAP_WIDTH - spanX * finite) / 2;
  const offsetY = (height - spanY * finite) / 2;
  const within = (value, most) => Math.min(most - MAP_PAD, Math.max(MAP_PAD, value));
  const points = stations.map((s) => {
    const x = offsetX + (s.lon - lonMin) * squeeze * finite;
    const y = offsetY + (latMax - s.lat) * finite;
    const km = kmFromMiddle(s);
    if (near.length === 0 || km <= FAR_KM) return { x, y };
    return { x: within(x, MAP_WIDTH), y: within(y, height), farKm: Math.round(km) };
  });
  return { points, height };
}

/** GBFS v3.0 names are localized: the first one given (v2.3's plain string works too). */
const nameOf = (station) =>
  typeof station.name === "string" ? station.name : (station.name?.[0]?.text ?? "");

const twoDigits = (n) => String(n).padStart(2, "0");

/**
 * `2026-12-05 03:23 UTC+1`: a time in the reader's own zone (the browser's), with its offset from
 * UTC, which names one time where a zone's abbreviation may not ("CST" is three zones). Each time
 * has its own offset: summer time or not.
 */
function localTime(ms) {
  const at = new Date(ms);
  const east = -at.getTimezoneOffset();
  const hours = Math.floor(Math.abs(east) / 60);
  const minutes = Math.abs(east) % 60;
  const zone =
    east === 0
      ? "UTC"
      : `UTC${east < 0 ? "-" : "+"}${hours}${minutes ? `:${twoDigits(minutes)}` : ""}`;
  const day = `${at.getFullYear()}-${twoDigits(at.getMonth() + 1)}-${twoDigits(at.getDate())}`;
  return `${day} ${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())} ${zone}`;
}

/** The page's own times, written in UTC for a reader without the script, in the reader's zone. */
function showLocalTimes() {
  for (const time of document.querySelectorAll("time[datetime]")) {
    time.textContent = localTime(Date.parse(time.getAttribute("datetime")));
  }
}

/** `40 min`, `5 h`, `664 days`: how long a station has not reported. */
function duration(ms) {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${count.format(Math.floor(hours / 24))} days`;
}

const counted = (n, noun) => `${count.format(n)} ${noun}${n === 1 ? "" : "s"}`;

/** `12 of 287 stations have not reported…`, under a map of its stations, and in the footer. */
const silentSaid = (silent, stations, whose = "") =>
  `${count.format(silent)} of ${whose}${counted(stations, "station")} ${silent === 1 ? "has" : "have"} not reported for ${STALE_MINUTES} minutes or more: the numbers shown for ${silent === 1 ? "it are its" : "them are their"} last known.`;

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

/** The contract's map and table, drawn the first time it is shown. */
function drawOnce(map) {
  if (!map.dataset.information || drawings.has(map)) return;
  const info = map.querySelector(".map-info");
  info.textContent = "Reading the stations…";
  const drawing = fetch(map.dataset.information)
    .then((response) => {
      if (!response.ok) throw new Error(`${map.dataset.information}: ${response.status}`);
      return response.json();
    })
    .then((feed) => {
      draw(map, feed.data.stations);
      info.textContent = MAP_HELP;
      const status = lastStatus.get(map);
      if (status) showStatus(map, status);
    })
    .catch((error) => {
      info.textContent = `The stations could not be read (${error.message}); they are in the downloads below.`;
    });
  drawings.set(map, drawing);
}

function draw(map, stations) {
  const { points, height } = project(stations);
  const name = map.querySelector("h3").firstChild.textContent.trim();
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "map");
  svg.setAttribute("viewBox", `0 0 ${MAP_WIDTH} ${height}`);
  svg.setAttribute("role", "group");
  svg.setAttribute(
    "aria-label",
    `Map of the ${stations.length} station${stations.length === 1 ? "" : "s"} of ${name}; each mark is coloured by its bikes and free stands`,
  );
  stations.forEach((station, index) => {
    const { farKm } = points[index];
    const away = farKm === undefined ? "" : ` (${farKm} km away, off this map: shown at its edge)`;
    const label = `Station ${station.station_id}, ${nameOf(station)}: ${station.capacity} stands${away}`;
    const mark = document.createElementNS(SVG, "circle");
    mark.setAttribute("class", farKm === undefined ? "mark" : "mark far");
    mark.setAttribute("cx", points[index].x.toFixed(1));
    mark.setAttribute("cy", points[index].y.toFixed(1));
    mark.setAttribute("r", "6");
    // One tab stop for the whole map (the first mark), the arrow keys move between marks: a
    // contract's 2,000 marks are not 2,000 presses of Tab on the way to the rest of the page.
    mark.setAttribute("tabindex", index === 0 ? "0" : "-1");
    mark.setAttribute("role", "img");
    mark.setAttribute("aria-label", label);
    mark.dataset.station = station.station_id;
    const title = document.createElementNS(SVG, "title");
    title.textContent = label;
    mark.append(title);
    svg.append(mark);
  });
  map.querySelector(".map-area").replaceChildren(svg);
  setUpTable(map, stations);
  map.querySelector("details").hidden = false;
}

/** What a station's live cells say, in LIVE_CELLS' order, from its status and its feed's time. */
const liveTexts = (station, feedAt) => [
  String(station.num_vehicles_available),
  String(station.num_docks_available ?? 0),
  stateOf(station, feedAt)[1],
];

/** Writes a row's live cells from the station's status, only those whose text changed. */
function fillLive(row, station, feedAt) {
  if (!station) return;
  const texts = liveTexts(station, feedAt);
  row.querySelectorAll("[data-live]").forEach((value, index) => {
    if (value.textContent !== texts[index]) value.textContent = texts[index];
  });
}

function stationRow(station, live, feedAt) {
  const row = document.createElement("tr");
  row.dataset.station = station.station_id;
  // The name leads to the station's mark on the map (`showOnMap`).
  const name = document.createElement("button");
  name.type = "button";
  name.className = "to-mark";
  name.textContent = nameOf(station);
  name.setAttribute("aria-label", `${name.textContent}: show on the map`);
  const nameCell = cell("");
  nameCell.append(name);
  row.append(cell(station.station_id, "num"), nameCell, cell(String(station.capacity), "num wide"));
  for (const what of LIVE_CELLS) {
    const value = cell("–", what === "state" ? "" : "num");
    value.dataset.live = what;
    row.append(value);
  }
  fillLive(row, live, feedAt);
  return row;
}

// The Latin letters with marks (U+00C0 to U+024F), each with its letter without them: one look-up
// per such letter folds 100,000 names in a fifth of a second, where String.normalize takes seconds.
const UNMARKED = new Map();
for (let code = 0xc0; code <= 0x24f; code++) {
  const letter = String.fromCharCode(code).toLowerCase();
  UNMARKED.set(letter, letter.normalize("NFD").replace(/[\u0300-\u036f]/g, ""));
}

/**
 * Folded for finding: any case, with or without accents ("velo" finds "Vélo"), with a typed
 * apostrophe or a typographic one ("l'eglise" finds "L’Église").
 */
const folded = (text) =>
  text
    .toLowerCase()
    .replace(/[\u00c0-\u024f]/g, (letter) => UNMARKED.get(letter) ?? letter)
    .replace(/[\u2018\u2019\u02bc]/g, "'");

/** The stations whose number or name holds the words searched for, in the feed's order. */
function matching(table, query) {
  const words = folded(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return table.stations;
  // Folded once, at the first search (a fifth of a second for 100,000 names).
  table.keys ??= table.stations.map((s) => folded(`${s.station_id} ${nameOf(s)}`));
  return table.stations.filter((_, at) => words.every((word) => table.keys[at].includes(word)));
}

/** The table's first `wanted` matching stations as rows, those already drawn kept as they are. */
function showRows(map, wanted) {
  const table = tables.get(map);
  const rows = new Map();
  const fragment = document.createDocumentFragment();
  for (const station of table.matching.slice(0, wanted)) {
    const id = station.station_id;
    const row = table.rows.get(id) ?? stationRow(station, table.live.get(id), table.feedAt);
    rows.set(id, row);
    fragment.append(row);
  }
  table.rows = rows;
  map.querySelector("tbody").replaceChildren(fragment);
  const total = table.matching.length;
  const searched = table.matching !== table.stations;
  const of = searched
    ? `${count.format(total)} station${total === 1 ? "" : "s"} found`
    : `${count.format(total)} stations`;
  const query = map.querySelector(".find-station").value.trim();
  // No row: no table (its header alone above nothing), only the sentence that says why.
  map.querySelector("table").hidden = searched && total === 0;
  map.querySelector(".rows-shown").textContent =
    searched && total === 0
      ? `No station found for “${query}”: search for a station's number, or words of its name (in any case, with or without accents).`
      : rows.size === total
        ? `${of}, all shown.`
        : `${count.format(rows.size)} of ${of} shown.`;
  const more = map.querySelector(".more");
  const next = Math.min(PAGE_ROWS, total - rows.size);
  // The button leaves when all are shown: its focus goes to the search, not to the page's top.
  if (next === 0 && document.activeElement === more) map.querySelector(".find-station").focus();
  more.hidden = next === 0;
  more.textContent = `Show ${next} more`;
}

/** While a search finds some stations, the map's other marks are dimmed: the found ones stand out. */
function dimUnfound(map, table) {
  const found =
    table.matching === table.stations ? null : new Set(table.matching.map((s) => s.station_id));
  for (const mark of map.querySelectorAll(".mark"))
    mark.classList.toggle("unfound", found !== null && !found.has(mark.dataset.station));
}

function setUpTable(map, stations) {
  const table = { stations, matching: stations, rows: new Map(), live: new Map(), feedAt: 0 };
  tables.set(map, table);
  const find = map.querySelector(".find-station");
  find.value = "";
  find.addEventListener("input", () => {
    table.matching = matching(table, find.value);
    showRows(map, PAGE_ROWS);
    dimUnfound(map, table);
  });
  map.querySelector(".more").addEventListener("click", () => {
    showRows(map, table.rows.size + PAGE_ROWS);
  });
  map.querySelector("tbody").addEventListener("click", (event) => {
    const button = event.target.closest?.("button.to-mark");
    if (button) showOnMap(map, button.closest("tr").dataset.station, button);
  });
  showRows(map, PAGE_ROWS);
}

/**
 * A row's station on the map: the map and the text under it brought into view, its mark focused,
 * which says it under the map and rings it (as a key would), and chosen (as a tap would: the
 * pointer passing over other marks, under a pointer the map just scrolled beneath, leaves it said).
 * The arrow keys go on from there, and Escape goes back to the row's button.
 */
function showOnMap(map, id, button) {
  const mark = map.querySelector(`.mark[data-station="${CSS.escape(id)}"]`);
  if (!mark) return;
  map.querySelector(".map-area").scrollIntoView({ block: "start" });
  // The text under the map says the station: on a window shorter than map and text, scrolled up
  // to it as far as the mark stays in view.
  const hidden = map.querySelector(".map-info").getBoundingClientRect().bottom - window.innerHeight;
  if (hidden > 0) window.scrollBy(0, Math.min(hidden, mark.getBoundingClientRect().top - MAP_PAD));
  mark.focus({ preventScroll: true });
  mark.classList.add("chosen");
  ledFrom.set(map, button);
}

/** What a station's colour says: closed, not reporting for a while, empty, full, few bikes, or fine. */
function stateOf(station, feedAt) {
  if (!station.is_installed || !station.is_renting) return ["closed", "closed or not reporting"];
  const silent = feedAt - Date.parse(station.last_reported);
  if (silent >= STALE_MINUTES * 60_000) return ["stale", `no report for ${duration(silent)}`];
  if (station.num_vehicles_available === 0) return ["empty", "no bike"];
  if (station.num_docks_available === 0) return ["full", "no free stand"];
  if (station.num_vehicles_available <= 2) return ["few", "few bikes"];
  return ["ok", "open"];
}

function showStatus(map, feed) {
  lastStatus.set(map, feed);
  const feedAt = Date.parse(feed.last_updated);
  const byId = new Map(feed.data.stations.map((station) => [station.station_id, station]));
  let bikes = 0;
  let docks = 0;
  // What a rider can use: a closed or disconnected station's bikes cannot be taken (GBFS: see
  // is_renting), nor its stands returned to.
  for (const station of byId.values()) {
    if (station.is_renting) bikes += station.num_vehicles_available;
    if (station.is_returning) docks += station.num_docks_available ?? 0;
  }
  const contract = map.dataset.contract;
  for (const cell of document.querySelectorAll(`td[data-contract="${CSS.escape(contract)}"]`)) {
    cell.textContent = String(cell.dataset.live === "bikes" ? bikes : docks);
  }
  let stale = 0;
  const marks = map.querySelectorAll(".mark");
  for (const mark of marks) {
    const before = marksSaid.get(mark) ?? {
      id: mark.dataset.station,
      label: mark.getAttribute("aria-label"),
      state: "",
      live: "",
    };
    const station = byId.get(before.id);
    const [state, words] = station ? stateOf(station, feedAt) : ["unknown", "no live data"];
    if (state === "stale") stale++;
    const live = station
      ? `${before.label}; ${counted(station.num_vehicles_available, "bike")}, ${counted(station.num_docks_available ?? 0, "free stand")}, ${words}; last report ${localTime(Date.parse(station.last_reported))}`
      : `${before.label}; ${words}`;
    // Only what changed is written (a minute changes a tenth of the stations or so); the classes
    // `far` and `chosen` (the one chosen by a tap stays chosen) are left as they are.
    if (state !== before.state) {
      if (before.state) mark.classList.replace(before.state, state);
      else mark.classList.add(state);
    }
    if (live !== before.live) {
      mark.setAttribute("aria-label", live);
      mark.querySelector("title").textContent = live;
    }
    marksSaid.set(mark, { ...before, state, live });
  }
  const note = map.querySelector(".stale-note");
  note.hidden = stale === 0;
  note.textContent = silentSaid(stale, marks.length);
  // The rows drawn take the new numbers (a cell whose text is the same is left); the others
  // read them when they are drawn.
  const table = tables.get(map);
  if (!table) return;
  table.live = byId;
  table.feedAt = feedAt;
  for (const [id, row] of table.rows) fillLive(row, byId.get(id), feedAt);
}

function describeMarks() {
  for (const map of document.querySelectorAll(".contract-map")) {
    const info = map.querySelector(".map-info");
    const describe = (event) => {
      if (!event.target.classList?.contains("mark")) return;
      if (event.type === "focusin") roveTo(event.target);
      // Come from outside the map (Tab, the table, another control): no row to go back to with
      // Escape (a row's button sets it again after its focus).
      const fromMap = event.target.ownerSVGElement?.contains(event.relatedTarget);
      if (event.type === "focusin" && !fromMap) ledFrom.delete(map);
      // A mark chosen by a click or a tap stays said while the pointer passes over others, on
      // its way elsewhere; the keyboard's focus moves the choice.
      if (event.type === "pointerover" && map.querySelector(".chosen")) return;
      unchoose(map);
      info.textContent = event.target.getAttribute("aria-label");
      ringAround(event.target);
    };
    map.addEventListener("focusin", describe);
    map.addEventListener("pointerover", describe);
    map.addEventListener("keydown", moveBetweenMarks);
    map.addEventListener("click", (event) => {
      const svg = event.target.closest?.("svg.map");
      const mark = svg && nearestMark(svg, event.clientX, event.clientY);
      if (!mark) return;
      unchoose(map);
      mark.classList.add("chosen");
      info.textContent = mark.getAttribute("aria-label");
      ringAround(mark);
    });
  }
}

/**
 * A ring over the mark said under the map, painted over every other: where 2,000 marks crowd, the
 * mark itself may lie under its neighbours. The ring stays where the text does.
 */
function ringAround(mark) {
  const svg = mark.ownerSVGElement;
  let ring = svg.querySelector(".ring");
  if (!ring) {
    ring = document.createElementNS(SVG, "circle");
    ring.setAttribute("class", "ring");
    ring.setAttribute("r", "10");
    ring.setAttribute("aria-hidden", "true");
    svg.append(ring); // last: marks are drawn once, before it
  }
  ring.setAttribute("cx", mark.getAttribute("cx"));
  ring.setAttribute("cy", mark.getAttribute("cy"));
}

/** Lets go of the mark a tap chose in this map, if any. */
function unchoose(map) {
  for (const chosen of map.querySelectorAll(".chosen")) chosen.classList.remove("chosen");
}

/** The mark whose centre is nearest to a point of the screen, if within REACH_PX of it. */
function nearestMark(svg, clientX, clientY) {
  const toScreen = svg.getScreenCTM();
  if (!toScreen) return null;
  let nearest = null;
  let best = REACH_PX * REACH_PX;
  for (const mark of svg.querySelectorAll(".mark")) {
    const cx = Number(mark.getAttribute("cx"));
    const cy = Number(mark.getAttribute("cy"));
    const dx = toScreen.a * cx + toScreen.c * cy + toScreen.e - clientX;
    const dy = toScreen.b * cx + toScreen.d * cy + toScreen.f - clientY;
    const distance = dx * dx + dy * dy;
    if (distance <= best) {
      best = distance;
      nearest = mark;
    }
  }
  return nearest;
}

// The arrow keys' directions on the map (SVG's y grows downwards).
const MARK_DIRECTIONS = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

/**
 * The mark an arrow key leads to from `from`: the nearest of those ahead within 45° of the
 * arrow's direction, else the nearest ahead at all; `from` itself at the map's edge.
 */
function markToward(marks, from, [ux, uy]) {
  const x = Number(from.getAttribute("cx"));
  const y = Number(from.getAttribute("cy"));
  let best = from;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const mark of marks) {
    const dx = Number(mark.getAttribute("cx")) - x;
    const dy = Number(mark.getAttribute("cy")) - y;
    const ahead = dx * ux + dy * uy;
    if (mark === from || ahead <= 0) continue;
    const aside = Math.abs(dx * uy - dy * ux);
    // Outside the cone, a mark counts only after every one within it.
    const score = (aside <= ahead ? 0 : 1e12) + dx * dx + dy * dy;
    if (score < bestScore) {
      bestScore = score;
      best = mark;
    }
  }
  return best;
}

/**
 * Arrow keys on a mark: focus the nearest mark that way (a roving tab stop); Home and End, the
 * first and last station; Escape, the table's button that led to the map, if one did.
 */
function moveBetweenMarks(event) {
  const from = event.target;
  if (!from.classList?.contains("mark")) return;
  const back = ledFrom.get(event.currentTarget);
  if (event.key === "Escape" && back?.isConnected) {
    event.preventDefault();
    back.scrollIntoView({ block: "center" });
    back.focus({ preventScroll: true });
    return;
  }
  // While a search dims the marks it did not find, the keys go over those it found.
  const all = [...from.parentNode.querySelectorAll(".mark")];
  const found = all.filter((mark) => !mark.classList.contains("unfound"));
  const marks = found.length > 0 ? found : all;
  const direction = MARK_DIRECTIONS[event.key];
  const to =
    event.key === "Home"
      ? marks[0]
      : event.key === "End"
        ? marks.at(-1)
        : direction
          ? markToward(marks, from, direction)
          : null;
  if (!to) return;
  event.preventDefault();
  to.focus(); // its focusin makes it the map's tab stop
}

/** The focused mark becomes the map's one tab stop, however it was focused (a key, a click). */
function roveTo(mark) {
  const stop = mark.parentNode.querySelector('.mark[tabindex="0"]');
  if (stop === mark) return;
  stop?.setAttribute("tabindex", "-1");
  mark.setAttribute("tabindex", "0");
}

// Live numbers are read only where someone can see them: the contracts whose totals row is on
// (or near) the screen, and the contract whose map is shown, and not while the page is hidden. A
// network of 500 contracts would otherwise cost every open page 500 feeds a minute.
const rowsOnScreen = new Set();
// When each contract's feed was last asked for (ms), so a row scrolled back into view is read
// again only once its feed may have changed.
const askedAt = new Map();
// What each contract's live feed last said of its stations' reports (`reportsOf`), for the footer.
const reports = new Map();
let ttlSeconds = 60;
let timer;
let roundDue = Number.POSITIVE_INFINITY;

const liveMaps = () =>
  [...document.querySelectorAll(".contract-map")].filter((map) => map.dataset.status);

const wanted = (map) => !map.hidden || rowsOnScreen.has(map.dataset.contract);

/** Asked for longer ago than this share of the feed's ttl (never asked: stale). */
const stale = (map, share = 1) =>
  Date.now() - (askedAt.get(map.dataset.contract) ?? Number.NEGATIVE_INFINITY) >=
  share * ttlSeconds * 1000;

/** Reads these contracts' station_status feeds and shows them; says how many could not be read. */
async function readStatus(maps) {
  if (maps.length === 0) return;
  for (const map of maps) askedAt.set(map.dataset.contract, Date.now());
  const results = await Promise.allSettled(
    maps.map(async (map) => {
      const response = await fetch(map.dataset.status, { cache: "no-cache" });
      if (!response.ok) throw new Error(`${map.dataset.status}: ${response.status}`);
      const feed = await response.json();
      showStatus(map, feed);
      reports.set(map.dataset.contract, reportsOf(feed));
      ttlSeconds = Math.max(REFRESH_FLOOR_SECONDS, feed.ttl ?? ttlSeconds);
    }),
  );
  // The first round was timed before any feed said its ttl: a shorter one is kept from now on.
  if (ttlSeconds * 1000 < roundDue - Date.now()) scheduleRound();
  const failed = results.filter((r) => r.status === "rejected").length;
  const note = document.getElementById("live-note");
  if (note) {
    note.textContent = failed
      ? `Live data could not be read for ${failed} of ${maps.length} contracts.`
      : "Live totals from each contract's GBFS station_status feed, read while it is on screen: the bikes a rider can take and the stands a rider can return to (a closed or disconnected station's left out).";
  }
  sayLiveData();
}

/** When a contract's feed is from, its stations' newest report, and how many are stale. */
function reportsOf(feed) {
  const at = Date.parse(feed.last_updated);
  let newest = Number.NEGATIVE_INFINITY;
  let stale = 0;
  for (const station of feed.data.stations) {
    newest = Math.max(newest, Date.parse(station.last_reported));
    if (stateOf(station, at)[0] === "stale") stale++;
  }
  return { at, newest, stale, stations: feed.data.stations.length };
}

/**
 * Not one station of the contract reported for STALE_MINUTES before its feed's time: the feed is
 * written on, from reports that stopped coming (the exporter's source stalled, or its network).
 */
const stalled = (read) => read.stations > 0 && read.at - read.newest >= STALE_MINUTES * 60_000;

const sum = (reads, what) => reads.reduce((total, read) => total + read[what], 0);
const andList = new Intl.ListFormat("en", { type: "conjunction" });

/**
 * `Live data: no station of A and B has reported since …`: the contracts stalled, since when no
 * station of theirs has reported (a feed written a minute ago from reports of last night is no
 * fresh data), named when others are on screen too.
 */
function stalledSaid(silent, othersShown) {
  const since = localTime(Math.max(...silent.map((read) => read.newest)));
  const times = silent.map((read) => read.at);
  const feeds =
    silent.length === 1
      ? `feed of ${localTime(times[0])}`
      : `feeds of ${localTime(Math.min(...times))}${new Set(times).size > 1 ? " or later" : ""}`;
  const [whose, theirs] = othersShown
    ? [
        ` of ${andList.format(silent.map((read) => read.name))}`,
        silent.length === 1 ? "for it are its" : "for them are their",
      ]
    : ["", "are the"];
  return `Live data: no station${whose} has reported since ${since} (${feeds}): the numbers shown ${theirs} stations' last known.`;
}

/**
 * The footer's word on the live data on screen, true however old it is: first the contracts that
 * have stalled, then the others' time, the oldest of their feeds (one late feed is not hidden
 * behind a fresh one), and how many of their stations are silent, as each map's note says.
 */
function sayLiveData() {
  const shown = liveMaps()
    .filter(wanted)
    .flatMap((map) => {
      const read = reports.get(map.dataset.contract);
      return read ? [{ ...read, name: map.querySelector("h3 bdi").textContent }] : [];
    });
  if (shown.length === 0) return;
  const silent = shown.filter(stalled);
  const live = shown.filter((read) => !stalled(read));
  const said = silent.length > 0 ? [stalledSaid(silent, live.length > 0)] : [];
  if (live.length > 0) {
    const at = localTime(Math.min(...live.map((read) => read.at)));
    said.push(
      silent.length > 0 ? `The other contracts' live data as of ${at}.` : `Live data as of ${at}.`,
    );
    const stale = sum(live, "stale");
    if (stale > 0)
      said.push(silentSaid(stale, sum(live, "stations"), silent.length > 0 ? "their " : ""));
  }
  const footer = document.getElementById("live-data");
  footer.textContent = said.join(" ");
  footer.dataset.at = new Date(Math.min(...shown.map((read) => read.at))).toISOString();
  footer.hidden = false;
}

/** What is on screen and may have changed, read now. */
const readStale = () => readStatus(liveMaps().filter((map) => wanted(map) && stale(map)));

/** Every feed's ttl, the feeds on screen read again; nothing while the page is hidden. */
async function refreshLive() {
  clearTimeout(timer);
  if (document.hidden) return; // taken up again when the page is shown
  // A row scrolled into view moments ago was just read: it waits for the next round.
  await readStatus(liveMaps().filter((map) => wanted(map) && stale(map, 0.5)));
  scheduleRound();
}

function scheduleRound() {
  clearTimeout(timer);
  roundDue = Date.now() + ttlSeconds * 1000;
  timer = setTimeout(refreshLive, ttlSeconds * 1000);
}

function watchRows() {
  const rows = [...document.querySelectorAll("#contracts tbody tr")];
  const contractOf = (row) => row.querySelector("td[data-contract]")?.dataset.contract;
  if (!("IntersectionObserver" in window)) {
    for (const row of rows) rowsOnScreen.add(contractOf(row));
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const contract = contractOf(entry.target);
        if (entry.isIntersecting) rowsOnScreen.add(contract);
        else rowsOnScreen.delete(contract);
      }
      if (!document.hidden) readStale();
    },
    { rootMargin: "200px 0px" },
  );
  for (const row of rows) observer.observe(row);
}

document.addEventListener("DOMContentLoaded", () => {
  // What works only with this script (the contract choice, the legend) is shown by it; the live
  // data's word in the footer, once it has read some.
  for (const part of document.querySelectorAll("[data-script]")) part.hidden = false;
  showLocalTimes();
  showRequests();
  watchRows();
  chooseContract();
  describeMarks();
  refreshLive();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshLive();
  });
});
