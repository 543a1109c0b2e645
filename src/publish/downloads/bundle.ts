// The downloadable static bundle: one zip of contracts, stations and parkings as JSON and CSV, with a data package.
import { createHash } from "node:crypto";
import type { Contract } from "../../model/contract.js";
import type { Dataset } from "../../source/dataset.js";
import { licenseGroups } from "../license-groups.js";
import { csvChunks } from "./csv.js";
import {
  dataPackage,
  type PackagedFile,
  type PackagePublisher,
  type PackageSource,
} from "./datapackage.js";
import { jsonRows } from "./json-rows.js";
import { contractsTable, parkingsTable, rowOf, stationsTable, type Table } from "./tables.js";
import { type ZipEntry, zip } from "./zip.js";

/** `changedAt`: when the static source last changed, the data package's `created`. */
export async function renderBundle(
  dataset: Dataset,
  changedAt?: Date,
  publisher?: PackagePublisher,
): Promise<Uint8Array[]> {
  const tables = [
    tableEntries(contractsTable, dataset.contracts),
    tableEntries(stationsTable, dataset.stations),
    tableEntries(parkingsTable, dataset.parkings),
  ];
  const descriptor = dataPackage(
    tables.map(({ table, csv, json }) => ({
      table: table as Table<never>,
      csv: packaged(csv),
      json: packaged(json),
    })),
    licensesOf(dataset),
    sourcesOf(dataset),
    changedAt,
    publisher,
  );
  const entries: ZipEntry[] = [
    { name: "datapackage.json", body: [Buffer.from(`${JSON.stringify(descriptor, null, 2)}\n`)] },
    ...tables.flatMap(({ csv, json }) => [csv, json]),
  ];
  // Dated as the package's `created`: an unzipped file says when its data is from.
  return zip(entries, changedAt);
}

function tableEntries<T>(table: Table<T>, records: readonly T[]) {
  return {
    table,
    csv: { name: `${table.name}.csv`, body: csvChunks(table, records) },
    json: {
      name: `${table.name}.json`,
      body: jsonRows(records, (record) => rowOf(table, record)),
    },
  };
}

/** A zip entry as the data package describes it: SHA-256, as `sha256:` prefixes for Frictionless. */
function packaged(entry: ZipEntry): PackagedFile {
  const hash = createHash("sha256");
  let bytes = 0;
  for (const chunk of entry.body) {
    hash.update(chunk);
    bytes += chunk.byteLength;
  }
  return { path: entry.name, bytes, hash: `sha256:${hash.digest("hex")}` };
}

type Operator = NonNullable<Contract["operator"]>;

type PackageLicense = { name?: string; path?: string };

/**
 * The package's licence when every contract states the same one; otherwise none is claimed for
 * the whole and the description says which contracts state which (the tables mix contracts, and
 * data whose owner stated no licence must not be shown under another contract's), or that none
 * does: a description silent on licences reads as one left out of the package, not as none stated.
 */
function licensesOf(dataset: Dataset): { licenses: PackageLicense[]; note: string | null } {
  const groups = licenseGroups(dataset.contracts).map(({ license, contracts }) => ({
    license: license
      ? {
          ...(license.id ? { name: license.id } : {}),
          ...(license.url ? { path: license.url } : {}),
        }
      : null,
    contracts,
  }));
  const only = groups.length === 1 ? groups[0]?.license : null;
  if (only) return { licenses: [only], note: null };
  if (groups.length === 0) return { licenses: [], note: null };
  if (groups.length === 1) {
    const contracts = groups[0]?.contracts ?? [];
    const none =
      contracts.length === 1
        ? `its contract, ${contracts[0]}, states none`
        : `none of its contracts (${contracts.join(", ")}) states one`;
    return { licenses: [], note: `No licence is stated for this data: ${none}.` };
  }
  const stated = groups.map(({ license, contracts }) => {
    const what = license
      ? [license.name, license.path].filter(Boolean).join(", ")
      : "no licence stated";
    return `${contracts.join(", ")}: ${what}`;
  });
  return {
    licenses: [],
    note: `Licences differ by contract (each record is under its contract's): ${stated.join("; ")}.`,
  };
}

/** Each operator once (same name, URL and e-mail), with the contracts it runs, in the order first met. */
function sourcesOf(dataset: Dataset): PackageSource[] {
  const operators = new Map<string, { operator: Operator; contracts: string[] }>();
  for (const { name, operator } of dataset.contracts) {
    if (!operator) continue;
    const key = JSON.stringify([operator.name, operator.url ?? "", operator.email ?? ""]);
    const known = operators.get(key) ?? { operator, contracts: [] };
    known.contracts.push(name);
    operators.set(key, known);
  }
  return [...operators.values()].map(({ operator, contracts }) => ({
    title: `${operator.name}, operator of ${contracts.join(", ")}`,
    ...(operator.url ? { path: operator.url } : {}),
    ...(operator.email ? { email: operator.email } : {}),
  }));
}
