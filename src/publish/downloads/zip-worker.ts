// The worker thread of `zip`: zips the entries it is given and hands the zip back, moved.
import { parentPort, workerData } from "node:worker_threads";
import { type ZipEntry, zipHere } from "./zip-here.js";

const zipped = Buffer.concat(await zipHere(workerData as ZipEntry[]));
// Moved in a buffer of its own: a small zip sits in Node's shared pool, which is never moved.
let own = zipped;
if (zipped.byteOffset !== 0 || zipped.buffer.byteLength !== zipped.byteLength) {
  own = Buffer.allocUnsafeSlow(zipped.byteLength);
  zipped.copy(own);
}
parentPort?.postMessage(own, [own.buffer as ArrayBuffer]);
