// Text written to a file as UTF-8 as it is made (and bytes as they are), through one reused
// buffer: a file of a million lines is never one string, nor held in memory whole. Buffers made
// one after another and kept (~320 MB at a million stations) were memory V8 counts as external
// and answers with a marking of the whole heap every 64 MB of it.

import type { Hash } from "node:crypto";
import { writeSync } from "node:fs";

const BUFFER = 1 << 20;

export class TextFile {
  readonly #fd: number;
  readonly #hash: Hash | undefined;
  readonly #buffer = Buffer.allocUnsafe(BUFFER);
  #at = 0;
  #position: number;

  /** Writes at `position` of the open file `fd` on; `hash` is fed the bytes as they are written. */
  constructor(fd: number, position: number, hash?: Hash) {
    this.#fd = fd;
    this.#position = position;
    this.#hash = hash;
  }

  /** Appends `text`'s UTF-8 bytes. */
  add(text: string): void {
    const room = this.#buffer.length - this.#at;
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: the length alone tells most of the time.
    if (text.length * 3 > room && Buffer.byteLength(text) > room) {
      this.flush();
      if (Buffer.byteLength(text) > this.#buffer.length) {
        this.#write(Buffer.from(text));
        return;
      }
    }
    this.#at += this.#buffer.write(text, this.#at);
  }

  /** Appends `bytes` as they are. */
  addBytes(bytes: Uint8Array): void {
    if (bytes.byteLength > this.#buffer.length - this.#at) {
      this.flush();
      if (bytes.byteLength > this.#buffer.length) {
        this.#write(bytes);
        return;
      }
    }
    this.#buffer.set(bytes, this.#at);
    this.#at += bytes.byteLength;
  }

  /** Appends one byte. */
  addByte(byte: number): void {
    if (this.#at === this.#buffer.length) this.flush();
    this.#buffer[this.#at++] = byte;
  }

  /** Writes what is buffered. */
  flush(): void {
    this.#write(this.#buffer.subarray(0, this.#at));
    this.#at = 0;
  }

  #write(bytes: Uint8Array): void {
    this.#hash?.update(bytes);
    let done = 0;
    while (done < bytes.byteLength) {
      done += writeSync(this.#fd, bytes, done, bytes.byteLength - done, this.#position + done);
    }
    this.#position += done;
  }
}
