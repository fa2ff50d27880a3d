/**
 * The watch page's English messages: the reference catalogue, whose keys every other language must have
 * (catalogue.ts). ICU MessageFormat (FormatJS): `{name}` is a value, `{count, plural, one {…} other {…}}` picks the
 * language's plural form. Text only: nothing here is read as HTML.
 */
export const en = {
  "page.title": "Webinar",
  "page.untitled": "Webinar {ticketCode}",
  "page.signingIn": "Signing in…",

  "state.SCHEDULED": "Scheduled: the live has not started yet. This page switches to the video when it starts.",
  "state.LIVE": "Live now",
  "state.REPLAY": "The live has ended. Watch the replay.",
  "state.ENDED": "The live has ended. There is no replay.",
  "state.CANCELLED": "This webinar was cancelled.",

  "ticket.USED": "This link has already been used. Please ask for a new link.",
  "ticket.EXPIRED": "This link has expired. Please ask for a new link.",
  "ticket.SUPERSEDED": "This link was replaced by a newer one. Please ask for a new link.",
  "ticket.invalid": "This link is not valid for this webinar. Please ask for a new link.",
  "ticket.failed": "Signing in failed. Please try again in a moment.",
  "ticket.unreachable": "The watch service cannot be reached. Check your connection and try again.",
  "session.none": "Open this page with the login link you were given.",
  "session.ended": "Your watch session has ended. Please ask for a new link.",

  "player.region": "Video",
  "player.controls": "Player controls",
  "player.play": "Play",
  "player.pause": "Pause",
  "player.mute": "Mute",
  "player.unmute": "Unmute",
  "player.volume": "Volume",
  "player.seek": "Position",
  "player.position": "{current} of {duration}",
  "player.speed": "Speed",
  "player.quality": "Quality",
  "player.qualityAuto": "Auto",
  "player.rendition": "{height}p",
  "player.bitrate": "{kbps} kbit/s",
  "player.fullscreen": "Full screen",
  "player.exitFullscreen": "Exit full screen",
  "player.live": "LIVE",
  "player.loading": "Loading the video…",
  "player.reconnecting":
    "The stream stopped. Reconnecting… {attempts, plural, =0 {} one {(tried # time)} other {(tried # times)}}",
  "player.offline": "You are offline. The stream resumes when the connection is back.",
  "player.unsupported": "The video cannot be played in this browser.",
} as const;
