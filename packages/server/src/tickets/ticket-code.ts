/**
 * The shape of a webinar's public `ticketCode` (spec schema TicketCode: 1 to 64 letters, digits, `_` and `-`);
 * anything else names no webinar. The pattern unanchored, for a route's parameter (`/w/:ticketCode{…}`), and
 * anchored, to test a value.
 */
export const TICKET_CODE_PATTERN = "[A-Za-z0-9_-]{1,64}";
export const TICKET_CODE_SHAPE = new RegExp(`^${TICKET_CODE_PATTERN}$`);
