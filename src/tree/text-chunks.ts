// Text encoded as UTF-8 into a few big buffers as it is made: a file of ~100,000 lines (a million
// at a million stations) is never one string, nor an array of them kept alive until written.

const CHUNK = 1 << 20;

export class TextChunks {
  private readonly chunks: Buffer[] = [];
  private current = Buffer.allocUnsafe(0);
  private at = 0;

  /** Appends `text`'s UTF-8 bytes. */
  add(text: string): void {
    const room = this.current.length - this.at;
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: the length alone tells most of the time.
    if (text.length * 3 > room && Buffer.byteLength(text) > room)
      this.next(Buffer.byteLength(text));
    this.at += this.current.write(text, this.at);
  }

  /** Appends one byte. */
  addByte(byte: number): void {
    if (this.at === this.current.length) this.next(1);
    this.current[this.at++] = byte;
  }

  /** The bytes added, as views of the buffers (the last one cut to what it holds). */
  done(): Buffer[] {
    this.next(0);
    return this.chunks;
  }

  private next(atLeast: number): void {
    if (this.at > 0) this.chunks.push(this.current.subarray(0, this.at));
    this.current = Buffer.allocUnsafe(atLeast > 0 ? Math.max(CHUNK, atLeast) : 0);
    this.at = 0;
  }
}
