/**
 * Creates the embedded database's initial data directory once per machine (PGlite's initdb takes seconds) as a
 * tarball in the temp directory, keyed by the PGlite build; every test file starts its PGlite from it.
 */
import { existsSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { PGlite } from "@electric-sql/pglite";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshotFile: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const build = createHash("sha256")
    .update(createRequire(import.meta.url).resolve("@electric-sql/pglite"))
    .digest("hex")
    .slice(0, 16);
  const file = path.join(os.tmpdir(), `webinar-server-pglite-${build}.tar.gz`);
  if (!existsSync(file)) {
    const pglite = await PGlite.create();
    const dump = await pglite.dumpDataDir("gzip");
    await pglite.close();
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
  }
  project.provide("pgliteSnapshotFile", file);
}
