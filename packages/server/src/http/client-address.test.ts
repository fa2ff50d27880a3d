import { describe, expect, it } from "vitest";
import { clientAddress, NO_TRUSTED_PROXIES, parseTrustedProxies, type TrustedProxies } from "./client-address";

function trusted(list: string): TrustedProxies {
  const parsed = parseTrustedProxies(list);
  if ("invalid" in parsed) throw new Error(`invalid: ${parsed.invalid.join(", ")}`);
  return parsed;
}

describe("parseTrustedProxies (WEBINAR_TRUSTED_PROXIES)", () => {
  it.each([
    ["an IPv4 address", "127.0.0.1", "127.0.0.1", true],
    ["an IPv4 range", "10.0.0.0/8", "10.200.3.4", true],
    ["outside the range", "10.0.0.0/8", "11.0.0.1", false],
    ["an IPv6 address", "::1", "::1", true],
    ["an IPv6 range", "fd00::/8", "fd12:3456::1", true],
    ["an IPv4-mapped IPv6 peer matches its IPv4 entry", "127.0.0.1", "::ffff:127.0.0.1", true],
    ["several entries, spaces around commas", " 127.0.0.1 , 192.168.0.0/16 ", "192.168.7.7", true],
    ["no address at all is never trusted", "127.0.0.1", "unknown", false],
  ])("%s", (_rule, list, address, expected) => {
    expect(trusted(list).has(address)).toBe(expected);
  });

  it.each([
    ["a host name", "proxy.internal"],
    ["a prefix too long", "10.0.0.0/33"],
    ["a prefix that is no number", "10.0.0.0/eight"],
    ["two prefixes", "10.0.0.0/8/8"],
    ["an IPv6 prefix too long", "fd00::/129"],
  ])("refuses %s, naming it", (_rule, entry) => {
    expect(parseTrustedProxies(`127.0.0.1, ${entry}`)).toEqual({ invalid: [entry] });
  });
});

describe("clientAddress: the rightmost X-Forwarded-For address that is not a trusted proxy", () => {
  const proxies = trusted("127.0.0.1, 10.0.0.0/8");
  it.each([
    [
      "no trusted proxy: the socket's peer, whatever the header says",
      NO_TRUSTED_PROXIES,
      "127.0.0.1",
      "203.0.113.9",
      "127.0.0.1",
    ],
    ["an untrusted peer: its own address, the header ignored", proxies, "198.51.100.7", "203.0.113.9", "198.51.100.7"],
    ["a trusted peer without the header: the peer", proxies, "127.0.0.1", undefined, "127.0.0.1"],
    ["a trusted peer: the address it forwarded", proxies, "127.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["two trusted hops: the address left of them", proxies, "127.0.0.1", "203.0.113.9, 10.1.2.3", "203.0.113.9"],
    [
      "a client's own forged entries left of the real one are never reached",
      proxies,
      "127.0.0.1",
      "1.2.3.4, 203.0.113.9",
      "203.0.113.9",
    ],
    ["every hop trusted: the leftmost", proxies, "127.0.0.1", "10.0.0.5, 10.0.0.6", "10.0.0.5"],
    [
      "an entry a trusted proxy appended that is no address is taken as it stands",
      proxies,
      "127.0.0.1",
      "203.0.113.9, client-b",
      "client-b",
    ],
    ["empty entries are skipped", proxies, "127.0.0.1", "203.0.113.9, , ", "203.0.113.9"],
    ["an entry longer than 64 characters is cut", proxies, "127.0.0.1", "x".repeat(100), "x".repeat(64)],
    ["an IPv4-mapped IPv6 peer reads as IPv4", NO_TRUSTED_PROXIES, "::ffff:198.51.100.7", undefined, "198.51.100.7"],
    ["IPv6 clients", proxies, "127.0.0.1", "2001:db8::7", "2001:db8::7"],
    ["no socket: unknown", proxies, undefined, "203.0.113.9", "unknown"],
  ])("%s", (_rule, list, peer, forwardedFor, expected) => {
    expect(clientAddress(peer, forwardedFor, list)).toBe(expected);
  });
});
