/**
 * Phone numbers never reach the request log in clear: a mainland-China mobile number anywhere in a logged text
 * (a path that is no operation may carry one) keeps its first three and last four digits, `138****5678`, as the
 * console shows numbers elsewhere.
 */
const PHONE = /(?<![0-9])(1[3-9][0-9])([0-9]{4})([0-9]{4})(?![0-9])/g;

/**
 * @example
 * maskPhoneNumbers("/api/v1/open/viewers/13812345678"); // "/api/v1/open/viewers/138****5678"
 */
export function maskPhoneNumbers(text: string): string {
  return text.replace(PHONE, "$1****$3");
}
