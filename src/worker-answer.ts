// A worker thread started for one answer: its first message. Used where a whole job is handed to
// another thread at once (the bundle's zip, the trust test, a build's static answers).
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * The first message of a worker started from `url`; rejects when it fails, or ends before sending
 * one (killed, out of memory). `name` says which worker in that error.
 */
export function workerAnswer<T>(url: URL, name: string, options: WorkerOptions): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, options);
    worker.once("message", (answer: T) => resolve(answer));
    worker.once("error", reject);
    // After the answer this changes nothing.
    worker.once("exit", (code) =>
      reject(new Error(`${name} ended with code ${code} before answering`)),
    );
  });
}
