/**
 * The client's address of a request, for the console's sign-in throttle and its list of sessions. Behind a reverse
 * proxy the socket's peer is the proxy, so every person would share one address; the proxies named in
 * WEBINAR_TRUSTED_PROXIES add the address they received the request from to `X-Forwarded-For`, and only their
 * word is believed: walking the header from its right end (the entry the nearest proxy added), the first address
 * that is not a trusted proxy is the client. A client can write anything into the header it sends, but that part
 * lies left of what the trusted proxies appended, so it is never reached while a proxy is untrusted.
 */
import { BlockList, isIP } from "node:net";

/** The trusted proxies: addresses and CIDR ranges, IPv4 and IPv6 (IPv4-mapped IPv6 peers match their IPv4 entry). */
export interface TrustedProxies {
  /** The entries as configured, for the start banner and errors. */
  readonly entries: readonly string[];
  has(address: string): boolean;
}

/** One configured entry as an address or a range, or undefined when it is neither. */
function parseEntry(entry: string): { address: string; prefix?: number; family: "ipv4" | "ipv6" } | undefined {
  const [address = "", prefixText, extra] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return undefined;
  const family = version === 4 ? "ipv4" : "ipv6";
  if (prefixText === undefined) return { address, family };
  const prefix = /^[0-9]{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= (version === 4 ? 32 : 128))) return undefined;
  return { address, prefix, family };
}

/**
 * The trusted proxies of a comma-separated list (`10.0.0.0/8, 127.0.0.1`), or the entries that are neither an
 * address nor a CIDR range.
 *
 * @example
 * const parsed = parseTrustedProxies("127.0.0.1, 10.0.0.0/8");
 * if ("invalid" in parsed) throw new Error(parsed.invalid.join(", "));
 */
export function parseTrustedProxies(list: string): TrustedProxies | { invalid: string[] } {
  const entries = list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const blocks = new BlockList();
  const invalid: string[] = [];
  for (const entry of entries) {
    const parsed = parseEntry(entry);
    if (parsed === undefined) invalid.push(entry);
    else if (parsed.prefix === undefined) blocks.addAddress(parsed.address, parsed.family);
    else blocks.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  if (invalid.length > 0) return { invalid };
  return {
    entries,
    has: (address) => {
      const version = isIP(address);
      return version !== 0 && blocks.check(address, version === 4 ? "ipv4" : "ipv6");
    },
  };
}

/** No proxy is trusted: the socket's peer is the client. */
export const NO_TRUSTED_PROXIES: TrustedProxies = { entries: [], has: () => false };

/** An IPv4 peer reached over an IPv6 socket (`::ffff:203.0.113.9`) as plain IPv4, so one client has one address. */
function plain(address: string): string {
  const mapped = /^::ffff:([0-9.]+)$/i.exec(address)?.[1];
  return mapped !== undefined && isIP(mapped) === 4 ? mapped : address;
}

/** The longest client address kept: an IPv6 address with a zone fits; a longer header entry is cut here. */
const MAX_ADDRESS_LENGTH = 64;

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then the rightmost address of
 * `X-Forwarded-For` (every header of that name, in order, joined with commas) that is not a trusted proxy. When
 * every listed address is trusted, the leftmost. An entry that is no IP address but was appended by a trusted proxy
 * is taken as it stands (cut to 64 characters): the proxy vouched for it, and it is no proxy of ours.
 *
 * @example
 * clientAddress("127.0.0.1", "203.0.113.9, 10.0.0.2", parseTrustedProxies("127.0.0.1, 10.0.0.0/8")); // "203.0.113.9"
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  if (peer === undefined) return "unknown";
  let client = plain(peer);
  if (!trusted.has(client) || forwardedFor === undefined) return client;
  const hops = forwardedFor.split(",").map((hop) => plain(hop.trim()).slice(0, MAX_ADDRESS_LENGTH));
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index]!;
    if (hop === "") continue;
    client = hop;
    if (!trusted.has(hop)) break;
  }
  return client;
}
