/**
 * The baseline: a bare node:http handler that reads the body and answers a small JSON envelope, with the same
 * IPC as server-process.ts.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = JSON.stringify({ requestId: "req_bare", data: { size: Buffer.concat(chunks).length } });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
  });
});
server.listen(0, "127.0.0.1", () => {
  process.send?.({ kind: "ready", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on("message", (message: string) => {
  if (message === "cpu") process.send?.({ kind: "cpu", cpu: process.cpuUsage() });
  if (message === "stop") server.close(() => process.exit(0));
});
