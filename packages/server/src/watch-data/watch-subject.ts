/** Who a playback session's reports come from, as the crediting of heartbeats and stops needs to know them. */

/** A watch-page subject: a registered viewer (`uid`) or a system anonymous subject (`anonymousId`). */
export interface WatchSubject {
  /** null: an anonymous subject's heartbeat or stop (the playback session names the webinar). */
  webinarId: string | null;
  merchantId: string | null;
  uid: number | null;
  anonymousId: string | null;
}
