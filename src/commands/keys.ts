// `velodata keys add | list | revoke | limit`: API keys, stored hashed; a running server sees changes within seconds.
import { escapeControls, UserError } from "../errors.js";
import { addKey, limitKey, readKeysIfAny, revokeKey } from "../serve/keys/key-file.js";
import { refuseInsideTree } from "../tree/inside-tree.js";
import { type Output, terminalOutput } from "./output.js";

export interface KeysOptions {
  keys: string;
  output?: Output;
  now?: Date;
}

export async function keysAdd(
  options: KeysOptions & { label?: string; perMinute?: number },
): Promise<string> {
  const output = options.output ?? terminalOutput();
  // A key shown once, in a file the next build would delete and a static host would serve.
  refuseInsideTree(options.keys, "--keys");
  const { key, stored } = await addKey(
    options.keys,
    options.label ?? "",
    options.now ?? new Date(),
    options.perMinute ?? null,
  );
  output.info(key);
  output.warn(
    `key ${stored.id}${stored.label ? ` (${stored.label})` : ""} added to ${options.keys}${limitText(stored.requestsPerMinute)}; it is shown only this once`,
  );
  return key;
}

/** Sets or removes (null) a key's limit of requests a minute. */
export async function keysLimit(
  options: KeysOptions & { id: string; perMinute: number | null },
): Promise<void> {
  const output = options.output ?? terminalOutput();
  refuseInsideTree(options.keys, "--keys");
  const key = await limitKey(options.keys, options.id, options.perMinute);
  output.info(`key ${key.id}${limitText(key.requestsPerMinute) || ": no limit"}`);
}

const limitText = (perMinute: number | undefined): string =>
  perMinute === undefined ? "" : `, at most ${perMinute} requests a minute`;

export async function keysList(options: KeysOptions): Promise<void> {
  const output = options.output ?? terminalOutput();
  // A mistyped path must not read as "no keys": only an existing file can be empty.
  const keys = await readKeysIfAny(options.keys);
  if (keys === undefined)
    throw new UserError(
      `no keys file at ${options.keys}: check the path, or create it with velodata keys add`,
    );
  if (keys.length === 0) {
    output.warn(`no keys in ${options.keys}`);
    return;
  }
  output.info(["id", "created", "revoked", "per minute", "label"].join("\t"));
  // A label edited by hand into the file may hold a tab, a newline or an escape sequence: each
  // row stays one row of five columns, and text.
  for (const key of keys)
    output.info(
      [
        key.id,
        key.created,
        key.revoked ?? "-",
        key.requestsPerMinute ?? "-",
        escapeControls(key.label),
      ].join("\t"),
    );
}

export async function keysRevoke(options: KeysOptions & { id: string }): Promise<void> {
  const output = options.output ?? terminalOutput();
  refuseInsideTree(options.keys, "--keys");
  const { key, already } = await revokeKey(options.keys, options.id, options.now ?? new Date());
  // Revoking twice changes nothing: the first time stays the one recorded, and is said.
  output.info(
    already
      ? `key ${key.id} was already revoked, at ${key.revoked}: nothing changed`
      : `key ${key.id} revoked at ${key.revoked}`,
  );
}
