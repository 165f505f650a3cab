/** Shared building blocks: loading/empty/error states, copy button, status badge, the data-loading hook. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorWords } from './api';
import { useStudio } from './ctx';

/**
 * Loads data with fn (re-run on deps); gives {data, error, loading, reload}. Stale answers are dropped. With `key`
 * the last answer is kept in the app's cache: coming back to a page shows it at once while it refreshes.
 */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[], key?: string) {
  const { cache } = useStudio();
  const [st, setSt] = useState<{ data: T | null; error: string | null; loading: boolean }>(() => ({ data: key && cache.has(key) ? cache.get(key) as T : null, error: null, loading: true }));
  const seq = useRef(0);
  const reload = useCallback(() => {
    const n = ++seq.current;
    setSt((s) => ({ ...s, loading: true }));
    fn().then((data) => { if (key) cache.set(key, data); if (n === seq.current) setSt({ data, error: null, loading: false }); },
      (e) => { if (n === seq.current) setSt((s) => ({ data: s.data, error: errorWords(e), loading: false })); });
  }, [...deps, key]); // eslint-disable-line
  useEffect(() => { reload(); }, [reload]);
  return { ...st, reload, set: (data: T) => { if (key) cache.set(key, data); setSt({ data, error: null, loading: false }); } };
}

/** A spinner line with "Loading…". */
export function Loading() {
  const { t } = useStudio();
  return <p class="state loading" role="status"><span class="spin" aria-hidden="true" />{t('loading')}</p>;
}

/** An empty-state panel. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="state empty" role="status">{children}</div>;
}

/** A failed call, in words (role=alert so screen readers hear it). */
export function Problem({ error, onRetry }: { error: string | null; onRetry?: () => void }) {
  const { t } = useStudio();
  if (!error) return null;
  return <div class="problem" role="alert"><strong>{t('failed')}</strong> {error}{onRetry && <button class="link" onClick={onRetry}>{t('retry')}</button>}</div>;
}

/** A read-only value with a copy button; `secret` hides it all, `mask` hides only that part (until Show). */
export function CopyField({ label, value, secret, mask }: { label: string; value: string; secret?: boolean; mask?: string }) {
  const { t } = useStudio();
  const [done, setDone] = useState(false);
  const [shown, setShown] = useState(!secret && !mask);
  const copy = async () => {
    try { await navigator.clipboard.writeText(value); } catch {
      const ta = document.createElement('textarea'); ta.value = value; document.body.append(ta); ta.select(); document.execCommand('copy'); ta.remove();
    }
    setDone(true); setTimeout(() => setDone(false), 1500);
  };
  return (
    <div class="copy">
      <span class="copy-label">{label}</span>
      <code dir="ltr" class="copy-value">{shown ? value : mask ? value.split(mask).join('••••••••') : '••••••••••••'}</code>
      {(secret || mask) && <button type="button" class="small" onClick={() => setShown(!shown)}>{shown ? t('hide') : t('show')}</button>}
      <button type="button" class="small" onClick={copy} aria-label={`${t('copy')} ${label}`}>{done ? t('copied') : t('copy')}</button>
    </div>
  );
}

/** A coloured status word. */
export function Badge({ status }: { status: string }) {
  const { t } = useStudio();
  const key = `st_${status}` as Parameters<typeof t>[0];
  const text = t(key);
  return <span class={`badge b-${status}`}>{text === key ? status : text}</span>;
}

/** A page header with a title and optional actions. */
export function PageHead({ title, children }: { title: string; children?: ComponentChildren }) {
  useEffect(() => { document.title = `${title} · ViewStream`; }, [title]);
  return <header class="page-head"><h1 tabIndex={-1} id="page-title">{title}</h1><div class="actions">{children}</div></header>;
}

/** A labelled form field. */
export function Field({ label, hint, children }: { label: string; hint?: string; children: ComponentChildren }) {
  return <label class="field"><span>{label}</span>{children}{hint && <small>{hint}</small>}</label>;
}
