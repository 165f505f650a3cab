/** Site settings (the first tab of a site): name, state, time zone, language, SEO defaults, player and AI crawlers. */
import { useEffect, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { errorWords } from '../api';
import { Field, Problem } from '../ui';
import { siteApi, type Settings, type Site } from './sites-model';

const CRAWLERS = ['allow', 'block_training', 'block'] as const;

/** The settings form; `onSaved` gets the changed site. */
export function SiteSettings({ site, onSaved }: { site: Site; onSaved: (s: Site) => void }) {
  const { t, api, can } = useStudio();
  const [name, setName] = useState(site.name);
  const [status, setStatus] = useState(site.status);
  const [zone, setZone] = useState(site.time_zone);
  const [st, setSt] = useState<Settings>(site.settings);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => { setName(site.name); setStatus(site.status); setZone(site.time_zone); setSt(site.settings); }, [site.id]);
  const admin = can('sites:admin');
  const seo = st.seo ?? {};
  const player = st.player ?? {};
  const setSeo = (k: keyof NonNullable<Settings['seo']>, v: string) => setSt({ ...st, seo: { ...seo, [k]: v } });
  const setPlayer = (k: keyof NonNullable<Settings['player']>, v: string) => setSt({ ...st, player: { ...player, [k]: v } });
  /** Empty strings leave a key out (the API's defaults apply). */
  const pruned = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined)) as T;
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null); setNote(null);
    try {
      const settings: Settings = { seo: pruned(seo), player: pruned(player), language: st.language || 'he', ai_crawler_mode: st.ai_crawler_mode ?? 'allow' };
      onSaved(await api<Site>('PATCH', siteApi(site.id), { name: name.trim(), status, time_zone: zone.trim(), settings }));
      setNote(t('saved'));
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  return (
    <form class="panel ws-settings" id="ws-settings" onSubmit={save}>
      <h2>{t('ws_settings')}</h2>
      <fieldset class="ws-fs" disabled={!admin || busy}>
        <div class="grid2">
          <Field label={t('ws_name')}><input id="ws-set-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></Field>
          <Field label={t('state')}>
            <select id="ws-set-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as Site['status'])}>
              <option value="active">{t('st_active')}</option><option value="suspended">{t('st_suspended')}</option>
            </select>
          </Field>
          <Field label={t('ws_zone')}><input id="ws-set-zone" dir="ltr" value={zone} onInput={(e) => setZone(e.currentTarget.value)} /></Field>
          <Field label={t('ws_language')}>
            <select id="ws-set-lang" value={st.language ?? 'he'} onChange={(e) => setSt({ ...st, language: e.currentTarget.value })}>
              <option value="he">{t('ws_lang_he')}</option><option value="en">{t('ws_lang_en')}</option>
            </select>
          </Field>
          <Field label={t('ws_seo_title')}><input id="ws-set-seo-title" value={seo.title ?? ''} onInput={(e) => setSeo('title', e.currentTarget.value)} /></Field>
          <Field label={t('ws_base_url')} hint={t('ws_base_url_hint')}><input id="ws-set-base" dir="ltr" type="url" value={seo.base_url ?? ''} onInput={(e) => setSeo('base_url', e.currentTarget.value)} /></Field>
          <div class="wide"><Field label={t('ws_seo_description')}><textarea id="ws-set-seo-desc" rows={2} value={seo.description ?? ''} onInput={(e) => setSeo('description', e.currentTarget.value)} /></Field></div>
          <Field label={t('ws_player_config')} hint={t('ws_player_hint')}><input id="ws-set-player" dir="ltr" value={player.config ?? ''} placeholder="default" onInput={(e) => setPlayer('config', e.currentTarget.value)} /></Field>
          <Field label={t('ws_crawlers')}>
            <select id="ws-set-ai" value={st.ai_crawler_mode ?? 'allow'} onChange={(e) => setSt({ ...st, ai_crawler_mode: e.currentTarget.value as Settings['ai_crawler_mode'] })}>
              {CRAWLERS.map((c) => <option key={c} value={c}>{t(`ws_ai_${c}`)}</option>)}
            </select>
          </Field>
        </div>
      </fieldset>
      {admin ? <button class="primary" type="submit" disabled={busy}>{t('save')}</button> : <p class="muted">{t('ws_admin_only')}</p>}
      {note && <span class="saved" role="status"> {note}</span>}
      <Problem error={err} />
    </form>
  );
}
