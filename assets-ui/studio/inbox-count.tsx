/** The header's link to the person's notifications with the unread count (GET /v1/inbox/unread), kept current. */
import { useEffect, useState } from 'preact/hooks';
import { useStudio } from './ctx';

/** Fired on `window` by a page that changed what is read, so the header counts again at once. */
export const INBOX_CHANGED = 'vs-inbox-changed';

/** How often the count is read again while the studio is open (ms). */
const POLL_MS = 15_000;

/** The link with its count; nothing for a person who cannot read events. */
export function InboxCount() {
  const { t, f, get, can, me } = useStudio();
  const [n, setN] = useState<number | null>(null);
  const allowed = can('events:read');
  useEffect(() => {
    if (!allowed) return;
    let live = true;
    const load = () => { get<{ unread: number }>('/v1/inbox/unread').then((r) => { if (live) setN(r.unread); }, () => {}); };
    load();
    const h = setInterval(load, POLL_MS);
    window.addEventListener(INBOX_CHANGED, load);
    return () => { live = false; clearInterval(h); window.removeEventListener(INBOX_CHANGED, load); };
  }, [allowed, me?.current_tenant?.id]);
  if (!allowed || n === null) return null;
  return (
    <a id="inbox-count" href="/studio/notifications" aria-label={t('nt_header', { n })} title={t('nt_unread_title', { n })} style={{ whiteSpace: 'nowrap', textDecoration: 'none' }}>
      <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" style={{ verticalAlign: 'middle' }}>
        <path d="M22 12h-6l-2 3h-4l-2-3H2" /><path d="M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z" />
      </svg> <span id="inbox-unread-n" class={n ? 'badge b-firing' : 'badge'}>{f.num(n)}</span>
    </a>
  );
}
