/**
 * Keyboard shortcuts of the cue editor, by physical key (`KeyboardEvent.code`), so they sit in the same place on a
 * Hebrew layout (where the S key types ד). Outside a text field all work; in a cue's text only the Alt ones do (Space,
 * arrows and letters type there; Escape or Ctrl+Enter leaves the field).
 */

/** What a shortcut does. */
export type KeyAction = 'toggle' | 'back' | 'forward' | 'set_start' | 'set_end' | 'next' | 'prev' | 'split' | 'merge' | 'insert' | 'delete' | 'undo' | 'edit';

/** The parts of a key event the map reads. */
export interface KeyLike { code: string; key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }

/** Seconds Ctrl+Left / Ctrl+Right skip. */
export const SKIP_S = 2;

/** The action of a key press, or null (the key does what it does anywhere else). `inField`: focus is in a text field. */
export function keyAction(e: KeyLike, inField: boolean): KeyAction | null {
  const ctrl = e.ctrlKey || e.metaKey;
  if (e.altKey && !ctrl) {
    if (e.code === 'ArrowDown') return 'next';
    if (e.code === 'ArrowUp') return 'prev';
    if (e.code === 'KeyK') return 'toggle';
    return null;
  }
  if (inField) return null;
  if (ctrl && !e.shiftKey) {
    if (e.code === 'ArrowLeft') return 'back';
    if (e.code === 'ArrowRight') return 'forward';
    if (e.code === 'KeyZ') return 'undo';
    return null;
  }
  if (ctrl || e.altKey) return null;
  switch (e.code) {
    case 'Space': return 'toggle';
    case 'BracketLeft': return 'set_start';
    case 'BracketRight': return 'set_end';
    case 'ArrowDown': return 'next';
    case 'ArrowUp': return 'prev';
    case 'KeyS': return 'split';
    case 'KeyM': return 'merge';
    case 'KeyI': return 'insert';
    case 'Delete': return 'delete';
    case 'Enter': return 'edit';
    default: return null;
  }
}

/** The shortcuts as shown in the help list: key names and the i18n key of what they do. */
export const SHORTCUTS: [string, string][] = [
  ['Space / Alt+K', 'se_k_toggle'], ['Ctrl+←', 'se_k_back'], ['Ctrl+→', 'se_k_forward'], ['[', 'se_k_set_start'], [']', 'se_k_set_end'],
  ['↓ / Alt+↓', 'se_k_next'], ['↑ / Alt+↑', 'se_k_prev'], ['S', 'se_k_split'], ['M', 'se_k_merge'], ['I', 'se_k_insert'],
  ['Delete', 'se_k_delete'], ['Ctrl+Z', 'se_k_undo'], ['Enter', 'se_k_edit'], ['Esc / Ctrl+Enter', 'se_k_leave'],
];
