/**
 * A virtual list: fixed-height rows, only the visible ones (plus a small margin) are in the DOM; asks for more near
 * the end. Scrolling re-renders only when the first visible row changes (at most once a frame), rows are reused by
 * slot and skipped when their item did not change, and each row is its own layout island (`contain: strict`,
 * moved with a transform), so a frame patches a few rows instead of laying out the list.
 */
import { Component, type JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

type RowProps = { item: unknown; index: number; rowHeight: number; renderKey: unknown; render: (item: unknown, i: number) => JSX.Element };

/** One positioned row; re-drawn only when its item, index or the list's renderKey change. */
class Row extends Component<RowProps> {
  override shouldComponentUpdate(n: RowProps): boolean {
    const p = this.props;
    return n.item !== p.item || n.index !== p.index || n.rowHeight !== p.rowHeight || n.renderKey !== p.renderKey;
  }
  override render({ item, index, rowHeight, render }: RowProps) {
    return (
      <div role="listitem" class="vrow" style={{ transform: `translateY(${index * rowHeight}px)`, height: `${rowHeight}px` }}>
        {render(item, index)}
      </div>
    );
  }
}

/** Props: the rows, their height, how to draw one (redrawn when `renderKey` changes), and what to do near the end. */
export function VirtualList<T>({ items, rowHeight, render, onNearEnd, label, id, renderKey, overscan = 4 }: {
  items: T[]; rowHeight: number; render: (item: T, i: number) => JSX.Element; onNearEnd?: () => void; label: string; id?: string;
  renderKey?: unknown; overscan?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [first, setFirst] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = box.current!;
    let frame = 0;
    // One state change per frame at most, and none while the scroll stays within the same row.
    const onScroll = () => { if (!frame) frame = requestAnimationFrame(() => { frame = 0; setFirst(Math.floor(el.scrollTop / rowHeight)); }); };
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => { el.removeEventListener('scroll', onScroll); ro.disconnect(); cancelAnimationFrame(frame); };
  }, [rowHeight]);
  const visible = Math.ceil(height / rowHeight) + 1;
  const from = Math.max(0, first - overscan);
  const to = Math.min(items.length, first + visible + overscan);
  useEffect(() => { if (onNearEnd && to >= items.length - visible * 2) onNearEnd(); }, [to, items.length]);
  // Rows are keyed by slot (index modulo the window size): scrolling patches the same DOM nodes instead of
  // unmounting and mounting a whole window of rows on every frame.
  const pool = visible + overscan * 2 + 1;
  const rows: JSX.Element[] = [];
  for (let i = from; i < to; i++) {
    rows.push(<Row key={i % pool} item={items[i]} index={i} rowHeight={rowHeight} renderKey={renderKey} render={render as (item: unknown, i: number) => JSX.Element} />);
  }
  return (
    <div class="vlist" ref={box} role="list" aria-label={label} id={id} tabIndex={0}>
      <div class="vbody" style={{ height: `${items.length * rowHeight}px` }}>{rows}</div>
    </div>
  );
}
