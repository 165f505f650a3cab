/** The sections of a page draft: add, remove, reorder, and each section's settings by its type. */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { Field } from '../ui';
import { ITEM_TYPES, SECTION_TYPES, move, newSection, type ItemType, type Section, type SectionType } from './sites-model';

/** "a, b, c" → hand-picked items of one type. */
const parseSlugs = (type: ItemType, s: string) => s.split(/[\s,]+/).filter(Boolean).map((slug) => ({ type, slug }));

/** One section's settings by its type. */
function SectionFields({ s, set, i }: { s: Section; set: (s: Section) => void; i: number }) {
  const { t } = useStudio();
  const id = (k: string) => `ws-sec-${i}-${k}`;
  const str = (k: 'title' | 'text' | 'link' | 'image' | 'channel') => ({ id: id(k), value: s[k] ?? '', onInput: (e: Event) => set({ ...s, [k]: (e.currentTarget as HTMLInputElement).value }) });
  const listed = s.type === 'hero' || s.type === 'rail';
  const byHand = s.type === 'hero' || !!s.items;
  return (
    <div class="ws-sec-fields">
      <Field label={t('ws_sec_title')}><input {...str('title')} maxLength={300} /></Field>
      {s.type === 'text' && <Field label={t('ws_sec_text')}><textarea {...str('text')} rows={4} /></Field>}
      {s.type === 'promo' && <>
        <Field label={t('ws_sec_text')}><textarea {...str('text')} rows={2} /></Field>
        <div class="row"><Field label={t('ws_sec_link')}><input {...str('link')} dir="ltr" /></Field><Field label={t('ws_sec_image')}><input {...str('image')} dir="ltr" type="url" /></Field></div>
      </>}
      {(s.type === 'live_player' || s.type === 'epg') && <Field label={t('ws_sec_channel')} hint={s.type === 'epg' ? t('ws_sec_channel_epg_hint') : undefined}><input {...str('channel')} dir="ltr" /></Field>}
      {listed && (
        <div class="row">
          <Field label={t('ws_sec_item_type')}>
            <select id={id('item-type')} value={s.item_type ?? 'video'} onChange={(e) => {
              const it = e.currentTarget.value as ItemType;
              set({ ...s, item_type: it, ...(s.items ? { items: s.items.map((x) => ({ ...x, type: it })) } : {}) });
            }}>{ITEM_TYPES.map((x) => <option key={x} value={x}>{t(`ws_it_${x}`)}</option>)}</select>
          </Field>
          {s.type === 'rail' && (
            <Field label={t('ws_sec_mode')}>
              <select id={id('mode')} value={byHand ? 'hand' : 'query'} onChange={(e) => set(e.currentTarget.value === 'hand' ? { ...s, items: [], query: undefined } : { ...s, items: undefined, query: { limit: 12 } })}>
                <option value="query">{t('ws_mode_query')}</option><option value="hand">{t('ws_mode_hand')}</option>
              </select>
            </Field>
          )}
          {!byHand && (
            <Field label={t('ws_sec_limit')}><input id={id('limit')} type="number" min={1} max={100} value={s.query?.limit ?? 12}
              onInput={(e) => set({ ...s, query: { ...s.query, limit: Math.max(1, Math.min(100, Number(e.currentTarget.value) || 12)) } })} /></Field>
          )}
        </div>
      )}
      {listed && !byHand && (
        <div class="row">
          <Field label={t('ws_sec_order')}>
            <select id={id('order')} value={s.query?.order ?? 'newest'} onChange={(e) => set({ ...s, query: { ...s.query, order: e.currentTarget.value as 'newest' | 'title' } })}>
              <option value="newest">{t('ws_order_newest')}</option><option value="title">{t('ws_order_title')}</option>
            </select>
          </Field>
          {(s.item_type ?? 'video') === 'video' && <Field label={t('ws_sec_show')}><input id={id('show')} dir="ltr" value={s.query?.show ?? ''} onInput={(e) => set({ ...s, query: { ...s.query, show: e.currentTarget.value || undefined } })} /></Field>}
          {(s.item_type === 'programme' || s.item_type === 'clip') && <Field label={t('ws_sec_channel')}><input id={id('qchannel')} dir="ltr" value={s.query?.channel ?? ''} onInput={(e) => set({ ...s, query: { ...s.query, channel: e.currentTarget.value || undefined } })} /></Field>}
          {s.item_type === 'programme' && <Field label={t('ws_sec_series')}><input id={id('series')} value={s.query?.series ?? ''} onInput={(e) => set({ ...s, query: { ...s.query, series: e.currentTarget.value || undefined } })} /></Field>}
        </div>
      )}
      {listed && byHand && (
        <Field label={t('ws_sec_items')} hint={t('ws_sec_items_hint')}>
          <input id={id('items')} dir="ltr" value={(s.items ?? []).map((x) => x.slug).join(', ')} onChange={(e) => set({ ...s, items: parseSlugs(s.item_type ?? 'video', e.currentTarget.value) })} />
        </Field>
      )}
    </div>
  );
}

/** The sections list of a draft with add, remove and move up/down. */
export function SectionsEditor({ sections, onChange, disabled }: { sections: Section[]; onChange: (s: Section[]) => void; disabled?: boolean }) {
  const { t } = useStudio();
  const [type, setType] = useState<SectionType>('text');
  return (
    <div class="ws-sections" id="ws-sections">
      <h3>{t('ws_sections')}</h3>
      {!sections.length && <p class="muted">{t('ws_no_sections')}</p>}
      <ol class="ws-sec-list">
        {sections.map((s, i) => (
          <li key={s.id ?? `new-${i}`} class="ws-sec" id={`ws-sec-${i}`}>
            <fieldset disabled={disabled}>
              <legend><span class="badge">{t(`ws_st_${s.type}`)}</span> <span class="muted">{t('ws_sec_n', { n: i + 1 })}</span></legend>
              <div class="ws-sec-tools">
                <button type="button" class="small" aria-label={t('ws_move_up')} title={t('ws_move_up')} disabled={i === 0} onClick={() => onChange(move(sections, i, -1))}>▲</button>
                <button type="button" class="small" aria-label={t('ws_move_down')} title={t('ws_move_down')} disabled={i === sections.length - 1} onClick={() => onChange(move(sections, i, 1))}>▼</button>
                <button type="button" class="small danger" onClick={() => onChange(sections.filter((_, j) => j !== i))}>{t('ws_remove')}</button>
              </div>
              <SectionFields s={s} i={i} set={(n) => onChange(sections.map((x, j) => (j === i ? n : x)))} />
            </fieldset>
          </li>
        ))}
      </ol>
      <div class="actions ws-sec-add">
        <select id="ws-sec-type" aria-label={t('ws_sec_type')} value={type} disabled={disabled} onChange={(e) => setType(e.currentTarget.value as SectionType)}>
          {SECTION_TYPES.map((x) => <option key={x} value={x}>{t(`ws_st_${x}`)}</option>)}
        </select>
        <button type="button" id="ws-sec-add" disabled={disabled} onClick={() => onChange([...sections, newSection(type)])}>{t('ws_add_section')}</button>
      </div>
    </div>
  );
}
