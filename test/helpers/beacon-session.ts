/**
 * Beacons count only when bound to a playback session the issuer created (docs/beacons.md, "Binding"): tests that
 * post beacons by hand open real sessions first, through the API, as a customer's backend would.
 */

/** A channel to bind sessions to (creating one runs no ffmpeg); returns its slug. */
export async function beaconChannel(base: string, key: string, name = `Beacons ${crypto.randomUUID().slice(0, 8)}`): Promise<string> {
  const r = await fetch(`${base}/v1/channels`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  if (r.status !== 201) throw new Error(`channel: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { slug: string }).slug;
}

/** The `sid` of a new playback session for `target` (POST /v1/playback/tokens with the key). */
export async function playbackSid(base: string, key: string, target: Record<string, unknown>): Promise<string> {
  const r = await fetch(`${base}/v1/playback/tokens`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(target) });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { sid: string }).sid;
}
