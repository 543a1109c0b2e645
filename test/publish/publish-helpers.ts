// Publishes the bundled fixtures once per suite and reads answers back as text or JSON.
import { publish } from "../../src/publish/publish.js";
import type { Release } from "../../src/publish/release.js";
import type { Dataset } from "../../src/source/dataset.js";
import { readDataset } from "../../src/source/read-dataset.js";
import { FIXTURES } from "../helpers.js";

export const GENERATED_AT = new Date("2026-11-20T08:16:00Z");

export async function fixtureDataset(): Promise<Dataset> {
  const { dataset } = await readDataset(FIXTURES);
  if (!dataset) throw new Error("fixtures do not validate");
  return dataset;
}

export async function fixtureRelease(): Promise<Release> {
  return (await publish(await fixtureDataset(), { generatedAt: GENERATED_AT })).release;
}

export function text(release: Release, path: string): string {
  const file = release.files.get(path);
  if (!file) throw new Error(`no ${path} in the release`);
  return Buffer.concat(file.body).toString("utf8");
}

export const json = (release: Release, path: string): unknown => JSON.parse(text(release, path));

/**
 * A field's description as a consumer needs it: at least a short sentence saying what it means
 * (a bare label such as "City" or "Bonus station" is not one).
 */
export const MEANING_SENTENCE = /^\S.{15,}\.$/s;
