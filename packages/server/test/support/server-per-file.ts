/**
 * The usual shape of a server test file: one database and one server for the whole file, a merchant to call
 * with, everything closed at the end, and after every test the check that no answer broke the spec's contract.
 */
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { ServerOptions } from "../../src/server";
import { openTestDatabase, type DatabaseKind, type TestDatabase } from "./databases";
import { startTestServer, type Merchant, type TestServer } from "./harness";

/** Filled in by `beforeAll`; `api` may be replaced by a test that restarts the server. */
export interface ServerFixture {
  database: TestDatabase;
  api: TestServer;
  merchant: Merchant;
}

export function useServerPerFile(
  kind: DatabaseKind,
  label: string,
  env: Record<string, string> = {},
  options: ServerOptions = {},
): ServerFixture {
  const fixture = {} as ServerFixture;
  beforeAll(async () => {
    fixture.database = await openTestDatabase(kind, label);
    fixture.api = await startTestServer(fixture.database, env, options);
    fixture.merchant = await fixture.api.newMerchant();
  });
  afterAll(async () => {
    await fixture.api?.close();
    await fixture.database?.close();
  });
  afterEach(() => {
    expect(fixture.api.violations).toEqual([]);
  });
  return fixture;
}
