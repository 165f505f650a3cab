/** A channel chooser shared by the guide and clips pages (remembers the choice in the address: ?channel=). */
import { useEffect } from 'preact/hooks';

import { useStudio } from '../ctx';
import { useLoad } from '../ui';
import type { ChannelView } from './live';

/** Loads the channels and shows a select; calls onPick with the chosen (or first) channel. */
export function ChannelPick({ value, onPick }: { value: string | null; onPick: (c: ChannelView) => void }) {
  const { t, get } = useStudio();
  const list = useLoad(() => get<{ items: ChannelView[] }>('/v1/channels?limit=100'), []);
  const items = list.data?.items ?? [];
  useEffect(() => {
    if (!items.length) return;
    const want = value ?? new URLSearchParams(location.search).get('channel');
    onPick(items.find((c) => c.id === want || c.slug === want) ?? items[0]);
  }, [items.length]);
  if (!items.length) return null;
  return (
    <label class="pick"><span>{t('channel')}</span>
      <select id="channel-pick" value={value ?? ''} onChange={(e) => {
        const c = items.find((x) => x.id === e.currentTarget.value);
        if (c) { onPick(c); history.replaceState(null, '', `?channel=${encodeURIComponent(c.slug)}`); }
      }}>{items.map((c) => <option value={c.id}>{c.name}</option>)}</select>
    </label>
  );
}
