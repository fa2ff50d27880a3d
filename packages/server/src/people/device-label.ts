/**
 * A coarse name for the device a session was started on, `Chrome on macOS`, read from its `User-Agent` so a person
 * can tell their sessions apart in the list. Only the browser's family and the system are kept, never versions or
 * the header itself: enough to recognise a device, too little to fingerprint it.
 */

/** Browser families, in the order to test them: Edge and Opera also say Chrome, Chrome also says Safari. */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

/** Systems, in the order to test them: iPhone and Android user agents also name Mac OS X and Linux. */
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const find = (table: ReadonlyArray<readonly [RegExp, string]>, text: string) =>
  table.find(([pattern]) => pattern.test(text))?.[1];

/**
 * @example
 * deviceLabel("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) ... Chrome/126.0 Safari/537.36"); // "Chrome on macOS"
 */
export function deviceLabel(userAgent: string | undefined): string {
  const text = userAgent ?? "";
  const browser = find(BROWSERS, text);
  const system = find(SYSTEMS, text);
  if (browser === undefined && system === undefined) return "Unknown device";
  if (system === undefined) return browser!;
  return `${browser ?? "A browser"} on ${system}`;
}
