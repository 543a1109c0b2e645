// The official GBFS JSON schemas (gbfs-schemas/, see its SOURCE.md) as the OpenAPI document
// describes the GBFS answers with them: a generated client gets each feed's own types, and a
// consumer reads the standard's words, not a loose copy of them.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type GbfsSchemaVersion = "2.3" | "3.0";

// These files ship with velodata like its code: reading them is loading code, not reading input.
// This module is two folders below the package root, in src/ and in dist/ alike.
export const GBFS_SCHEMAS = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../src/model/gbfs-schemas",
);
/** The folders of GBFS_SCHEMAS, one per version. */
export const GBFS_SCHEMA_FOLDERS = ["v2.3", "v3.0"].map((folder) => join(GBFS_SCHEMAS, folder));
const ORIGIN =
  "https://github.com/MobilityData/gbfs-json-schema/blob/2e974fd51ae1db9c8006c97375d53e0b882cfedf";

/**
 * The official schema of GBFS `version`'s `feed` (`station_status`, `manifest`…), as an OpenAPI 3.1
 * schema: written for JSON Schema draft-07, whose `$schema` and `$id` it loses (a component is
 * read in the document's dialect, 2020-12, and an `$id` would move its base URI) and whose
 * `dependencies` of names become 2020-12's `dependentRequired`; credited in `externalDocs`.
 */
export function officialGbfsSchema(
  version: GbfsSchemaVersion,
  feed: string,
): Record<string, unknown> {
  const file = `v${version}/${feed}.json`;
  let schema = adapted.get(file);
  if (!schema) {
    schema = adaptedSchema(version, feed, file);
    adapted.set(file, schema);
  }
  return schema;
}

// Read once per process: every build and refresh of the static answers renders the document.
const adapted = new Map<string, Record<string, unknown>>();

function adaptedSchema(
  version: GbfsSchemaVersion,
  feed: string,
  file: string,
): Record<string, unknown> {
  const {
    $schema: _,
    $id: __,
    ...schema
  } = JSON.parse(readFileSync(join(GBFS_SCHEMAS, file), "utf8")) as Record<string, unknown>;
  return {
    ...(asOf2020(schema, false) as Record<string, unknown>),
    externalDocs: {
      description: `The official GBFS v${version} JSON schema of ${feed}.json, by MobilityData (CC BY 4.0)`,
      url: `${ORIGIN}/${file}`,
    },
  };
}

/** `value` with draft-07's `dependencies` of names renamed; `named`: a map of property names. */
function asOf2020(value: unknown, named: boolean): unknown {
  if (Array.isArray(value)) return value.map((each) => asOf2020(each, false));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => {
      // Under `properties`, "dependencies" would be a field of the feed, not the keyword.
      const keyword = !named && key === "dependencies" && namesOnly(child);
      return [
        keyword ? "dependentRequired" : key,
        asOf2020(child, !named && (key === "properties" || key === "patternProperties")),
      ];
    }),
  );
}

function namesOnly(dependencies: unknown): boolean {
  return (
    typeof dependencies === "object" &&
    dependencies !== null &&
    Object.values(dependencies).every(Array.isArray)
  );
}
