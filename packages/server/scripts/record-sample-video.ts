/**
 * Makes the sample video the watch page plays for a webinar without a video URL (assets/sample.webm): a canvas
 * animation (a clock face, a moving bar and the elapsed seconds) recorded with MediaRecorder in Chromium to WebM
 * (VP8), 40 seconds at a low bit rate so the file stays well under 1 MB.
 *
 * Run: `pnpm --filter @org/webinar-server record:sample-video` (CHROMIUM_PATH names the browser, default
 * /usr/bin/chromium). The file is committed; run this again only to change the video.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const SECONDS = 40;
const output = fileURLToPath(new URL("../assets/sample.webm", import.meta.url));

/**
 * Runs in the page (as source text, so the bundler's helpers never reach the browser): draws for `seconds` and
 * resolves with the recording as base64.
 */
const RECORD = `async (seconds) => {
  const canvas = document.createElement("canvas");
  canvas.width = 320;
  canvas.height = 180;
  document.body.append(canvas);
  const g = canvas.getContext("2d");
  const stream = canvas.captureStream(15);
  const recorder = new MediaRecorder(stream, { mimeType: "video/webm;codecs=vp8", videoBitsPerSecond: 120_000 });
  const chunks = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const started = performance.now();
  const draw = () => {
    const t = (performance.now() - started) / 1000;
    g.fillStyle = "#14213d";
    g.fillRect(0, 0, 320, 180);
    g.strokeStyle = "#fca311";
    g.lineWidth = 4;
    g.beginPath();
    g.arc(90, 90, 60, 0, 2 * Math.PI);
    g.stroke();
    const angle = (t / 60) * 2 * Math.PI - Math.PI / 2;
    g.beginPath();
    g.moveTo(90, 90);
    g.lineTo(90 + 55 * Math.cos(angle), 90 + 55 * Math.sin(angle));
    g.stroke();
    g.fillStyle = "#e5e5e5";
    g.font = "bold 28px sans-serif";
    g.fillText(\`\${Math.floor(t)} s\`, 180, 80);
    g.font = "14px sans-serif";
    g.fillText("Sample webinar video", 170, 110);
    g.fillStyle = "#fca311";
    g.fillRect(0, 170, (320 * t) / seconds, 10);
  };
  const timer = setInterval(draw, 1000 / 15);
  draw();
  return new Promise((resolve) => {
    recorder.onstop = async () => {
      clearInterval(timer);
      const bytes = new Uint8Array(await new Blob(chunks, { type: "video/webm" }).arrayBuffer());
      let binary = "";
      for (const byte of bytes) binary += String.fromCharCode(byte);
      resolve(btoa(binary));
    };
    recorder.start(1000);
    setTimeout(() => recorder.stop(), seconds * 1000);
  });
}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
try {
  const page = await browser.newPage();
  await page.setContent("<!doctype html><body></body>");
  const base64 = await page.evaluate<string>(`(${RECORD})(${SECONDS})`);
  const bytes = Buffer.from(base64, "base64");
  await writeFile(output, bytes);
  console.log(`wrote ${output.split("/").slice(-2).join("/")}: ${bytes.length} bytes, ${SECONDS} s`);
} finally {
  await browser.close();
}
