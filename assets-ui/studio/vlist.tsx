/** A virtual list: fixed-height rows, only the visible ones (plus a margin) are in the DOM; asks for more near the end. */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** Props: the rows, their height, how to draw one, and what to do near the end. */
export function VirtualList<T>({ items, rowHeight, render, onNearEnd, label, id }: {
  items: T[]; rowHeight: number; render: (item: T, i: number) => JSX.Element; onNearEnd?: () => void; label: string; id?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = box.current!;
    let frame = 0;
    const onScroll = () => { if (!frame) frame = requestAnimationFrame(() => { frame = 0; setTop(el.scrollTop); }); };
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => { el.removeEventListener('scroll', onScroll); ro.disconnect(); cancelAnimationFrame(frame); };
  }, []);
  const over = 8;
  const first = Math.max(0, Math.floor(top / rowHeight) - over);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + over);
  useEffect(() => { if (onNearEnd && last >= items.length - over * 2) onNearEnd(); }, [last, items.length]);
  // Rows are keyed by slot (index modulo the window size): scrolling patches the same DOM nodes instead of
  // unmounting and mounting a whole window of rows on every frame.
  const pool = Math.ceil(height / rowHeight) + over * 2 + 2;
  return (
    <div class="vlist" ref={box} role="list" aria-label={label} id={id} tabIndex={0}>
      <div style={{ height: `${items.length * rowHeight}px`, position: 'relative' }}>
        {items.slice(first, last).map((it, k) => (
          <div role="listitem" class="vrow" key={(first + k) % pool} style={{ position: 'absolute', insetInlineStart: 0, insetInlineEnd: 0, top: `${(first + k) * rowHeight}px`, height: `${rowHeight}px` }}>
            {render(it, first + k)}
          </div>
        ))}
      </div>
    </div>
  );
}
