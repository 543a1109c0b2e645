// A seeded synthetic network: contracts, stations (some with overflow stands) and parkings, as a source folder holds them.
import type { Contract } from "../model/contract.js";
import type { Parking } from "../model/parking.js";
import type { Station } from "../model/station.js";
import type { Random } from "../serve/simulator.js";
import { CITIES, LANDMARKS, STREET_KINDS, STREET_NAMES } from "./places.js";

export interface Network {
  contracts: Contract[];
  stations: Station[];
  parkings: Parking[];
}

// Shares seen in real networks: a few stations take overflow returns, some contracts run parkings.
const OVERFLOW_SHARE = 0.05;
const PARKING_CONTRACT_EVERY = 4;
const PARKINGS_PER_STATIONS = 1 / 100;
// Stations lie within about this many degrees (~6 km) of their city's centre.
const SPREAD = 0.06;

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

function street(random: Random): string {
  return `${pick(random, STREET_KINDS)} ${pick(random, STREET_NAMES)}`;
}

// What GBFS needs of a contract, per country of the cities list.
const COUNTRY: Record<string, { timezone: string; language: string }> = {
  AT: { timezone: "Europe/Vienna", language: "de" },
  BE: { timezone: "Europe/Brussels", language: "fr" },
  CZ: { timezone: "Europe/Prague", language: "cs" },
  DE: { timezone: "Europe/Berlin", language: "de" },
  ES: { timezone: "Europe/Madrid", language: "es" },
  FR: { timezone: "Europe/Paris", language: "fr" },
  IE: { timezone: "Europe/Dublin", language: "en" },
  LT: { timezone: "Europe/Vilnius", language: "lt" },
  PT: { timezone: "Europe/Lisbon", language: "pt" },
  SE: { timezone: "Europe/Stockholm", language: "sv" },
  SI: { timezone: "Europe/Ljubljana", language: "sl" },
};

function contractAt(index: number): Contract {
  const [name, city, country] = CITIES[index % CITIES.length] as (typeof CITIES)[number];
  // Past the list, cities come back with a number: names stay unique and URL-safe.
  const round = Math.floor(index / CITIES.length);
  const suffix = round === 0 ? "" : `-${round + 1}`;
  return {
    name: `${name}${suffix}`,
    commercial_name: `Vélo ${city}${suffix}`,
    country_code: country,
    cities: [city],
    parkingApi: index % PARKING_CONTRACT_EVERY === 0,
    timezone: COUNTRY[country]?.timezone ?? "Europe/Paris",
    languages: [COUNTRY[country]?.language ?? "en"],
    feed_contact_email: "gbfs@example.org",
    opening_hours: "24/7",
    // Stated, as an operator should: GBFS 3.0 reads a feed without one as public domain. ODbL
    // asks reusers to credit the licensor: the operator, one for every city as one company runs many.
    operator: { name: "Example Bike Share", url: "https://example.org" },
    license: { id: "ODbL-1.0" },
    // The states generator deals bikes of all three kinds.
    bikeTypes: {
      mechanical: {},
      electricalInternalBattery: { max_range_meters: 45000 },
      electricalRemovableBattery: { max_range_meters: 60000 },
    },
  };
}

export function synthNetwork(stationCount: number, contractCount: number, random: Random): Network {
  const contracts = Array.from({ length: contractCount }, (_, index) => contractAt(index));
  // Uneven sizes, as real contracts are: each gets a weight, stations are dealt by it.
  const weights = contracts.map(() => 0.3 + random() * 1.4);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const sizes = weights.map((weight) => Math.floor((weight / total) * stationCount));
  sizes[0] = (sizes[0] ?? 0) + stationCount - sizes.reduce((sum, size) => sum + size, 0);

  const stations: Station[] = [];
  const parkings: Parking[] = [];
  contracts.forEach((contract, index) => {
    const [, city, , latitude, longitude] = CITIES[
      index % CITIES.length
    ] as (typeof CITIES)[number];
    const size = sizes[index] ?? 0;
    for (let number = 1; number <= size; number++) {
      const address = `${1 + Math.floor(random() * 120)} ${street(random)}`;
      const overflow = random() < OVERFLOW_SHARE;
      stations.push({
        contract: contract.name,
        number,
        name: `${String(number).padStart(5, "0")} - ${pick(random, LANDMARKS)} ${pick(random, STREET_NAMES).toUpperCase()}`,
        address,
        latitude: round6(latitude + (random() - 0.5) * SPREAD),
        longitude: round6(longitude + (random() - 0.5) * SPREAD * 1.5),
        banking: random() < 0.6,
        bonus: random() < 0.1,
        overflow,
        capacity: 10 + Math.floor(random() * 30),
        overflowCapacity: overflow ? 5 + Math.floor(random() * 15) : null,
      });
    }
    if (!contract.parkingApi) return;
    const parkingCount = Math.max(1, Math.round(size * PARKINGS_PER_STATIONS));
    for (let number = 1; number <= parkingCount; number++) {
      parkings.push({
        contract: contract.name,
        number,
        name: `Parc vélo ${pick(random, LANDMARKS).toLowerCase()} ${number}`,
        status: random() < 0.95 ? "OPEN" : "CLOSED",
        latitude: round6(latitude + (random() - 0.5) * SPREAD),
        longitude: round6(longitude + (random() - 0.5) * SPREAD * 1.5),
        accessType: random() < 0.5 ? "FREE_ACCESS" : "SECURED",
        lockerType: random() < 0.5 ? "SINGLE" : "COLLECTIVE",
        hasSurveillance: random() < 0.5,
        isFree: random() < 0.7,
        address: street(random),
        zipCode: String(1000 + Math.floor(random() * 9000)).padStart(5, "0"),
        city,
        isOffStreet: random() < 0.5,
        hasElectricSupport: random() < 0.3,
        hasPhysicalReception: random() < 0.2,
      });
    }
  });
  return { contracts, stations, parkings };
}
