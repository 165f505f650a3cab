// The current second's HTTP date, formatted once per second for every answer of the process (like Bun's own Date
// header): the memo holds a pure function of the clock's second, so it cannot differ between apps in one process.
let second = -1, text = '';

/** The current time as an HTTP date (RFC 9110 IMF-fixdate), formatted at most once per second. */
export function httpDateNow(): string {
  const s = Math.floor(Date.now() / 1000);
  if (s !== second) { second = s; text = new Date(s * 1000).toUTCString(); }
  return text;
}
