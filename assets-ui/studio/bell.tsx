/** The header's alert bell: how many alerts fire now, a list of them with acknowledge, kept current from the event stream. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorWords } from './api';
import { useStudio } from './ctx';
import { useEventStream } from './events';
import { Badge, Problem } from './ui';
import { alertWords } from './alert-words';

/** A firing alert as GET /v1/alerts answers it (the parts the bell shows). */
interface Alert { id: string; summary: string; severity: string; state: string; started_at: string; acked_at: string | null; monitor_name: string; check?: string; detail?: Record<string, unknown> }

/** The bell; renders nothing where alerts cannot be read (monitors switched off, or no scope to read them). */
export function Bell() {
  const { t, f, get, api, me } = useStudio();
  const [items, setItems] = useState<Alert[] | null>(null);
  const [hidden, setHidden] = useState(false);
  const [open, setOpen] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const seq = useRef(0);
  const load = useCallback(async () => {
    const n = ++seq.current;
    try {
      const r = await get<{ items: Alert[] }>('/v1/alerts?state=firing&limit=50');
      if (n === seq.current) { setItems(r.items); setHidden(false); }
    } catch (e) {
      // 403 (feature_disabled, or the person's role cannot read alerts) or 404: no bell at all.
      if (e instanceof ApiError && (e.status === 403 || e.status === 404)) setHidden(true);
    }
  }, [me?.current_tenant?.id]);
  useEffect(() => { void load(); }, [load]);
  useEventStream((fr) => { if (fr.event === 'alert.firing' || fr.event === 'alert.resolved') void load(); }, 'types=alert.firing,alert.resolved');
  // Escape or a click outside closes the list.
  useEffect(() => {
    if (!open) return;
    const key = (e: KeyboardEvent) => { if (e.key === 'Escape') { setOpen(false); box.current?.querySelector<HTMLButtonElement>('#bell')?.focus(); } };
    const click = (e: MouseEvent) => { if (!box.current?.contains(e.target as Node)) setOpen(false); };
    document.addEventListener('keydown', key);
    document.addEventListener('click', click);
    return () => { document.removeEventListener('keydown', key); document.removeEventListener('click', click); };
  }, [open]);
  const ack = async (id: string) => {
    setErr(null);
    try {
      const a = await api<Alert>('POST', `/v1/alerts/${encodeURIComponent(id)}/ack`);
      setItems((l) => l?.map((x) => (x.id === id ? { ...x, acked_at: a.acked_at } : x)) ?? null);
    } catch (e) { setErr(errorWords(e)); }
  };
  if (hidden || items === null) return null;
  const n = items.length;
  return (
    <div class="bell" ref={box}>
      <button type="button" class="small" id="bell" aria-expanded={open} aria-controls="bell-list" aria-label={t('lv_alerts_n', { n })} onClick={() => setOpen(!open)}>
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" style={{ verticalAlign: 'middle' }}>
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" /><path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg> <span id="bell-count" class={n ? 'badge b-firing' : 'badge'}>{f.num(n)}</span>
      </button>
      {open && (
        <div id="bell-list" class="panel" role="region" aria-label={t('lv_alerts')}
          style={{ position: 'fixed', insetInlineEnd: '.5rem', insetBlockStart: '3rem', zIndex: 20, inlineSize: 'min(24rem, 90vw)', maxBlockSize: '60vh', overflowY: 'auto', boxShadow: '0 6px 24px #0003' }}>
          <h2 style={{ marginBlockStart: 0 }}>{t('lv_alerts')}</h2>
          <Problem error={err} />
          {!n ? <p class="muted">{t('lv_no_firing')}</p> : (
            <ul class="health">
              {items.map((a) => (
                <li key={a.id} class="bell-alert" data-id={a.id}>
                  <Badge status={a.severity} /> <strong>{a.monitor_name}</strong>
                  <div dir="auto">{alertWords(t, a)}</div>
                  <small class="muted">{t('lv_since', { t: f.short(a.started_at) })}</small>{' '}
                  {a.acked_at ? <small class="acked">{t('lv_acked', { t: f.short(a.acked_at) })}</small>
                    : <button type="button" class="small ack" onClick={() => ack(a.id)}>{t('lv_ack')}</button>}
                </li>
              ))}
            </ul>
          )}
          <button type="button" class="link" onClick={() => setOpen(false)}>{t('lv_close')}</button>
        </div>
      )}
    </div>
  );
}
