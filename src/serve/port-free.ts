// Whether the server will be able to listen, asked before the source is read (a minute at a
// million stations): a port another process holds, or an address not this machine's, is said at
// once. Another process may still take the port before the server listens, which then says the
// same.
import { createServer } from "node:net";

/** Listens on `port` and `host` and lets go at once; rejects with the system's error. */
export function portFree(port: number, host: string): Promise<void> {
  const probe = createServer();
  return new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
