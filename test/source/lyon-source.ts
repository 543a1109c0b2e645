// A small static source (one contract, Lyon, with stations numbered 1..count) written to a folder,
// and a valid state of one of its stations: what the states-reading tests read against.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDir } from "../helpers.js";

const contracts = JSON.stringify({
  contracts: [
    {
      name: "lyon",
      commercial_name: "Vélo'v",
      country_code: "FR",
      cities: ["Lyon"],
      bikeTypes: { mechanical: {} },
    },
  ],
});

/** A contract of Lyon's with every field GBFS needs: one that raises no problem of its own. */
export const lyonContract = (name: unknown = "lyon", country_code = "FR") => ({
  name,
  commercial_name: "Vélo'v",
  country_code,
  cities: ["Lyon"],
  timezone: "Europe/Paris",
  languages: ["fr"],
  feed_contact_email: "gbfs@example.org",
  opening_hours: "24/7",
  bikeTypes: { mechanical: {} },
  operator: { name: "JCDecaux" },
  license: { id: "ODbL-1.0" },
});

/** A valid station record of Lyon's, as a source's stations.json holds it. */
export function lyonStation(number: number, name = `S${number}`, address = "") {
  return {
    contract: "lyon",
    number,
    name,
    address,
    latitude: 45.76,
    longitude: 4.86,
    banking: false,
    bonus: false,
    overflow: false,
    capacity: 10,
    overflowCapacity: null,
  };
}

function stations(count: number): string {
  return JSON.stringify({
    stations: Array.from({ length: count }, (_, at) => lyonStation(at + 1)),
  });
}

/** A new folder `source` holding the contract and `count` stations. */
export async function lyonSource(count: number): Promise<string> {
  const dir = join(await tempDir(), "source");
  await mkdir(dir);
  await writeFile(join(dir, "contracts.json"), contracts);
  await writeFile(join(dir, "stations.json"), stations(count));
  return dir;
}

/** A valid state of Lyon's station `number`: 3 stands free, `bikes` mechanical bikes. */
export const lyonState = (number: number, bikes = 2): Record<string, unknown> => ({
  contract: "lyon",
  number,
  status: "OPEN",
  connected: true,
  lastUpdate: "2026-11-20T08:16:00Z",
  mainStands: {
    stands: 3,
    mechanicalBikes: bikes,
    electricalInternalBatteryBikes: 0,
    electricalRemovableBatteryBikes: 0,
  },
});

/** A parking of Lyon's, as its JSON record. */
export const lyonParking = (number: number) => ({
  contract: "lyon",
  number,
  name: `P${number}`,
  status: "OPEN",
  latitude: 45.76,
  longitude: 4.86,
  accessType: "FREE_ACCESS",
  lockerType: "SINGLE",
  hasSurveillance: false,
  isFree: true,
  address: "",
  zipCode: "69003",
  city: "Lyon",
  isOffStreet: true,
  hasElectricSupport: false,
  hasPhysicalReception: false,
});
