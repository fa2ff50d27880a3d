/**
 * The console's web app as the server serves it (src/console/page.ts), from the build's dist/console/: the page
 * for `/console/` and every deep link, its files with long cache headers, and a strict Content-Security-Policy on
 * each (no inline script, no framing).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type TestServer } from "./support/harness";
import { rawRequest } from "./support/raw-http";

let database: TestDatabase;
let api: TestServer;

beforeAll(async () => {
  database = await openTestDatabase("pglite", "console-pages");
  api = await startTestServer(database);
});
afterAll(async () => {
  await api?.close();
  await database?.close();
});

const builtPage = () => readFileSync(new URL("../dist/console/index.html", import.meta.url), "utf8");

describe("the console's page", () => {
  it.each([
    ["the root", "/console/"],
    ["the invite deep link", "/console/invite"],
    ["a webinar's watch data deep link", "/console/webinars/wbn-anything"],
    ["any other page path", "/console/keys/and/more"],
  ])("%s answers the built index.html with a strict CSP", async (_name, path) => {
    const response = await fetch(`${api.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe(builtPage());
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("cache-control")).toBe("no-cache");
  });

  it("/console redirects to /console/", async () => {
    const response = await fetch(`${api.url}/console`, { redirect: "manual" });
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/console/");
  });

  it("the page has no inline script: every script is a file under /console/assets/", () => {
    const scripts = [...builtPage().matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/console\/assets\//);
      expect(body!.trim()).toBe("");
    }
  });

  it("each file the page loads answers with its type and a year's immutable cache", async () => {
    const files = [...builtPage().matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const response = await fetch(`${api.url}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type"), file).toMatch(/^(text\/javascript|text\/css|image\/svg\+xml)/);
      expect(response.headers.get("cache-control"), file).toBe("public, max-age=31536000, immutable");
    }
  });

  it("an unknown file under /console/assets/ is 404, not the page", async () => {
    const response = await fetch(`${api.url}/console/assets/nothing.js`);
    expect(response.status).toBe(404);
  });

  it.each([
    ["a parent folder", "/console/assets/../../package.json"],
    ["an encoded parent folder", "/console/assets/..%2f..%2fpackage.json"],
    ["a doubled separator", "/console/assets//etc/passwd"],
  ])("%s under /console/assets/ is 404: no file outside the app's folder is served", async (_name, path) => {
    const response = await rawRequest(api.url, { method: "GET", path });
    expect(response.status).toBe(404);
    expect(JSON.stringify(response.body)).not.toContain("webinar-server");
  });

  it("encoded dot segments are resolved with the URL, before any route: they name a page path, never a file", async () => {
    const response = await rawRequest(api.url, { method: "GET", path: "/console/assets/%2e%2e/package.json" });
    expect(response.status).toBe(200);
    expect(response.body).toBe(builtPage());
  });

  it("an unknown path under /console/api/ is the API's 404 REQUEST_INVALID, not the page", async () => {
    const response = await fetch(`${api.url}/console/api/nothing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "REQUEST_INVALID" } });
  });
});
