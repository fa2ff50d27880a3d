/**
 * What signing costs per call: a signed call of the client against an unsigned openapi-fetch call, both to the
 * same in-process `fetch` (a function returning a canned Response, so no network or server time is measured),
 * and `sign()` of @org/webinar-signing on its own. Prints figures; never asserts (timing is not a test).
 *
 * Targets: signed/unsigned <= 1.5x; sign() <= 10 µs.
 *
 * Run: pnpm --filter @org/webinar-client bench
 */
import { canonicalString, createSigner, sign } from "@org/webinar-signing";
import type { paths } from "@org/webinar-types";
import createClient from "openapi-fetch";
import { createWebinarClient } from "@org/webinar-client";

const ROUNDS = 15;
const CALLS_PER_ROUND = 3_000;
const baseUrl = "http://127.0.0.1:8080";
const answer = JSON.stringify({
  requestId: "req_01J9ZC4T7W",
  data: { viewer: { uid: 10086, externalUserId: "crm-10086", phone: "13800138000", displayName: "张三" }, created: false },
});
const cannedFetch = async () => new Response(answer, { status: 200, headers: { "content-type": "application/json", date: new Date().toUTCString() } });
const body = { externalUserId: "crm-10086", phone: "13800138000", displayName: "张三" };
const secret = "Vq7#tR2m!Lp9@xZ4&nB6^wK1";

const unsigned = createClient<paths>({ baseUrl, fetch: cannedFetch });
const signedWith = (crypto: "node" | "web") => createWebinarClient({ baseUrl, apiKey: "wk_live_7Qm2x9Lp4Rt8Vb1N", secret, fetch: cannedFetch, crypto });
const signedNode = signedWith("node");
const signedWeb = signedWith("web");
const canonical = canonicalString({
  apiKey: "wk_live_7Qm2x9Lp4Rt8Vb1N",
  path: "/api/v1/open/viewers/upsert",
  timestamp: "1767225600",
  nonce: "3f9c2a7d51e84b06a1c9e2f47d8b3a65",
  bodyHash: "2c2d379a98ed5a388b2f0acc6f0208fec2e2c02d190e11b423966dc41e36521c",
});

const nodeSigner = createSigner(secret, "node");
const bodyBytes = new TextEncoder().encode(JSON.stringify(body));

const cases: { name: string; run: () => Promise<unknown> }[] = [
  { name: "unsigned openapi-fetch POST", run: () => unsigned.POST("/api/v1/open/viewers/upsert", { body }) },
  { name: "signed client.upsertViewer (node:crypto)", run: () => signedNode.upsertViewer(body) },
  { name: "signed client.raw.POST (node:crypto)", run: () => signedNode.raw.POST("/api/v1/open/viewers/upsert", { body }) },
  { name: "signed client.upsertViewer (Web Crypto)", run: () => signedWeb.upsertViewer(body) },
  { name: "sign() of @org/webinar-signing (node:crypto where available)", run: () => sign(secret, canonical) },
  { name: "hash + HMAC of one request (createSigner, node:crypto)", run: () => Promise.all([nodeSigner.hashBody(bodyBytes), nodeSigner.sign(canonical)]) },
];

/**
 * Median over rounds of the mean time per call, in microseconds, and of each case's ratio to the unsigned call of
 * the same round: rounds interleave the cases, so a ratio compares calls made moments apart, which keeps this
 * VM's drift out of it.
 */
async function measure(): Promise<{ micros: Map<string, number>; ratios: Map<string, number> }> {
  const samples = new Map(cases.map((entry) => [entry.name, [] as number[]]));
  const ratioSamples = new Map(cases.map((entry) => [entry.name, [] as number[]]));
  for (const entry of cases) for (let index = 0; index < 1_000; index += 1) await entry.run();
  for (let round = 0; round < ROUNDS; round += 1) {
    const roundMicros = new Map<string, number>();
    for (const entry of cases) {
      const started = performance.now();
      for (let index = 0; index < CALLS_PER_ROUND; index += 1) await entry.run();
      roundMicros.set(entry.name, ((performance.now() - started) * 1000) / CALLS_PER_ROUND);
    }
    const unsignedMicros = roundMicros.get(cases[0]!.name)!;
    for (const [name, micros] of roundMicros) {
      samples.get(name)!.push(micros);
      ratioSamples.get(name)!.push(micros / unsignedMicros);
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    micros: new Map([...samples].map(([name, values]) => [name, median(values)])),
    ratios: new Map([...ratioSamples].map(([name, values]) => [name, median(values)])),
  };
}

const { micros, ratios } = await measure();
console.log(`signed-call bench: median of ${ROUNDS} rounds x ${CALLS_PER_ROUND} calls, Node ${process.version}\n`);
for (const [name, us] of micros) {
  const ratio = name.includes("POST") || name.includes("upsertViewer") ? `  ${ratios.get(name)!.toFixed(2)}x unsigned` : "";
  console.log(`${name.padEnd(46)} ${us.toFixed(2).padStart(8)} µs${ratio}`);
}
const signedRatio = ratios.get(cases[1]!.name)!;
const signUs = micros.get(cases[4]!.name)!;
const nodeSignUs = micros.get(cases[5]!.name)!;
console.log(`\nratio signed/unsigned (node:crypto, the default on Node): ${signedRatio.toFixed(2)}x (target <= 1.5x)`);
console.log(`sign(): ${signUs.toFixed(2)} µs (target <= 10 µs); the client's node:crypto hash + HMAC: ${nodeSignUs.toFixed(2)} µs`);
