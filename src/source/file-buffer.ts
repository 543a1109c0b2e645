// A buffer a file is read into again and again (a server's states file, every minute): a new
// buffer per read is external memory that makes V8 start marking its whole heap during a refresh.
import { open, readFile } from "node:fs/promises";

export class FileBuffer {
  #buffer = Buffer.alloc(0);
  #reading = false;

  /**
   * The file's bytes in this buffer (made bigger when it must be): a view valid until the next
   * read. A read while another is under way gets a buffer of its own.
   */
  async read(path: string): Promise<Buffer> {
    if (this.#reading) return readFile(path);
    this.#reading = true;
    let size = 0;
    try {
      const handle = await open(path, "r");
      try {
        const expected = (await handle.stat()).size;
        for (;;) {
          // Room for one byte more than expected: a file grown meanwhile is read to its end.
          const needed = Math.max(expected, size) + 1;
          if (this.#buffer.length < needed) {
            const bigger = Buffer.allocUnsafeSlow(Math.ceil(needed * 1.25));
            this.#buffer.copy(bigger, 0, 0, size);
            this.#buffer = bigger;
          }
          const { bytesRead } = await handle.read(
            this.#buffer,
            size,
            this.#buffer.length - size,
            size,
          );
          if (bytesRead === 0) break;
          size += bytesRead;
        }
      } finally {
        await handle.close();
      }
    } finally {
      this.#reading = false;
    }
    return this.#buffer.subarray(0, size);
  }
}
