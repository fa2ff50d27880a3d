import { describe, expect, test } from "vitest";
import { OPERATIONS } from "./operations";
import { loadBenchOptions } from "./options";

const ALL = OPERATIONS.map((operation) => operation.id);

describe("loadBenchOptions: what is measured", () => {
  test.each([
    {
      name: "no flags -> every operation, the two-process rows, 3000 heartbeat viewers, no profile",
      argv: [],
      expected: { operations: ALL, twoProcesses: true, heartbeatViewers: 3000, profile: undefined },
    },
    {
      name: "--quick -> 300 heartbeat viewers",
      argv: ["--quick"],
      expected: { operations: ALL, twoProcesses: true, heartbeatViewers: 300, profile: undefined },
    },
    {
      name: "--viewers 20000 -> that many heartbeat viewers",
      argv: ["--viewers", "20000"],
      expected: { operations: ALL, twoProcesses: true, heartbeatViewers: 20000, profile: undefined },
    },
    {
      name: "--only in any order -> those operations in the table's order, no two-process rows",
      argv: ["--only", "heartbeat,upsertNewViewer"],
      expected: {
        operations: ["upsertNewViewer", "heartbeat"],
        twoProcesses: false,
        heartbeatViewers: 3000,
        profile: undefined,
      },
    },
    {
      name: "--profile heartbeat -> only the heartbeats, profiled",
      argv: ["--profile", "heartbeat"],
      expected: { operations: ["heartbeat"], twoProcesses: false, heartbeatViewers: 3000, profile: "heartbeat" },
    },
    {
      name: "--tracing -> every operation, also on a traced server, no two-process rows",
      argv: ["--tracing"],
      expected: { operations: ALL, twoProcesses: false, tracing: true, profile: undefined, rounds: 3 },
    },
    {
      name: "--tracing --rounds 5 -> five rounds of every server",
      argv: ["--tracing", "--rounds", "5"],
      expected: { tracing: true, rounds: 5 },
    },
    {
      name: "--quick -> one round",
      argv: ["--quick", "--tracing"],
      expected: { tracing: true, rounds: 1 },
    },
  ])("$name", ({ argv, expected }) => {
    expect(loadBenchOptions(argv, {})).toMatchObject(expected);
  });

  test("BENCH_LOAD_VIEWERS sets the heartbeat viewers; the flag wins over it", () => {
    expect(loadBenchOptions([], { BENCH_LOAD_VIEWERS: "500" })?.heartbeatViewers).toBe(500);
    expect(loadBenchOptions(["--viewers", "700"], { BENCH_LOAD_VIEWERS: "500" })?.heartbeatViewers).toBe(700);
  });

  test.each([
    { argv: ["--only", "heartbeats"], message: 'got "heartbeats"' },
    { argv: ["--profile", "heartbeat,issueLoginTicket"], message: "--profile takes one operation" },
    { argv: ["--viewers", "0"], message: "--viewers must be a whole number >= 1" },
    { argv: ["--rounds", "0"], message: "--rounds must be a whole number >= 1" },
    { argv: ["--tracing", "--profile", "heartbeat"], message: "--tracing and --profile measure apart" },
  ])("$argv -> error naming what is wrong", ({ argv, message }) => {
    expect(() => loadBenchOptions(argv, {})).toThrow(message);
  });
});
