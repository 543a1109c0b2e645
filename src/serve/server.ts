// The HTTP server around the handler: listening, and stopping gracefully (requests in flight finish).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHandler, type HandlerOptions } from "./handler.js";

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting connections and resolves when the requests in flight have been answered. */
  close(): Promise<void>;
}

// Past this, connections still open after a stop are cut.
const CLOSE_GRACE_MS = 10_000;

export async function startServer(
  options: HandlerOptions & { port: number; host: string },
): Promise<RunningServer> {
  const handler = createHandler(options);
  const server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    server,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
