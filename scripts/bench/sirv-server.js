// sirv over a built tree, as `velodata preview` serves it. Usage: node scripts/bench/sirv-server.js TREE PORT
import { createServer } from "node:http";
import sirv from "sirv";

const [tree, port] = process.argv.slice(2);
const serveTree = sirv(tree, { extensions: ["json"], dev: false, etag: true });
createServer((request, response) =>
  serveTree(request, response, () => response.writeHead(404).end()),
).listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
