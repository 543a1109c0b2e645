// Helpers for tree tests: a release that fails half way, a live node process and a dead pid, and a tree's files as one comparable map.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { makeRelease, type Release, releaseFile } from "../../src/publish/release.js";
import { fieldsOf } from "../../src/tree/cache-columns.js";
import { filesUnder } from "../../src/tree/files-under.js";

/** A release whose second file cannot be written: a build or refresh that dies half way. */
export function brokenRelease(): Release {
  const files = new Map([
    ["/vls/v3/contracts", releaseFile([Buffer.from("[]")], "application/json", "static")],
    [
      "/vls/v3/stations",
      { ...releaseFile([], "application/json", "dynamic"), body: [42 as unknown as Uint8Array] },
    ],
  ]);
  return makeRelease(files, { contracts: 0, stations: 0, parkings: 0 }, new Date(0));
}

/** A live node process, as another velodata holding a lock is: its pid, and how to stop it. */
export function liveNodeProcess(): { pid: number; stop: () => void } {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], {
    stdio: "ignore",
  });
  return { pid: child.pid as number, stop: () => child.kill() };
}

export function deadPid(): number {
  for (let pid = 4_000_000; ; pid++) {
    try {
      process.kill(pid, 0);
    } catch {
      return pid;
    }
  }
}

/**
 * Every file of a folder and its bytes (as base64), to compare two trees whole with one toEqual.
 * Compressed siblings are compared by what they decode to: a build and a refresh compress at
 * different levels (their time budgets differ), and either bytes are right.
 */
export function treeFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of filesUnder(root).sort()) {
    const bytes = readFileSync(join(root, file));
    const decoded = file.endsWith(".gz")
      ? gunzipSync(bytes)
      : file.endsWith(".br")
        ? brotliDecompressSync(bytes)
        : bytes;
    files[file] = decoded.toString("base64");
  }
  return files;
}

/** The fields of a manifest's first line: all but its columns (the whole of an older one's). */
export async function manifestHead(path: string): Promise<Record<string, unknown>> {
  const bytes = await readFile(path);
  const end = bytes.indexOf("\n");
  return fieldsOf(JSON.parse(bytes.toString("utf8", 0, end < 0 ? bytes.length : end))) as Record<
    string,
    unknown
  >;
}
