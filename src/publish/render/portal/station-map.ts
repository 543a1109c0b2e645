// A contract's stations as an SVG map: projected from their coordinates, no tile server, one focusable mark each.
import { type Html, html } from "./html.js";
import type { PortalContract, PortalStation } from "./portal-input.js";

const WIDTH = 640;
const MAX_HEIGHT = 520;
const MIN_HEIGHT = 200;
const PAD = 14;

interface Point {
  x: number;
  y: number;
}

/**
 * Equirectangular projection scaled by the cosine of the middle latitude: at a city's scale it
 * keeps distances and angles close to true, which is all a station map needs.
 */
export function project(stations: readonly PortalStation[]): { points: Point[]; height: number } {
  if (stations.length === 0) return { points: [], height: MIN_HEIGHT };
  // A loop, not Math.min(...list): a spread of a million arguments overflows the stack.
  let [latMin, latMax, lonMin, lonMax] = [90, -90, 180, -180];
  for (const { latitude, longitude } of stations) {
    latMin = Math.min(latMin, latitude);
    latMax = Math.max(latMax, latitude);
    lonMin = Math.min(lonMin, longitude);
    lonMax = Math.max(lonMax, longitude);
  }
  const squeeze = Math.cos((((latMin + latMax) / 2) * Math.PI) / 180);
  const spanX = (lonMax - lonMin) * squeeze;
  const spanY = latMax - latMin;
  const inner = WIDTH - 2 * PAD;
  // One station (or all at one place) has no extent: put it in the middle.
  const scale = Math.min(
    spanX > 0 ? inner / spanX : Number.POSITIVE_INFINITY,
    spanY > 0 ? (MAX_HEIGHT - 2 * PAD) / spanY : Number.POSITIVE_INFINITY,
  );
  const finite = Number.isFinite(scale) ? scale : 0;
  const height = Math.max(MIN_HEIGHT, Math.round(spanY * finite + 2 * PAD));
  const offsetX = (WIDTH - spanX * finite) / 2;
  const offsetY = (height - spanY * finite) / 2;
  const round = (value: number) => Math.round(value * 10) / 10;
  const points = stations.map((s) => ({
    x: round(offsetX + (s.longitude - lonMin) * squeeze * finite),
    y: round(offsetY + (latMax - s.latitude) * finite),
  }));
  return { points, height };
}

export function stationMap(contract: PortalContract): Html {
  const { points, height } = project(contract.stations);
  const marks = contract.stations.map((station, index) => {
    const point = points[index] as Point;
    const label = `Station ${station.number}, ${station.name}: ${station.capacity} stands`;
    return html`<circle class="mark" cx="${point.x}" cy="${point.y}" r="6" tabindex="0" role="img" data-station="${station.id}" aria-label="${label}"><title>${label}</title></circle>`;
  });
  return html`<svg class="map" viewBox="0 0 ${WIDTH} ${height}" role="group" aria-label="Map of the ${contract.stations.length} stations of ${contract.commercialName}; each mark is coloured by its bikes and free stands">${marks}</svg>`;
}
