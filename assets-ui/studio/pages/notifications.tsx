/**
 * My notifications: the person's inbox (GET /v1/inbox: what their notification rules routed here), newest first,
 * unread only on demand, mark one or all read (the header's count follows), older pages; a link to the rules.
 */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { INBOX_CHANGED } from '../inbox-count';
import { eventName } from '../names';
import { Empty, Loading, PageHead, Problem, useLoad } from '../ui';

/** One inbox item as the API answers it. */
export interface InboxItem { id: string; event_id: string; type: string; severity: string; channel_id: string | null; title: string; data: unknown; at: string; read: boolean; read_at: string | null; email: string | null }
interface InboxPage { items: InboxItem[]; unread: number; next_before: string | null }

/** Severity badge colours. */
export const SEV_BADGE: Record<string, string> = { info: 'b-ready', warning: 'b-pending', critical: 'b-failed' };

/** The inbox page. */
export function Notifications() {
  const { t, f, get, api } = useStudio();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [older, setOlder] = useState<{ items: InboxItem[]; next: string | null | undefined }>({ items: [], next: undefined });
  const [err, setErr] = useState<string | null>(null);
  const page = useLoad(() => get<InboxPage>(`/v1/inbox?limit=50${unreadOnly ? '&unread=true' : ''}`).then((r) => { setOlder({ items: [], next: undefined }); return r; }), [unreadOnly]);
  const [readNow, setReadNow] = useState<Map<string, string>>(new Map());
  const [unread, setUnread] = useState<number | null>(null);
  const items = [...(page.data?.items ?? []), ...older.items].map((x) => (readNow.has(x.id) ? { ...x, read: true, read_at: readNow.get(x.id)! } : x));
  const next = older.next === undefined ? page.data?.next_before ?? null : older.next;
  const count = unread ?? page.data?.unread ?? 0;
  const changed = () => window.dispatchEvent(new Event(INBOX_CHANGED));
  const markOne = async (id: string) => {
    setErr(null);
    try {
      const r = await api<{ item: InboxItem; unread: number }>('POST', `/v1/inbox/${encodeURIComponent(id)}/read`);
      setReadNow((m) => new Map(m).set(id, r.item.read_at ?? new Date().toISOString()));
      setUnread(r.unread); changed();
    } catch (x) { setErr(errorWords(x)); }
  };
  const markAll = async () => {
    setErr(null);
    try {
      const r = await api<{ marked: number; unread: number }>('POST', '/v1/inbox/read-all');
      setReadNow((m) => { const n = new Map(m); for (const x of items) if (!x.read) n.set(x.id, new Date().toISOString()); return n; });
      setUnread(r.unread); changed();
    } catch (x) { setErr(errorWords(x)); }
  };
  const more = async () => {
    if (!next) return;
    try {
      const r = await get<InboxPage>(`/v1/inbox?limit=50&before=${encodeURIComponent(next)}${unreadOnly ? '&unread=true' : ''}`);
      setOlder((o) => ({ items: [...o.items, ...r.items], next: r.next_before }));
    } catch (x) { setErr(errorWords(x)); }
  };
  return (
    <>
      <PageHead title={t('nt_title')}><a href="/studio/notifications/rules" id="rules-link">{t('nt_rules_link')}</a></PageHead>
      <section class="panel wide" aria-labelledby="nt-inbox-h">
        <div class="row-between">
          <h2 id="nt-inbox-h">{t('nt_inbox')} {count > 0 && <span class="badge b-firing" id="nt-unread">{t('nt_unread', { n: f.num(count) })}</span>}</h2>
          <div class="c-tools">
            <label class="check"><input type="checkbox" id="nt-only-unread" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.currentTarget.checked)} /> {t('nt_only_unread')}</label>
            <button type="button" class="small" id="nt-read-all" onClick={markAll} disabled={!count}>{t('nt_mark_all')}</button>
          </div>
        </div>
        <Problem error={err} />
        {page.loading && !page.data ? <Loading /> : page.error ? <Problem error={page.error} onRetry={page.reload} /> : !items.length ? <Empty>{t('nt_none')}</Empty> : (
          <ul class="i-list" id="nt-items">{items.map((x) => (
            <li key={x.id} class={x.read ? '' : 'i-new'} data-id={x.id} data-type={x.type}>
              <div class="nt-row">
                <span class={`badge ${SEV_BADGE[x.severity] ?? ''}`}>{t(`nt_sev_${x.severity}` as Key)}</span>
                <strong class="i-type" title={x.type}>{eventName(t, x.type)}</strong>
                <span class="i-sum" dir="auto">{x.title !== x.type ? x.title : ''}</span>
                <time dateTime={x.at}>{f.short(x.at)}</time>
                {x.email && <small class="muted">{t('nt_email', { state: t(`nt_email_${x.email}` as Key) })}</small>}
                {x.read ? <small class="muted">{t('nt_read')}</small> : <button type="button" class="small nt-mark" onClick={() => markOne(x.id)}>{t('nt_mark')}</button>}
              </div>
            </li>
          ))}</ul>
        )}
        {next && <button type="button" class="small" id="nt-more" onClick={more}>{t('nt_more')}</button>}
      </section>
    </>
  );
}
