// The Node ceiling: node:http answering from a Map of a built tree's files (path → bytes, headers
// made once), nothing else. Usage: node scripts/bench/ceiling-server.js TREE PORT
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join, relative } from "node:path";

const [tree, port] = process.argv.slice(2);
const files = new Map();
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith(".json")) {
      const body = readFileSync(path);
      const url = `/${relative(tree, path).slice(0, -".json".length)}`;
      const headers = { "Content-Type": "application/json", "Content-Length": body.length };
      files.set(url, { body, headers });
    }
  }
};
walk(tree);
createServer((request, response) => {
  const url = request.url ?? "/";
  const queryAt = url.indexOf("?");
  const file = files.get(queryAt < 0 ? url : url.slice(0, queryAt));
  if (!file) return response.writeHead(404).end();
  response.writeHead(200, file.headers).end(file.body);
}).listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
