/**
 * A viewer's phone number as a person who may not see it whole sees it (the console's ANALYST): its first three and
 * last four digits, `138****0000`, enough to tell viewers apart and to find one a merchant already knows.
 */

/**
 * @example
 * maskPhone("13800000000"); // "138****0000"
 */
export function maskPhone(phone: string): string {
  // Every stored phone is a mainland-China mobile number of 11 digits; anything shorter keeps only its last four.
  return phone.length >= 11 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : `****${phone.slice(-4)}`;
}
