// The keys a running server accepts: found by their hash, reloaded when the keys file changes.
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { UserError } from "../../errors.js";
import type { Log } from "../../log.js";
import { hashKey, readKeys } from "./key-file.js";

export interface KeyRing {
  /**
   * The id of the key presented, as `velodata keys list` shows it (never the key: request lines
   * name the client by it), or null when the key is refused.
   */
  idOf(key: string): string | null;
  /** The id of a revoked key presented (refused, but named: who still uses it), else null. */
  revokedIdOf(key: string): string | null;
  /** The requests a minute the key of this id may make, or undefined: no limit. */
  limitOf(id: string): number | undefined;
  /**
   * Since when the keys file is unreadable, invalid or gone (the last good set still in force,
   * so neither a key added nor one revoked since takes effect), or null while it reads well.
   */
  failingSince(): Date | null;
  /** How many keys are accepted now (the demo key too): with none, every keyed request is refused. */
  activeCount(): number;
  /** Stops watching the file. */
  close(): void;
}

/** Keys by their SHA-256 in hex (as the keys file stores it): each key's id. */
type KeysByHash = ReadonlyMap<string, string>;

const byHash = (keys: readonly { sha256: string; id: string }[]): KeysByHash =>
  new Map(keys.map(({ sha256, id }) => [sha256, id]));

/**
 * The id of the key presented, found by its hash: one SHA-256 and one lookup, however many keys
 * there are. Comparing the hash with each stored one took ~1 ms a request for a wrong key among
 * 10,000 (1.1k requests/s against 24.6k with one key), a flood anyone could send. The lookup's
 * time may tell how much of the presented key's hash matches a stored hash, which says nothing of
 * a key itself: finding one from its hash is what SHA-256 makes infeasible.
 */
const idOfKey = (known: KeysByHash, key: string): string | null => known.get(hashKey(key)) ?? null;

/** Accepted keys remembered at most; a server has a few clients, each with its key. */
const ACCEPTED_KEPT = 1024;

export interface KeyRingOptions {
  path: string;
  /** Keys accepted besides the file's (the demo key), each with the id it is logged by. */
  extraKeys?: readonly { key: string; id: string }[];
  pollMs?: number;
  log: Log;
}

/**
 * What watchKeyRing would refuse to start on, said before anything else is read (a server reads
 * and renders its whole network first: a minute at a million stations).
 */
export async function checkKeyFile(path: string): Promise<void> {
  try {
    await readKeys(path);
  } catch (cause) {
    throw unusable(path, detailsOf(cause));
  }
  if (!existsSync(path) && !existsSync(dirname(path))) throw noFolder(path);
}

const detailsOf = (cause: unknown): string[] => [
  (cause as Error).message,
  ...((cause as { details?: string[] }).details ?? []),
];

const unusable = (path: string, details: string[]) =>
  new UserError(
    `keys file ${path} cannot be used, and no good set of keys was ever loaded: fix what the lines below name`,
    details,
  );

const noFolder = (path: string) =>
  new UserError(`the folder of the keys file ${path} does not exist: create it, or fix --keys`);

/** Loads the keys file and polls it; an unreadable or invalid file is reported once and the last good set stays. */
export async function watchKeyRing(options: KeyRingOptions): Promise<KeyRing> {
  const extra = (options.extraKeys ?? []).map(({ key, id }) => ({ sha256: hashKey(key), id }));
  let active = byHash(extra);
  let revoked = byHash([]);
  // Counted as records, not hashes: the same key stored twice is still two keys to the operator.
  let activeCount = extra.length;
  let limits = new Map<string, number>();
  let signature = "";
  // Since when the file has not read well (null: it reads well).
  let failingSince: Date | null = null;
  const fail = () => {
    failingSince ??= new Date();
  };
  let everLoaded = false;
  let lastDetails: string[] = [];

  const reload = async () => {
    const current = await fileSignature(options.path);
    if (current === signature) return;
    const hadFile = signature !== "" && signature !== "missing";
    signature = current;
    if (current === "missing" && hadFile) {
      options.log(
        `keys: ${options.path} has disappeared; keeping the last good set of keys`,
        "error",
      );
      fail();
      return;
    }
    try {
      const keys = await readKeys(options.path);
      const accepting = [...extra, ...keys.filter((key) => key.revoked === null)];
      active = byHash(accepting);
      activeCount = accepting.length;
      revoked = byHash(keys.filter((key) => key.revoked !== null));
      limits = new Map(
        keys.flatMap(({ id, requestsPerMinute }) =>
          requestsPerMinute === undefined ? [] : [[id, requestsPerMinute] as const],
        ),
      );
      accepted.clear();
      if (failingSince !== null)
        options.log(
          `keys: ${options.path} is valid again (${activeCount - extra.length} active key${activeCount - extra.length === 1 ? "" : "s"})`,
        );
      failingSince = null;
      everLoaded = true;
    } catch (cause) {
      const details = detailsOf(cause);
      lastDetails = details;
      fail();
      // Before any good set, there is nothing to keep: watchKeyRing refuses to start instead.
      if (everLoaded)
        options.log(`keys: ${details.join("; ")}; keeping the last good set of keys`, "error");
    }
  };
  // Keys accepted lately, by the string presented: a hit skips the hash. Emptied whenever the set
  // of keys changes (a key revoked since is refused at once); only accepted keys are kept, so a
  // flood of wrong keys neither fills it nor is ever answered without the lookup by hash.
  const accepted = new Map<string, string>();
  const idOf = (key: string): string | null => {
    const known = accepted.get(key);
    if (known !== undefined) return known;
    const id = idOfKey(active, key);
    if (id === null) return null;
    if (accepted.size >= ACCEPTED_KEPT) accepted.clear();
    accepted.set(key, id);
    return id;
  };
  await reload();
  // "Keeping the last good set" means nothing when there never was one: no key would work.
  if (!everLoaded) throw unusable(options.path, lastDetails);
  if (signature === "missing" && !existsSync(dirname(options.path))) throw noFolder(options.path);
  // Whole: a server's log (a unit's journal) does not say which folder a relative path is from,
  // and the command given must work from the operator's shell, wherever it is.
  const whole = resolve(options.path);
  if (signature === "missing" && extra.length > 0)
    options.log(
      `keys: no keys file at ${whole} yet; add keys with: velodata keys add --keys ${whole}`,
    );
  else if (signature === "missing")
    options.log(
      `keys: no keys file at ${whole}: no key is accepted, so every keyed request is refused (403) and /status says keys.ok false until one is added: velodata keys add --keys ${whole} (or fix --keys, if a file was meant to be there)`,
      "warning",
    );
  const timer = setInterval(() => void reload(), options.pollMs ?? 1000);
  timer.unref();
  return {
    idOf,
    revokedIdOf: (key) => idOfKey(revoked, key),
    limitOf: (id) => limits.get(id),
    failingSince: () => failingSince,
    activeCount: () => activeCount,
    close: () => clearInterval(timer),
  };
}

async function fileSignature(path: string): Promise<string> {
  try {
    const info = await stat(path);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch (cause) {
    // Only a file that is not there has disappeared: one the server may no longer look at (its
    // folder closed to it, a link that loops, a disk's error) is read, which says why it fails.
    const code = (cause as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "missing" : `unreadable: ${code}`;
  }
}
