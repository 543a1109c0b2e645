// `velodata keys add | list | revoke`: API keys, stored hashed; a running server sees changes within seconds.
import { existsSync } from "node:fs";
import { UserError } from "../errors.js";
import { addKey, readKeys, revokeKey } from "../serve/keys/key-file.js";
import { type Output, terminalOutput } from "./output.js";

export interface KeysOptions {
  keys: string;
  output?: Output;
  now?: Date;
}

export async function keysAdd(options: KeysOptions & { label?: string }): Promise<string> {
  const output = options.output ?? terminalOutput();
  const { key, stored } = await addKey(
    options.keys,
    options.label ?? "",
    options.now ?? new Date(),
  );
  output.info(key);
  output.warn(
    `key ${stored.id}${stored.label ? ` (${stored.label})` : ""} added to ${options.keys}; it is shown only this once`,
  );
  return key;
}

export async function keysList(options: KeysOptions): Promise<void> {
  const output = options.output ?? terminalOutput();
  // A mistyped path must not read as "no keys": only an existing file can be empty.
  if (!existsSync(options.keys))
    throw new UserError(
      `no keys file at ${options.keys}: check the path, or create it with velodata keys add`,
    );
  const keys = await readKeys(options.keys);
  if (keys.length === 0) {
    output.warn(`no keys in ${options.keys}`);
    return;
  }
  output.info(["id", "created", "revoked", "label"].join("\t"));
  for (const key of keys)
    output.info([key.id, key.created, key.revoked ?? "-", key.label].join("\t"));
}

export async function keysRevoke(options: KeysOptions & { id: string }): Promise<void> {
  const output = options.output ?? terminalOutput();
  const { key, already } = await revokeKey(options.keys, options.id, options.now ?? new Date());
  // Revoking twice changes nothing: the first time stays the one recorded, and is said.
  output.info(
    already
      ? `key ${key.id} was already revoked, at ${key.revoked}: nothing changed`
      : `key ${key.id} revoked at ${key.revoked}`,
  );
}
