// A buffer a file is read into again and again (a server's states file, every minute): a new
// buffer per read is external memory that makes V8 start marking its whole heap during a refresh.
import { open } from "node:fs/promises";
import { MAX_TEXT, readBounded, SourceTooLong } from "./bounded-read.js";

export class FileBuffer {
  #buffer = Buffer.alloc(0);
  #reading = false;

  /** `room`: the size of the files it is for, made now rather than at the first read. */
  constructor(room = 0) {
    this.#room(room + 1, 0);
  }

  /**
   * The file's bytes in this buffer (made bigger when it must be): a view valid until the next
   * read. A read while another is under way gets a buffer of its own. Past MAX_TEXT, SourceTooLong.
   */
  async read(path: string): Promise<Buffer> {
    if (this.#reading) return readBounded(path);
    this.#reading = true;
    let size = 0;
    try {
      const handle = await open(path, "r");
      try {
        const stat = await handle.stat();
        const expected = stat.size;
        if (stat.isFile() && expected > MAX_TEXT) throw new SourceTooLong(expected);
        for (;;) {
          // Room for one byte more than expected: a file grown meanwhile is read to its end.
          this.#room(Math.max(expected, size) + 1, size);
          // From where the last read ended (no position): a pipe (`--state /dev/stdin`) cannot seek.
          const { bytesRead } = await handle.read(
            this.#buffer,
            size,
            this.#buffer.length - size,
            null,
          );
          if (bytesRead === 0) break;
          size += bytesRead;
          // A device or a pipe that does not end (`/dev/zero`) would fill the memory.
          if (size > MAX_TEXT) throw new SourceTooLong(stat.isFile() ? size : null);
        }
      } finally {
        await handle.close();
      }
    } finally {
      this.#reading = false;
    }
    return this.#buffer.subarray(0, size);
  }

  /**
   * An ASCII text's bytes in this buffer, as if read from a file (with the same room to spare):
   * a file accepted by a whole read, whose buffer a later read then fills again.
   */
  hold(text: string): Buffer {
    this.#room(text.length + 1, 0);
    return this.#buffer.subarray(0, this.#buffer.write(text, "latin1"));
  }

  /** At least `needed` bytes, the first `kept` of them kept; a quarter more when made bigger. */
  #room(needed: number, kept: number): void {
    if (this.#buffer.length >= needed) return;
    const bigger = Buffer.allocUnsafeSlow(Math.ceil(needed * 1.25));
    this.#buffer.copy(bigger, 0, 0, kept);
    this.#buffer = bigger;
  }
}
