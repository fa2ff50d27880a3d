/**
 * The console benchmark's export client, in a process of its own so that what it costs to read a download is not
 * counted as the server's time or memory: `node download-csv.mjs <url> <cookie>` GETs the CSV, discards it as it
 * arrives and prints `{"lines":…,"bytes":…,"seconds":…}`.
 */
import { get } from "node:http";

const [url, cookie] = process.argv.slice(2);
const started = performance.now();
get(url, { headers: { cookie } }, (response) => {
  if (response.statusCode !== 200) {
    process.stderr.write(`export answered ${response.statusCode}\n`);
    process.exit(1);
  }
  let lines = 0;
  let bytes = 0;
  response.on("data", (chunk) => {
    bytes += chunk.length;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines += 1;
  });
  response.on("end", () => {
    process.stdout.write(`${JSON.stringify({ lines, bytes, seconds: (performance.now() - started) / 1000 })}\n`);
  });
}).on("error", (error) => {
  process.stderr.write(`export failed: ${error.message}\n`);
  process.exit(1);
});
