// The Frictionless Data Package (v2) describing the bundle: one Table Schema per CSV, from the same columns.
import { publishedTime } from "../../published-time.js";
import type { Table } from "./tables.js";

/**
 * A file of the bundle as its resource names it: its size and SHA-256, which Frictionless tools
 * check the file against (a download cut short, a file edited after it was packaged).
 */
export interface PackagedFile {
  path: string;
  bytes: number;
  hash: string;
}

export interface BundleTable {
  table: Table<never>;
  csv: PackagedFile;
  json: PackagedFile;
}

const DESCRIPTION =
  "Contracts, the static description of their stations, and their bike parkings. Live availability is served by the API";
/** What a catalogue (CKAN, data.europa.eu, a city's portal) files the package under. */
const KEYWORDS = ["bike sharing", "bicycle stations", "bicycle parking", "mobility", "open data"];

/** Who the data comes from: a contract's operator, named as a Frictionless source. */
export interface PackageSource {
  title: string;
  path?: string;
  email?: string;
}

/**
 * Who publishes the package: the service's name (portal.json's serviceName), and its portal's
 * address when the public base URL is known (never the stand-in a build names without one, which
 * would send readers of a downloaded zip to their own machine).
 */
export interface PackagePublisher {
  serviceName?: string;
  homepage?: string;
}

/**
 * `licenses` for the whole package, or none with a `note` saying which contract states which;
 * `sources`: the operators the data comes from, whom an attribution licence (CC BY, ODbL) asks
 * reusers to name.
 */
export function dataPackage(
  tables: readonly BundleTable[],
  {
    licenses,
    note,
  }: { licenses: readonly { name?: string; path?: string }[]; note: string | null },
  sources: readonly PackageSource[],
  changedAt?: Date,
  { serviceName, homepage }: PackagePublisher = {},
) {
  const live = homepage ? `${DESCRIPTION} (${homepage}).` : `${DESCRIPTION}.`;
  return {
    $schema: "https://datapackage.org/profiles/2.0/datapackage.json",
    // Also the zip's name: invariant, as the profile asks, whoever publishes it.
    name: "velodata-static",
    title: serviceName
      ? `${serviceName}: bike-sharing stations and bike parkings, static data`
      : "Bike-sharing stations and bike parkings: static data",
    description: note ? `${live} ${note}` : live,
    ...(homepage ? { homepage } : {}),
    // When the data it describes last changed (the source's files), which says one download from
    // another: the package is the same bytes until then.
    ...(changedAt ? { created: publishedTime(changedAt) } : {}),
    keywords: KEYWORDS,
    ...(licenses.length > 0 ? { licenses } : {}),
    ...(sources.length > 0 ? { sources } : {}),
    resources: tables.flatMap(({ table, csv, json }) => [
      {
        name: table.name,
        type: "table",
        path: csv.path,
        title: table.title,
        format: "csv",
        mediatype: "text/csv",
        encoding: "utf-8",
        bytes: csv.bytes,
        hash: csv.hash,
        dialect: {
          $schema: "https://datapackage.org/profiles/2.0/tabledialect.json",
          header: true,
          delimiter: ",",
          lineTerminator: "\r\n",
        },
        schema: tableSchema(table),
      },
      {
        name: `${table.name}-json`,
        path: json.path,
        title: `${table.title} (JSON, same records)`,
        format: "json",
        mediatype: "application/json",
        encoding: "utf-8",
        bytes: json.bytes,
        hash: json.hash,
      },
    ]),
  };
}

function tableSchema(table: Table<never>) {
  return {
    $schema: "https://datapackage.org/profiles/2.0/tableschema.json",
    fields: table.columns.map((column) => ({
      name: column.name,
      type: column.type,
      description: column.description,
      ...(column.emptyIsText ? { missingValues: [] } : {}),
      ...(column.required || column.enum || column.bounds
        ? {
            constraints: {
              ...(column.required ? { required: true } : {}),
              ...(column.enum ? { enum: column.enum } : {}),
              ...column.bounds,
            },
          }
        : {}),
    })),
    missingValues: [""],
    primaryKey: table.primaryKey,
    ...(table.foreignKeys ? { foreignKeys: table.foreignKeys } : {}),
  };
}
