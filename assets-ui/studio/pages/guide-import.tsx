/** XMLTV import: pick or drop an .xml file (multipart upload) or give an EPG source URL; the answer in words. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { Field, Problem } from '../ui';

/** A sentence with {name} places filled by elements (isolated values read right inside Hebrew sentences). */
function fill(template: string, v: Record<string, ComponentChildren>): ComponentChildren[] {
  return template.split(/(\{\w+\})/).map((x) => { const m = /^\{(\w+)\}$/.exec(x); return m && m[1] in v ? v[m[1]] : x; });
}

/** The import answer (POST .../guide/import and /import-url). */
export interface ImportResult {
  xmltv_channel: string; staged: boolean; programmes: number; overlaps_resolved: number; from: string; to: string;
  replaced?: number; skipped?: { title: string; start_at: string | null; reason: string }[];
}

/** The import panel; `onDone` runs after a successful import (the page reloads the guide). */
export function ImportXmltv({ base, onDone }: { base: string; onDone: () => void }) {
  const { t, f, client } = useStudio();
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [res, setRes] = useState<ImportResult | null>(null);
  const [url, setUrl] = useState('');
  const [xch, setXch] = useState('');
  const done = (r: ImportResult) => { setRes(r); onDone(); };
  const skipWords = (reason: string) => { const w = t(`g_skip_${reason}` as Key); return w.startsWith('g_skip_') ? reason : w; };
  const upload = async (file: File) => {
    setBusy(true); setErr(null); setRes(null);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      if (xch.trim()) form.append('xmltv_channel', xch.trim());
      const r = await fetch(`${base}/guide/import`, { method: 'POST', body: form, credentials: 'same-origin', headers: { accept: 'application/json', 'x-csrf-token': client.csrf } });
      if (!r.ok) {
        const p = await r.json().catch(() => ({})) as { title?: string; detail?: string; errors?: { field?: string; pointer?: string; detail?: string }[] };
        if (r.status === 401) client.onSignedOut();
        throw new ApiError(r.status, p.title ?? r.statusText, p.detail ?? '', (p.errors ?? []).map((e) => ({ field: e.field ?? e.pointer ?? '', detail: e.detail ?? '' })));
      }
      done(await r.json() as ImportResult);
    } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const fromUrl = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null); setRes(null);
    try { done(await client.api<ImportResult>('POST', `${base}/guide/import-url`, { url: url.trim(), ...(xch.trim() ? { xmltv_channel: xch.trim() } : {}) })); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const drop = (e: DragEvent) => {
    e.preventDefault(); setOver(false);
    const file = e.dataTransfer?.files?.[0];
    if (file) void upload(file);
  };
  return (
    <section class="panel gimport" aria-labelledby="xmltv-h">
      <h2 id="xmltv-h">{t('g_import')}</h2>
      <div class={`drop${over ? ' over' : ''}`} id="xmltv-drop" onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={drop}>
        <p>{fill(t('g_drop_xml'), { ext: <bdi dir="ltr">.xml</bdi> })}</p>
        <label class="button">{t('g_pick_xml')}
          <input type="file" id="xmltv-file" class="sr-only" accept=".xml,application/xml,text/xml" disabled={busy}
            onChange={(e) => { const file = e.currentTarget.files?.[0]; e.currentTarget.value = ''; if (file) void upload(file); }} />
        </label>
      </div>
      <form class="inline-form" onSubmit={fromUrl} id="xmltv-url-form">
        <Field label={t('g_xml_url')}><input id="xmltv-url" type="url" dir="ltr" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://…/epg.xml" /></Field>
        <Field label={t('g_xml_channel')} hint={t('g_xml_channel_hint')}><input id="xmltv-channel" dir="ltr" maxLength={200} value={xch} onInput={(e) => setXch(e.currentTarget.value)} /></Field>
        <button type="submit" disabled={busy}>{t('g_import_url')}</button>
      </form>
      {busy && <p class="state" role="status"><span class="spin" aria-hidden="true" />{t('g_importing')}</p>}
      <Problem error={err && `${t('g_import_refused')} ${err}`} />
      {res && (
        <div class="once" role="status" id="xmltv-result">
          <p><strong>{t(res.staged ? 'g_import_staged' : 'g_import_done', { n: res.programmes })}</strong>{' '}
            {fill(t('g_import_range'), { ch: <bdi>{res.xmltv_channel}</bdi>, from: <bdi dir="ltr">{f.short(res.from)}</bdi>, to: <bdi dir="ltr">{f.short(res.to)}</bdi> })}</p>
          <ul class="plain">
            {res.replaced !== undefined && <li>{t('g_import_replaced', { n: res.replaced })}</li>}
            <li>{t('g_import_overlaps', { n: res.overlaps_resolved })}</li>
            {res.skipped && <li>{t('g_import_skipped', { n: res.skipped.length })}</li>}
            {res.skipped?.slice(0, 20).map((s) => <li class="warn"><span><bdi>{s.title}</bdi>{s.start_at && <> · <bdi dir="ltr">{f.short(s.start_at)}</bdi></>}: {skipWords(s.reason)}</span></li>)}
          </ul>
        </div>
      )}
    </section>
  );
}
