// Reads a source file as UTF-8, strictly: a Latin-1 export must be refused, not published as "M�diath�que".
import { isAscii } from "node:buffer";
import { folderWhereFileExpected, UserError } from "../errors.js";
import { readBounded, SourceTooLong } from "./bounded-read.js";
import { FileBuffer } from "./file-buffer.js";
import { NoWriter } from "./pipe-open.js";
import { error, type Problem } from "./problems.js";

const UTF8 = new TextDecoder("utf-8", { fatal: true }); // a leading BOM is dropped, as it should be
const LENIENT = new TextDecoder("utf-8");

// One for every reuse: a server reads one states file whole at a time.
const kept = new FileBuffer();

/**
 * The file's bytes; Node names no path when it is a folder, nor when it is too long: this says
 * which file it is.
 */
function readSourceBytes(path: string, file: string, reuse: boolean): Promise<Buffer> {
  return (reuse ? kept.read(path) : readBounded(path)).catch((cause: NodeJS.ErrnoException) => {
    if (cause.code === "EISDIR") throw new UserError(folderWhereFileExpected(file));
    if (cause instanceof SourceTooLong) throw tooLong(file, cause.size);
    if (cause instanceof NoWriter)
      throw new UserError(
        `${file} is a named pipe that no program opened for writing within ${cause.seconds} s: is the program that writes it running? (or give a file, written whole then renamed into place)`,
      );
    throw cause;
  });
}

const tooLong = (file: string, size: number | null): UserError =>
  new UserError(
    size === null
      ? `${file} does not end: more than the 511 MB a source file can have were read from it (a device, or a pipe whose writer does not stop?): give a file`
      : `${file} is ${Math.round(size / 2 ** 20)} MB, more than the 511 MB a source file can have: split it`,
  );

/**
 * The file's text, or the problem that prevents reading it (its first byte that is not UTF-8).
 * `reuse`: its bytes read into the buffer the last such read used (a server's states file, every
 * minute): a new 25 MB buffer a minute is external memory that makes V8 start marking its whole
 * heap during the refresh. The text is a copy: the buffer is not held.
 */
export async function readSourceText(
  path: string,
  file: string,
  reuse = false,
): Promise<{ text: string } | { problem: Problem }> {
  const bytes = await readSourceBytes(path, file, reuse);
  // A workbook renamed .csv: a zip (.xlsx, .ods) or an OLE file (.xls), no text at all.
  const workbook = workbookKind(bytes);
  if (workbook)
    return {
      problem: error(
        { file },
        undefined,
        `is a spreadsheet workbook (${workbook}), not text: ${/\.csv$/i.test(file) ? 'export the sheet as CSV (in a spreadsheet: "CSV UTF-8")' : "export it as JSON text"}`,
      ),
    };
  const utf16 = utf16Order(bytes);
  if (utf16)
    return {
      problem: error(
        { file, line: 1 },
        undefined,
        `is UTF-16 text (${utf16}), not UTF-8: ${resaveHint(file)}`,
      ),
    };
  let text: string;
  try {
    // All ASCII (the usual states file: names are in the static data), its bytes are its text:
    // a strict UTF-8 decoder took a quarter of a server refresh's read.
    text = isAscii(bytes) ? bytes.toString("latin1") : UTF8.decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    const byte = bytes[at]?.toString(16).padStart(2, "0") ?? "?";
    const message =
      `is not UTF-8 text (byte 0x${byte} at offset ${at} cannot be decoded; Latin-1 or Windows-1252 exports do this): ` +
      resaveHint(file);
    return { problem: error({ file, line: lineAt(bytes, at) }, undefined, message) };
  }
  if (text.trim() === "")
    return { problem: error({ file }, undefined, "is empty: an export that wrote nothing?") };
  return { text };
}

/** The kind of workbook the bytes start as, if any: their first bytes say it. */
function workbookKind(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 4).equals(ZIP)) return "a zip file: .xlsx or .ods";
  if (bytes.subarray(0, 8).equals(OLE)) return "an OLE file: .xls";
  return undefined;
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** How to save the file again: a spreadsheet's choice is named for a CSV only. */
const resaveHint = (file: string): string =>
  /\.csv$/i.test(file)
    ? 're-save it as UTF-8 (in a spreadsheet: "CSV UTF-8")'
    : "re-save it as UTF-8 (in an editor: the encoding UTF-8)";

/**
 * "little-endian" or "big-endian" when the bytes are UTF-16 (Windows' "Unicode text" export): a
 * byte order mark, or ASCII text with every other byte zero. Its zero bytes are valid UTF-8.
 */
function utf16Order(bytes: Buffer): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "little-endian";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "big-endian";
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0)
    return "little-endian";
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0)
    return "big-endian";
  return null;
}

/** The offset of the first byte a strict decoder refuses (a real U+FFFD in the file is valid). */
function firstInvalidByte(bytes: Buffer): number {
  const text = LENIENT.decode(bytes);
  const skip = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let index = text.indexOf("\ufffd"); index >= 0; index = text.indexOf("\ufffd", index + 1)) {
    const offset = skip + Buffer.byteLength(text.slice(0, index));
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd))
      return offset;
  }
  return 0;
}

function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let at = bytes.indexOf(10); at >= 0 && at < offset; at = bytes.indexOf(10, at + 1)) line++;
  return line;
}
