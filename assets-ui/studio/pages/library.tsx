/** Library: search, a virtual list of every asset (or the trash, or the sections), and drag-and-drop upload of several files with progress. */
import { useEffect, useRef, useState } from 'preact/hooks';

import { useStudio } from '../ctx';
import { ASSET_EVENTS, useEventStream, type Envelope } from '../events';
import { Badge, Empty, Loading, PageHead, Problem, useLoad } from '../ui';
import { VirtualList } from '../vlist';
import { Uploader } from './uploader';
import { Sections, type Section } from './sections';
import { BulkBar } from './library-bulk';

/** An asset as listed. */
export interface AssetRow { id: string; title: string; status: string; published: boolean; duration_s: number | null; created_at: string; progress: number | null; deleted_at?: string }

/** Keeps the section filter in the address (`?section=`), so a reload or a shared link shows the same list. */
function sectionInUrl(section: string): void {
  const u = new URL(location.href);
  if (section) u.searchParams.set('section', section); else u.searchParams.delete('section');
  u.searchParams.delete('view');
  history.replaceState(history.state, '', u.pathname + u.search);
}

/** The library page. */
export function Library() {
  const { t, f, get, cache, lang } = useStudio();
  const [q, setQ] = useState(() => new URLSearchParams(location.search).get('q') ?? '');
  const [trash, setTrash] = useState(false);
  const [sections, setSections] = useState(() => new URLSearchParams(location.search).get('view') === 'sections');
  // '' every asset, 'none' the assets in no section, else a section id.
  const [section, setSection] = useState(() => new URLSearchParams(location.search).get('section') ?? '');
  const sectionList = useLoad(() => get<{ items: Section[] }>('/v1/library/sections').then((r) => r.items), [], 'sections');
  const pickSection = (v: string) => { setSection(v); sectionInUrl(v); };
  // Sections made, renamed or deleted in the sections view show in the picker when the list comes back.
  const shown = useRef(sections);
  useEffect(() => { if (shown.current && !sections) sectionList.reload(); shown.current = sections; }, [sections]);
  // The first page of the plain list is kept across route changes (shown at once, then refreshed).
  const first = section || q ? undefined : cache.get('lib:first') as { items: AssetRow[]; next_cursor: string | null } | undefined;
  const [items, setItems] = useState<AssetRow[]>(() => first?.items ?? []);
  const [cursor, setCursor] = useState<string | null>(() => first?.next_cursor ?? null);
  const [state, setState] = useState<{ loading: boolean; error: string | null }>({ loading: !first, error: null });
  const seq = useRef(0);
  const busy = useRef(false);
  const fetchPage = async (reset: boolean) => {
    if (busy.current && !reset) return;
    const n = reset ? ++seq.current : seq.current;
    busy.current = true;
    const term = q.trim();
    const qs = new URLSearchParams({ limit: '200' });
    if (term.length >= 2) qs.set('q', term);
    if (section) qs.set('section', section);
    if (!reset && cursor) qs.set('cursor', cursor);
    try {
      const r = await get<{ items: AssetRow[]; next_cursor: string | null }>(`/v1/assets${trash ? '/trash' : ''}?${qs}`);
      if (n !== seq.current) return;
      if (reset && !trash && !section && term.length < 2) cache.set('lib:first', r);
      setItems((old) => (reset ? r.items : [...old, ...r.items]));
      setCursor(r.next_cursor);
      setState({ loading: false, error: null });
    } catch (e) {
      if (n === seq.current) setState({ loading: false, error: (e as Error).message });
    } finally { if (n === seq.current) busy.current = false; }
  };
  const mounted = useRef(false);
  useEffect(() => {
    // A new search or the trash starts from an empty list; the first visit keeps the cached page on screen.
    if (mounted.current) setItems([]);
    mounted.current = true;
    setState((st) => ({ ...st, loading: true, error: null }));
    const h = setTimeout(() => { void fetchPage(true); }, q ? 250 : 0);
    return () => clearTimeout(h);
  }, [q, trash, section]);
  // Rows follow the event stream: a preview, ready, failed or published asset is read again and its row replaced in place.
  useEventStream((fr) => {
    const id = (fr.data as Envelope | null)?.data?.asset;
    if (typeof id !== 'string') return;
    get<AssetRow>(`/v1/assets/${encodeURIComponent(id)}`).then((row) => setItems((list) => (list.some((x) => x.id === id) ? list.map((x) => (x.id === id ? { ...x, ...row } : x)) : list)), () => {});
  }, ASSET_EVENTS);
  // Rows picked for a bulk action (the plain list only); a new search, view or section starts with none.
  const [picked, setPicked] = useState<Set<string>>(() => new Set());
  useEffect(() => setPicked(new Set()), [q, trash, section]);
  const pick = (id: string, on: boolean) => setPicked((old) => { const n = new Set(old); if (on) n.add(id); else n.delete(id); return n; });
  const allPicked = items.length > 0 && items.every((x) => picked.has(x.id));
  const named = (sectionList.data ?? []).find((x) => x.id === section);
  return (
    <>
      <PageHead title={t('nav_library')}>
        <div class="seg" role="group" aria-label={t('view')}>
          <button type="button" aria-pressed={!trash && !sections} onClick={() => { setSections(false); setTrash(false); }}>{t('all_assets')}</button>
          <button type="button" aria-pressed={trash && !sections} onClick={() => { setSections(false); setTrash(true); }} id="show-trash">{t('trash')}</button>
          <button type="button" aria-pressed={sections} onClick={() => setSections(true)} id="show-sections">{t('sec_title')}</button>
        </div>
      </PageHead>
      {sections && <Sections onOpen={(id) => { setSections(false); setTrash(false); pickSection(id); }} />}
      {/* Kept mounted (hidden) while the sections show: uploads in progress go on. */}
      <div hidden={sections}>
      {!trash && <Uploader onDone={() => fetchPage(true)} />}
      <div class="toolbar">
        <input type="search" id="search" aria-label={t('search_assets')} placeholder={t('search_assets')} value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <select id="section-filter" aria-label={t('lib_section_filter')} value={section} style={{ width: 'auto', maxWidth: '16rem' }} onChange={(e) => pickSection(e.currentTarget.value)}>
          <option value="">{t('lib_all_sections')}</option>
          <option value="none">{t('sec_none')}</option>
          {(sectionList.data ?? []).map((x) => <option value={x.id}>{x.name}</option>)}
          {section && section !== 'none' && !named && <option value={section}>{sectionList.loading ? t('loading') : t('lib_section_unknown')}</option>}
        </select>
        {!trash && items.length > 0 && <label class="pick-all"><input type="checkbox" id="pick-all" checked={allPicked} onChange={(e) => setPicked(e.currentTarget.checked ? new Set(items.map((x) => x.id)) : new Set())} />{t('lib_select_all')}</label>}
        <span class="muted" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>{state.loading ? '' : t('n_shown', { n: f.num(items.length) }) + (cursor ? '+' : '')}</span>
      </div>
      {!trash && picked.size > 0 && <BulkBar ids={[...picked]} sections={sectionList.data ?? []} clear={() => setPicked(new Set())} onDone={() => void fetchPage(true)} />}
      <Problem error={state.error} onRetry={() => fetchPage(true)} />
      {state.loading && !items.length ? <Loading /> : !items.length ? <Empty>{trash ? t('trash_empty') : q ? t('no_match') : section === 'none' ? t('lib_no_unsectioned') : section ? t('lib_section_empty', { name: named?.name ?? '' }) : t('library_empty')}</Empty> : (
        <VirtualList id="asset-list" label={t('nav_library')} items={items} rowHeight={56} renderKey={`${lang}:${trash}:${[...picked].join(',')}`} onNearEnd={() => { if (cursor) void fetchPage(false); }}
          render={(a) => (
            <div class={trash ? 'pick-row no-pick' : 'pick-row'}>
            {!trash && <input type="checkbox" class="row-pick" aria-label={t('lib_select_row', { title: a.title || a.id })} checked={picked.has(a.id)} onChange={(e) => pick(a.id, e.currentTarget.checked)} />}
            <a class="asset-row" href={`/studio/library/${encodeURIComponent(a.id)}`}>
              <span class="title">{a.title || a.id}</span>
              <Badge status={a.status} />
              {a.published && <Badge status="published" />}
              <span class="muted dur">{f.dur(a.duration_s)}</span>
              <span class="muted when">{f.short(a.deleted_at ?? a.created_at)}</span>
            </a>
            </div>
          )} />
      )}
      </div>
    </>
  );
}
