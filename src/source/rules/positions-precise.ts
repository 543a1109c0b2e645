// A contract's positions all rounded: a spreadsheet exports its numbers as its cells show them
// (LibreOffice's "Save cell content as shown", on by default; Excel's CSV), so a coordinate column
// formatted to 2 decimals publishes every station up to half a kilometre from where it stands.
import { counted } from "../../plural.js";
import { type Problem, type Sourced, warning } from "../problems.js";
import { contractKey, placed } from "./records.js";

type Positioned = Sourced<{ contract: string; latitude: number; longitude: number }>;

/** At most this many decimals (0.001°, ~56 m either way) is no surveyed position but a rounded one. */
const ROUNDED_DECIMALS = 3;

/** Metres in a degree of latitude (the WGS84 mean). */
const METRES_A_DEGREE = 111_195;

/** Fewer records of a contract than this may all be short by chance, or written so by hand. */
const FEWEST_RECORDS = 3;

/**
 * One warning per contract whose records in a CSV file (its stations, or its parkings: `kind`),
 * 3 or more, all have both coordinates written with 3 decimals or fewer, at the first of them. A
 * whole contract, not a record: one position with few decimals may be exact, every one of them is
 * a column rounded. A JSON file is a program's, which writes its numbers whole.
 */
export function positionsPrecise(kind: string, records: readonly Positioned[]): Problem[] {
  const byContract = new Map<string, { first: Positioned; count: number; decimals: number }>();
  const precise = new Set<string>();
  for (const record of records) {
    const { latitude, longitude } = record.value;
    if (record.at.line === undefined) continue; // not a CSV's
    if (!placed(latitude, longitude)) continue; // said by coordinatesInRange
    const key = contractKey(record.value.contract);
    const written = Math.max(decimalsOf(latitude), decimalsOf(longitude));
    if (written > ROUNDED_DECIMALS) precise.add(key);
    if (precise.has(key)) continue;
    const seen = byContract.get(key);
    if (seen) {
      seen.count++;
      seen.decimals = Math.max(seen.decimals, written);
    } else byContract.set(key, { first: record, count: 1, decimals: written });
  }
  const problems: Problem[] = [];
  for (const [key, { first, count, decimals }] of byContract) {
    if (precise.has(key) || count < FEWEST_RECORDS) continue;
    const { contract, latitude, longitude } = first.value;
    problems.push(
      warning(
        first.at,
        "latitude",
        `${latitude}, ${longitude}: the ${counted(count, kind)} of contract "${contract}" are all placed with ${counted(decimals, "decimal")} or fewer, to within about ${distance(decimals)}: a spreadsheet exporting its numbers as shown, rounded? export the coordinates in full`,
      ),
    );
  }
  return problems;
}

/** Decimals of a number as JavaScript writes it shortest (45.69 → 2); exponents count as many. */
function decimalsOf(degrees: number): number {
  const text = String(degrees);
  if (text.includes("e")) return Number.POSITIVE_INFINITY;
  const point = text.indexOf(".");
  return point === -1 ? 0 : text.length - point - 1;
}

/** How far from the written position the true one may be: half the last decimal, in latitude. */
function distance(decimals: number): string {
  const metres = (0.5 * METRES_A_DEGREE) / 10 ** decimals;
  return metres < 1000 ? `${Math.round(metres)} m` : `${Math.round(metres / 100) / 10} km`;
}
