// The portal page's sections, each a function of the portal's input.
import { mailtoAddress, operatorsWords } from "../../../model/portal.js";
import { nounFor } from "../../../plural.js";
import { type Html, html } from "./html.js";
import type {
  PortalContract,
  PortalDownload,
  PortalEndpoint,
  PortalInput,
  PortalLicense,
} from "./portal-input.js";

/** Links from the page at the root of the tree are relative, so the tree works under any prefix. */
export const local = (path: string): string => path.replace(/^\/+/, "");

const liveCell = (contract: string, what: string) =>
  html`<td class="num" data-live="${what}" data-contract="${contract}">–</td>`;

function license(value: PortalLicense | null): Html | string {
  if (!value) return "not stated";
  const name = value.id ?? value.url ?? "";
  return value.url ? html`<a href="${value.url}">${name}</a>` : name;
}

/**
 * Whom to credit, after the licence: the page showed `ODbL-1.0` with no name, though the licence
 * asks every reuse to name its licensor, and people read the page, not the data package.
 */
function credit(operator: PortalContract["operator"]): Html | string {
  if (!operator) return "";
  const name = operator.url ? html`<a href="${operator.url}">${operator.name}</a>` : operator.name;
  return html`, credit: <bdi>${name}</bdi>`;
}

export function contractsSection(input: PortalInput): Html {
  const rows = input.contracts.map(
    (c) => html`<tr>
<th scope="row"><a href="#map" data-map="${c.name}">${c.commercialName}</a> <code>${c.name}</code></th>
<td class="wide">${c.cities.join(", ")} (${c.countryCode})</td>
<td class="num">${c.stationCount.toLocaleString("en")}</td>
${liveCell(c.name, "bikes")}${liveCell(c.name, "docks")}
<td class="wide">${c.languages.join(", ") || "–"}</td>
<td>${license(c.license)}${credit(c.operator)}</td>
</tr>`,
  );
  return html`<section id="contracts" aria-labelledby="contracts-title">
<h2 id="contracts-title">Contracts</h2>
<div class="scroll"><table>
<thead><tr><th scope="col">Contract</th><th scope="col" class="wide">Cities</th><th scope="col" class="num">Stations</th><th scope="col" class="num">Bikes available</th><th scope="col" class="num">Free stands</th><th scope="col" class="wide">Languages</th><th scope="col">Licence</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
<p class="note" id="live-note">Live totals need the deployment's GBFS station_status feeds and JavaScript.</p>
</section>`;
}

/**
 * A contract's place for its map and its table of stations, both drawn by the page's script from
 * the contract's GBFS station_information: the page does not grow with the stations. The table
 * shows a page of rows at a time; finding a station searches them all.
 */
function contractMap(contract: PortalContract, index: number): Html {
  const feeds = contract.gbfs;
  const info = feeds
    ? "The map and the table of stations are drawn by the page's script from this contract's GBFS station_information feed; the same stations are in the downloads below."
    : "This deployment publishes no GBFS feeds to draw the map from; the stations are in the downloads below.";
  return html`<div class="contract-map" data-contract="${contract.name}" data-information="${feeds ? local(feeds.stationInformation) : null}" data-status="${feeds ? local(feeds.stationStatus) : null}"${index === 0 ? "" : html` hidden`}>
<h3><bdi>${contract.commercialName}</bdi> <span class="count">${contract.stationCount.toLocaleString("en")} ${nounFor(contract.stationCount, "station")}</span></h3>
<div class="map-area"></div>
<p class="map-info" aria-live="polite">${info}</p>
<p class="stale-note" hidden></p>
<details hidden><summary>The stations of <bdi>${contract.commercialName}</bdi> as a table</summary>
<p class="find"><label for="find-station-${index}">Find a station (number or name)</label> <input type="search" id="find-station-${index}" class="find-station" autocomplete="off"></p>
<div class="scroll"><table>
<thead><tr><th scope="col" class="num">Number</th><th scope="col">Name</th><th scope="col" class="num wide">Stands</th><th scope="col" class="num">Bikes</th><th scope="col" class="num">Free stands</th><th scope="col">State</th></tr></thead>
<tbody></tbody></table></div>
<p class="table-more"><span class="rows-shown" aria-live="polite"></span> <button type="button" class="more" hidden></button></p>
</details>
</div>`;
}

export function mapSection(input: PortalInput): Html {
  const options = input.contracts.map(
    (c) => html`<option value="${c.name}">${c.commercialName} (${c.cities.join(", ")})</option>`,
  );
  return html`<section id="map" aria-labelledby="map-title">
<h2 id="map-title">Stations map</h2>
<noscript><p>The maps, the tables of stations and the live numbers are drawn by the page's script, which this browser does not run; the contracts, the API, the downloads and the feeds are all on the page without it.</p></noscript>
<p data-script hidden><label for="contract-choice">Contract</label> <select id="contract-choice">${options}</select></p>
<ul class="legend" aria-label="Legend" data-script hidden>
<li><span class="swatch ok"></span>bikes and free stands</li>
<li><span class="swatch few"></span>few bikes (1 or 2)</li>
<li><span class="swatch empty"></span>no bike</li>
<li><span class="swatch full"></span>no free stand</li>
<li><span class="swatch closed"></span>closed or not reporting</li>
<li><span class="swatch stale"></span>no report for 15 minutes or more</li>
<li><span class="swatch unknown"></span>no live data</li>
</ul>
${input.contracts.map(contractMap)}
</section>`;
}

/** An endpoint and its request: whole with the public base URL when known (no script needed to copy it). */
function endpointItem(endpoint: PortalEndpoint, base: string): Html {
  return html`<li>
<h4>${endpoint.title}${endpoint.keyed ? "" : html` <span class="badge">no key</span>`}</h4>
<p>${endpoint.description}</p>
<div class="request"><code data-request="${endpoint.request}">${base}${endpoint.request}</code><button type="button" class="copy" hidden>Copy</button></div>
<p class="copy-said" role="status"></p>
</li>`;
}

/**
 * ` lang="fr"` on an element holding `text`, when it is the operator's words (not a default
 * velodata filled in) and they are not in the page's English.
 */
export function inLanguage(input: PortalInput, text: string): Html {
  const language = languageOf(input, text);
  return language ? html` lang="${language}"` : html``;
}

/** The language of `text` where it is not the page's English: the operator's words in theirs. */
const languageOf = (input: PortalInput, text: string): string | null =>
  input.language && operatorsWords(text) ? input.language : null;

/** The link after the operator's words: an address to write to is shown, to copy where no mail program opens. */
function askForKey(url: string): Html {
  const address = mailtoAddress(url);
  if (address === null) return html` <a href="${url}">Ask for a key</a>.`;
  return html` Ask for a key: <a href="${url}">${address}</a>.`;
}

export function apiSection(input: PortalInput): Html {
  const ask = input.keys.url ? askForKey(input.keys.url) : "";
  // The operator's words, then the page's own ("Ask for a key"), in English.
  const language = languageOf(input, input.keys.text);
  const keysText = language
    ? html`<span lang="${language}">${input.keys.text}</span>`
    : input.keys.text;
  const base = input.baseUrl ?? "";
  return html`<section id="api" aria-labelledby="api-title">
<h2 id="api-title">API</h2>
<p>Every request is a GET answered with JSON in UTF-8. Replace <code>&lt;API_KEY&gt;</code> with your key.</p>
<h3>Getting a key</h3>
<p class="keys">${keysText}${ask}</p>
<h3>Endpoints</h3>
<ul class="endpoints" data-base="${base}">${input.endpoints.map((endpoint) => endpointItem(endpoint, base))}</ul>
</section>`;
}

/** A file's size, its number and unit kept on one line. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes}\u00a0B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}\u00a0KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)}\u00a0MiB`;
}

function downloadRow(download: PortalDownload): Html {
  const licenses = download.mixed
    ? "differs by contract (see the contracts above)"
    : download.licenses.length
      ? download.licenses.map((l, i) => html`${i ? ", " : ""}${license(l)}`)
      : "not stated";
  return html`<tr><td><a href="${local(download.path)}" aria-label="${download.title} (${download.format})">${download.title}</a></td><td>${download.format}</td><td class="num">${size(download.bytes)}</td><td>${licenses}</td></tr>`;
}

export function downloadsSection(input: PortalInput): Html {
  return html`<section id="downloads" aria-labelledby="downloads-title">
<h2 id="downloads-title">Downloads <span class="badge">no key</span></h2>
<div class="scroll"><table>
<thead><tr><th scope="col">File</th><th scope="col">Format</th><th scope="col" class="num">Size</th><th scope="col">Licence</th></tr></thead>
<tbody>${input.downloads.map(downloadRow)}</tbody>
</table></div>
</section>`;
}

export function feedsSection(input: PortalInput): Html {
  const systems = input.contracts.filter((c) => c.gbfs);
  const gbfs = systems.length
    ? html`<ul>${input.gbfsManifest ? html`<li><a href="${local(input.gbfsManifest)}">GBFS manifest</a> (every system)</li>` : ""}${systems.map(
        (c) =>
          // Named whole for a screen reader's list of links, where "v3.0" five times says nothing.
          html`<li>${c.commercialName}: <a href="${local(c.gbfs?.discoveryV3 ?? "")}" aria-label="${c.commercialName}, GBFS v3.0">v3.0</a>, <a href="${local(c.gbfs?.discovery ?? "")}" aria-label="${c.commercialName}, GBFS v2.3">v2.3</a></li>`,
      )}</ul>`
    : html`<p>This deployment publishes no GBFS feeds.</p>`;
  return html`<section id="feeds" aria-labelledby="feeds-title">
<h2 id="feeds-title">GBFS feeds <span class="badge">no key</span></h2>
${gbfs}
</section>`;
}

export function referenceSection(input: PortalInput): Html {
  const openapi = input.openapi
    ? html`<p><a href="docs/">Browse the API reference</a> or get the <a href="${local(input.openapi)}">OpenAPI document</a>.</p>`
    : html`<p>This deployment publishes no OpenAPI document.</p>`;
  return html`<section id="reference" aria-labelledby="reference-title">
<h2 id="reference-title">API reference</h2>
${openapi}
</section>`;
}
