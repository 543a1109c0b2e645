// The static tables of the download: one column list drives the JSON records, the CSV and the Table Schema.
import type { Contract } from "../../model/contract.js";
import { CONTRACT, PARKING, POSITION, STATION } from "../../model/field-meanings.js";
import { INT32_MAX } from "../../model/int32.js";
import type { Parking } from "../../model/parking.js";
import type { Station } from "../../model/station.js";

export type Cell = string | number | boolean | null | readonly string[];

export interface Column<T> {
  name: string;
  /** Frictionless Table Schema type. */
  type: "integer" | "number" | "string" | "boolean" | "array";
  description: string;
  required?: boolean;
  /**
   * Never null: an empty cell is the empty string (an address left blank), not a missing value.
   * Its Table Schema field says so (`missingValues: []`), or readers would take the package's
   * `""` missing value and read null where the JSON says `""`.
   */
  emptyIsText?: boolean;
  enum?: readonly string[];
  /** What the source's checks hold every value to, for a Table Schema reader to check again. */
  bounds?: Bounds;
  value: (record: T) => Cell;
}

/** Table Schema constraints beyond required and enum (a pattern is of the whole value). */
export interface Bounds {
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

// A number or count is a 32-bit int to the original service's clients (model/int32.ts).
const COUNT: Bounds = { minimum: 0, maximum: INT32_MAX };
const LATITUDE: Bounds = { minimum: -90, maximum: 90 };
const LONGITUDE: Bounds = { minimum: -180, maximum: 180 };

/** A column whose values are those of another table's key (a Table Schema foreign key). */
export interface ForeignKey {
  fields: readonly string[];
  reference: { resource: string; fields: readonly string[] };
}

export interface Table<T> {
  name: string;
  title: string;
  columns: readonly Column<T>[];
  primaryKey: readonly string[];
  foreignKeys?: readonly ForeignKey[];
}

/** Each record's `contract` is a contract's `name`. */
const OF_A_CONTRACT: readonly ForeignKey[] = [
  { fields: ["contract"], reference: { resource: "contracts", fields: ["name"] } },
];

export const contractsTable: Table<Contract> = {
  name: "contracts",
  title: "Contracts (service areas)",
  primaryKey: ["name"],
  columns: [
    {
      name: "name",
      type: "string",
      required: true,
      description: CONTRACT.name,
      value: (c) => c.name,
    },
    {
      name: "commercial_name",
      type: "string",
      required: true,
      description: CONTRACT.commercial_name,
      value: (c) => c.commercial_name,
    },
    {
      name: "country_code",
      type: "string",
      required: true,
      description: CONTRACT.country_code,
      bounds: { pattern: "[A-Z]{2}" },
      value: (c) => c.country_code,
    },
    {
      name: "cities",
      type: "array",
      description: `${CONTRACT.cities} In the CSV, a JSON array.`,
      value: (c) => c.cities,
    },
    {
      name: "parkingApi",
      type: "boolean",
      required: true,
      description:
        "true when the contract offers the parking API: only such a contract has parkings.",
      value: (c) => c.parkingApi,
    },
    {
      name: "license_id",
      type: "string",
      description:
        "SPDX identifier of the licence of the contract's data (e.g. `ODbL-1.0`); empty, null in the JSON, when the contract states no licence, or one by its address alone (`license_url`).",
      value: (c) => c.license?.id ?? null,
    },
    {
      name: "license_url",
      type: "string",
      description:
        "Address of the licence of the contract's data, as the contract states it; empty, null in the JSON, when the contract states no licence, or one by its SPDX identifier alone (`license_id`: its text is at `https://spdx.org/licenses/{license_id}.html`).",
      value: (c) => c.license?.url ?? null,
    },
  ],
};

export const stationsTable: Table<Station> = {
  name: "stations",
  title: "Stations (static description)",
  primaryKey: ["contract", "number"],
  foreignKeys: OF_A_CONTRACT,
  columns: [
    {
      name: "contract",
      type: "string",
      required: true,
      description: STATION.contract,
      value: (s) => s.contract,
    },
    {
      name: "number",
      type: "integer",
      required: true,
      description: STATION.number,
      bounds: COUNT,
      value: (s) => s.number,
    },
    {
      name: "name",
      type: "string",
      required: true,
      description: STATION.name,
      value: (s) => s.name,
    },
    {
      name: "address",
      type: "string",
      emptyIsText: true,
      description: STATION.address,
      value: (s) => s.address,
    },
    {
      name: "latitude",
      type: "number",
      required: true,
      description: POSITION.latitude,
      bounds: LATITUDE,
      value: (s) => s.latitude,
    },
    {
      name: "longitude",
      type: "number",
      required: true,
      description: POSITION.longitude,
      bounds: LONGITUDE,
      value: (s) => s.longitude,
    },
    {
      name: "banking",
      type: "boolean",
      required: true,
      description: STATION.banking,
      value: (s) => s.banking,
    },
    {
      name: "bonus",
      type: "boolean",
      required: true,
      description: STATION.bonus,
      value: (s) => s.bonus,
    },
    {
      name: "overflow",
      type: "boolean",
      required: true,
      description: `${STATION.overflow} Given apart from \`overflowCapacity\`, which is empty unless the station has overflow stands.`,
      value: (s) => s.overflow,
    },
    {
      name: "capacity",
      type: "integer",
      required: true,
      description:
        "Number of main stands: the station's physical stands (the API's `mainStands.capacity`).",
      bounds: COUNT,
      value: (s) => s.capacity,
    },
    {
      name: "overflowCapacity",
      type: "integer",
      description:
        "Number of overflow stands (the API's `overflowStands.capacity`); empty, null in the JSON, when the station has none. The API's total is `capacity` + `overflowCapacity`.",
      bounds: COUNT,
      value: (s) => s.overflowCapacity,
    },
  ],
};

export const parkingsTable: Table<Parking> = {
  name: "parkings",
  title: "Bike parkings",
  primaryKey: ["contract", "number"],
  foreignKeys: OF_A_CONTRACT,
  columns: [
    {
      name: "contract",
      type: "string",
      required: true,
      description: PARKING.contract,
      value: (p) => p.contract,
    },
    {
      name: "number",
      type: "integer",
      required: true,
      description: PARKING.number,
      bounds: COUNT,
      value: (p) => p.number,
    },
    {
      name: "name",
      type: "string",
      required: true,
      description: PARKING.name,
      value: (p) => p.name,
    },
    {
      name: "status",
      type: "string",
      required: true,
      enum: ["OPEN", "CLOSED"],
      description: PARKING.status,
      value: (p) => p.status,
    },
    {
      name: "latitude",
      type: "number",
      required: true,
      description: POSITION.latitude,
      bounds: LATITUDE,
      value: (p) => p.latitude,
    },
    {
      name: "longitude",
      type: "number",
      required: true,
      description: POSITION.longitude,
      bounds: LONGITUDE,
      value: (p) => p.longitude,
    },
    {
      name: "accessType",
      type: "string",
      required: true,
      enum: ["FREE_ACCESS", "SECURED"],
      description: PARKING.accessType,
      value: (p) => p.accessType,
    },
    {
      name: "lockerType",
      type: "string",
      required: true,
      enum: ["SINGLE", "COLLECTIVE"],
      description: PARKING.lockerType,
      value: (p) => p.lockerType,
    },
    {
      name: "hasSurveillance",
      type: "boolean",
      required: true,
      description: PARKING.hasSurveillance,
      value: (p) => p.hasSurveillance,
    },
    {
      name: "isFree",
      type: "boolean",
      required: true,
      description: PARKING.isFree,
      value: (p) => p.isFree,
    },
    {
      name: "address",
      type: "string",
      emptyIsText: true,
      description: PARKING.address,
      value: (p) => p.address,
    },
    {
      name: "zipCode",
      type: "string",
      emptyIsText: true,
      description: PARKING.zipCode,
      value: (p) => p.zipCode,
    },
    {
      name: "city",
      type: "string",
      emptyIsText: true,
      description: PARKING.city,
      value: (p) => p.city,
    },
    {
      name: "isOffStreet",
      type: "boolean",
      required: true,
      description: PARKING.isOffStreet,
      value: (p) => p.isOffStreet,
    },
    {
      name: "hasElectricSupport",
      type: "boolean",
      required: true,
      description: PARKING.hasElectricSupport,
      value: (p) => p.hasElectricSupport,
    },
    {
      name: "hasPhysicalReception",
      type: "boolean",
      required: true,
      description: PARKING.hasPhysicalReception,
      value: (p) => p.hasPhysicalReception,
    },
  ],
};

/** The per-contract static download, with the five fields the original service offered. */
export const contractStationsTable: Table<Station> = {
  name: "stations",
  title: "Stations of one contract",
  primaryKey: ["number"],
  columns: stationsTable.columns.filter((column) =>
    ["number", "name", "address", "latitude", "longitude"].includes(column.name),
  ),
};

/** One record as an object whose keys follow the table's column order. */
export function rowOf<T>(table: Table<T>, record: T): Record<string, Cell> {
  const row: Record<string, Cell> = {};
  for (const column of table.columns) row[column.name] = column.value(record);
  return row;
}
