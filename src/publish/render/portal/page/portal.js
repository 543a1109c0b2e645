// The portal page's live parts: full request URLs, copy buttons, the contract chooser, and the
// map and totals coloured from each contract's GBFS v3.0 station_status feed.

const REFRESH_FLOOR_SECONDS = 30;

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
    if (!button || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      await navigator.clipboard.writeText(code.textContent);
      button.textContent = "Copied";
    });
  }
}

function chooseContract() {
  const select = document.getElementById("contract-choice");
  if (!select) return;
  const show = () => {
    for (const map of document.querySelectorAll(".contract-map")) {
      map.hidden = map.dataset.contract !== select.value;
    }
  };
  select.addEventListener("change", show);
  show();
}

/** What a station's colour says: closed, empty, full, few bikes, or fine. */
function stateOf(station) {
  if (!station.is_installed || !station.is_renting) return ["closed", "closed or not reporting"];
  if (station.num_vehicles_available === 0) return ["empty", "no bike"];
  if (station.num_docks_available === 0) return ["full", "no free stand"];
  if (station.num_vehicles_available <= 2) return ["few", "few bikes"];
  return ["ok", "open"];
}

function showStatus(map, feed) {
  const byId = new Map(feed.data.stations.map((station) => [station.station_id, station]));
  let bikes = 0;
  let docks = 0;
  for (const station of byId.values()) {
    bikes += station.num_vehicles_available;
    docks += station.num_docks_available ?? 0;
  }
  const contract = map.dataset.contract;
  for (const cell of document.querySelectorAll(`td[data-contract="${CSS.escape(contract)}"]`)) {
    cell.textContent = String(cell.dataset.live === "bikes" ? bikes : docks);
  }
  for (const mark of map.querySelectorAll(".mark")) {
    const station = byId.get(mark.dataset.station);
    const [state, words] = station ? stateOf(station) : ["unknown", "no live data"];
    mark.setAttribute("class", `mark ${state}`);
    const label = mark.dataset.label ?? mark.getAttribute("aria-label");
    mark.dataset.label = label;
    const live = station
      ? `${label}; ${station.num_vehicles_available} bikes, ${station.num_docks_available ?? 0} free stands, ${words}`
      : `${label}; ${words}`;
    mark.setAttribute("aria-label", live);
    mark.querySelector("title").textContent = live;
  }
  for (const row of map.querySelectorAll("tr[data-station]")) {
    const station = byId.get(row.dataset.station);
    if (!station) continue;
    row.querySelector('[data-live="bikes"]').textContent = String(station.num_vehicles_available);
    row.querySelector('[data-live="docks"]').textContent = String(station.num_docks_available ?? 0);
    row.querySelector('[data-live="state"]').textContent = stateOf(station)[1];
  }
}

function describeMarks() {
  for (const map of document.querySelectorAll(".contract-map")) {
    const info = map.querySelector(".map-info");
    const describe = (event) => {
      if (event.target.classList?.contains("mark")) {
        info.textContent = event.target.getAttribute("aria-label");
      }
    };
    map.addEventListener("focusin", describe);
    map.addEventListener("pointerover", describe);
  }
}

async function refreshLive() {
  const maps = [...document.querySelectorAll(".contract-map")].filter((m) => m.dataset.status);
  if (maps.length === 0) return;
  let latest = 0;
  let ttl = 60;
  const results = await Promise.allSettled(
    maps.map(async (map) => {
      const response = await fetch(map.dataset.status, { cache: "no-cache" });
      if (!response.ok) throw new Error(`${map.dataset.status}: ${response.status}`);
      const feed = await response.json();
      showStatus(map, feed);
      latest = Math.max(latest, Date.parse(feed.last_updated));
      ttl = Math.min(ttl, feed.ttl ?? ttl);
    }),
  );
  const failed = results.filter((r) => r.status === "rejected").length;
  const note = document.getElementById("live-note");
  if (note) {
    note.textContent = failed
      ? `Live data could not be read for ${failed} of ${maps.length} contracts.`
      : "Live totals from each contract's GBFS station_status feed.";
  }
  if (latest > 0) {
    const refreshed = document.getElementById("refreshed");
    refreshed.textContent = new Date(latest).toLocaleString();
    refreshed.dataset.at = new Date(latest).toISOString();
  }
  setTimeout(refreshLive, Math.max(REFRESH_FLOOR_SECONDS, ttl) * 1000);
}

document.addEventListener("DOMContentLoaded", () => {
  showRequests();
  chooseContract();
  describeMarks();
  refreshLive();
});
