/** The shape of a webinar's public `ticketCode` (spec schema TicketCode); anything else names no webinar. */
export const TICKET_CODE_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;
