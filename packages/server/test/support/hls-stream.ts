/**
 * Test streams made by ffmpeg (Debian's), served by a local HTTP server the test controls:
 *
 * - `startLiveStream()`: a live HLS stream of a test pattern and a tone, in real time (`-re`), two renditions
 *   (640x360 and 320x180) behind a master playlist, 1-second segments in a sliding window of 6;
 * - `makeReplayStream()`: a finished (VOD) HLS stream of `seconds` of the same pattern, made as fast as ffmpeg can;
 * - `serveStreams()`: serves such folders over HTTP on 127.0.0.1 with CORS (hls.js reads them from another
 *   origin), and can hold segments back (a stall at the edge) or answer the playlists 404 (an edge that lost them).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

export const FFMPEG_PATH = process.env.FFMPEG_PATH ?? "/usr/bin/ffmpeg";

/** The playlist every stream folder starts from. */
export const MASTER_PLAYLIST = "master.m3u8";

/** ffmpeg's arguments for two H.264/AAC renditions of the test pattern as HLS in `folder`. */
function hlsArguments(folder: string, extra: { input: string[]; hls: string[] }): string[] {
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    ...extra.input,
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=640x360:rate=25",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440",
    "-filter_complex",
    "[0:v]format=yuv420p,split=2[hi][lo0];[lo0]scale=320:180[lo]",
    "-map",
    "[hi]",
    "-map",
    "[lo]",
    "-map",
    "1:a",
    "-map",
    "1:a",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-tune",
    "zerolatency",
    "-g",
    "25",
    "-keyint_min",
    "25",
    "-sc_threshold",
    "0",
    "-b:v:0",
    "800k",
    "-b:v:1",
    "250k",
    "-c:a",
    "aac",
    "-b:a",
    "64k",
    "-f",
    "hls",
    "-hls_time",
    "1",
    ...extra.hls,
    "-master_pl_name",
    MASTER_PLAYLIST,
    "-var_stream_map",
    "v:0,a:0 v:1,a:1",
    "-hls_segment_filename",
    path.join(folder, "s%v_%05d.ts"),
    path.join(folder, "stream_%v.m3u8"),
  ];
}

export interface LiveStream {
  readonly folder: string;
  stop(): Promise<void>;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Starts a live stream; resolves once its playlists hold at least three segments. */
export async function startLiveStream(): Promise<LiveStream> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "webinar-live-hls-"));
  const child: ChildProcess = spawn(
    FFMPEG_PATH,
    hlsArguments(folder, {
      input: ["-re"],
      hls: ["-hls_list_size", "6", "-hls_flags", "delete_segments+independent_segments"],
    }),
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const errors: string[] = [];
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => errors.push(chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const segments = async (name: string) =>
    existsSync(path.join(folder, name))
      ? ((await readFile(path.join(folder, name), "utf8")).match(/\.ts$/gm) ?? []).length
      : 0;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`ffmpeg exited: ${errors.join("")}`);
        return existsSync(path.join(folder, MASTER_PLAYLIST)) && (await segments("stream_1.m3u8")) >= 3;
      },
      30_000,
      "the live stream's first segments",
    );
  } catch (error) {
    child.kill("SIGKILL");
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    folder,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Makes a finished HLS stream of `seconds` (a replay); returns its folder. */
export async function makeReplayStream(seconds: number): Promise<{ folder: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "webinar-replay-hls-"));
  const args = hlsArguments(folder, { input: [], hls: ["-hls_playlist_type", "vod", "-t", String(seconds)] });
  await promisify(execFile)(FFMPEG_PATH, args, { maxBuffer: 1 << 20 });
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

export interface StreamServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The URL of a folder's master playlist, served as `/<name>/master.m3u8`. */
  url(name: string): string;
  /** Holds back every segment request from now on (they wait) until released: the stream stalls. */
  holdSegments(hold: boolean): void;
  /** Answers every playlist 404 from now on, or serves them again. */
  playlistsMissing(missing: boolean): void;
  /** How many segment requests were answered. */
  segmentsServed(): number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { ".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t" };

/** Serves `folders` (name: folder) at `/<name>/…`. */
export async function serveStreams(folders: Record<string, string>): Promise<StreamServer> {
  let hold = false;
  let missing = false;
  let served = 0;
  const held: (() => void)[] = [];
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    response.setHeader("Access-Control-Allow-Origin", "*");
    response.setHeader("Cache-Control", "no-cache");
    const [, name = "", file = ""] =
      /^\/([\w-]+)\/([\w.-]+)$/.exec(new URL(request.url ?? "/", "http://x").pathname) ?? [];
    const folder = folders[name];
    const type = TYPES[path.extname(file)];
    if (folder === undefined || type === undefined) return response.writeHead(404).end();
    if (type === TYPES[".m3u8"] && missing) return response.writeHead(404).end();
    if (type === TYPES[".ts"]) {
      while (hold) await new Promise<void>((resolve) => held.push(resolve));
    }
    try {
      const body = await readFile(path.join(folder, file));
      if (type === TYPES[".ts"]) served += 1;
      response.writeHead(200, { "Content-Type": type, "Content-Length": body.length }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  };
  const server = createServer((request, response) => {
    answer(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (name) => `${origin}/${name}/${MASTER_PLAYLIST}`,
    holdSegments(next) {
      hold = next;
      if (!next) for (const release of held.splice(0)) release();
    },
    playlistsMissing(next) {
      missing = next;
    },
    segmentsServed: () => served,
    async close() {
      hold = false;
      for (const release of held.splice(0)) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
