/**
 * What signing costs a real call: openapi-fetch with the signing middleware against the same openapi-fetch call
 * unsigned, both to one local node:http server, in the same run. Rounds interleave the cases and each round's
 * ratio compares calls made moments apart, so the shared machine's drift stays out of the ratio; the figure is
 * the median of the per-round ratios. Prints figures; never asserts (timing is not a test).
 *
 * Goal: signed/unsigned <= 1.1x.
 *
 * Run: pnpm --filter @org/webinar-client bench
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { paths } from "@org/webinar-types";
import createClient from "openapi-fetch";
import { createSigningMiddleware, createWebinarClient } from "@org/webinar-client";
import { median } from "@org/webinar-internal/median";

const ROUNDS = 15;
const CALLS_PER_ROUND = 400;
const WARMUP_CALLS = 500;
const apiKey = "wk_live_7Qm2x9Lp4Rt8Vb1N";
const secret = "Vq7#tR2m!Lp9@xZ4&nB6^wK1";
const body = { externalUserId: "crm-10086", phone: "13800138000", displayName: "张三" };
const answer = JSON.stringify({
  requestId: "req_01J9ZC4T7W",
  data: {
    viewer: { uid: 10086, externalUserId: "crm-10086", phone: "13800138000", displayName: "张三" },
    created: false,
  },
});

// The server reads each body and answers the same envelope: its cost is the same for every case.
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json", date: new Date().toUTCString() });
    response.end(answer);
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const unsigned = createClient<paths>({ baseUrl });
const signedWith = (crypto: "node" | "web") => {
  const api = createClient<paths>({ baseUrl });
  api.use(createSigningMiddleware({ apiKey, secret, crypto }));
  return api;
};
const signedNode = signedWith("node");
const signedWeb = signedWith("web");
const typed = createWebinarClient({ baseUrl, apiKey, secret });

const cases: { name: string; run: () => Promise<unknown> }[] = [
  { name: "unsigned openapi-fetch POST", run: () => unsigned.POST("/api/v1/open/viewers/upsert", { body }) },
  {
    name: "signed openapi-fetch POST (node:crypto)",
    run: () => signedNode.POST("/api/v1/open/viewers/upsert", { body }),
  },
  {
    name: "signed openapi-fetch POST (Web Crypto)",
    run: () => signedWeb.POST("/api/v1/open/viewers/upsert", { body }),
  },
  { name: "typed client.upsertViewer", run: () => typed.upsertViewer(body) },
];

const micros = new Map(cases.map((entry) => [entry.name, [] as number[]]));
const ratios = new Map(cases.map((entry) => [entry.name, [] as number[]]));
for (const entry of cases) for (let index = 0; index < WARMUP_CALLS; index += 1) await entry.run();
for (let round = 0; round < ROUNDS; round += 1) {
  // Alternate the order every round, so no case always runs right after another.
  const order = round % 2 === 0 ? cases : [...cases].reverse();
  const roundMicros = new Map<string, number>();
  for (const entry of order) {
    const started = performance.now();
    for (let index = 0; index < CALLS_PER_ROUND; index += 1) await entry.run();
    roundMicros.set(entry.name, ((performance.now() - started) * 1000) / CALLS_PER_ROUND);
  }
  const unsignedMicros = roundMicros.get(cases[0]!.name)!;
  for (const [name, value] of roundMicros) {
    micros.get(name)!.push(value);
    ratios.get(name)!.push(value / unsignedMicros);
  }
}
server.close();

console.log(
  `signed-call bench: ${ROUNDS} rounds x ${CALLS_PER_ROUND} calls per case to a local node:http server, Node ${process.version}\n`,
);
for (const { name } of cases) {
  console.log(
    `${name.padEnd(42)} ${median(micros.get(name)!).toFixed(1).padStart(8)} µs/call  ${median(ratios.get(name)!).toFixed(3)}x unsigned`,
  );
}
const signedRatio = median(ratios.get(cases[1]!.name)!);
console.log(
  `\nsigned/unsigned (node:crypto, the default on Node), median of per-round ratios: ${signedRatio.toFixed(3)}x (goal <= 1.1x)`,
);
