import library from '../../../config/player-skins/library.json';
import { NAMED_SKIN_NAMES } from '../../../assets-ui/player/skins';

/** One library skin: a theme-token document. */
export interface LibrarySkin { name: string; label: string; tokens: Record<string, string> }

/** The 100 library skins shipped in config/player-skins/library.json (bundled into the binary). */
export const LIBRARY_SKINS: readonly LibrarySkin[] = (library as { skins: LibrarySkin[] }).skins;

/** True when `name` is a named skin or a library skin. */
export function knownSkin(name: string): boolean {
  return NAMED_SKIN_NAMES.includes(name) || LIBRARY_SKINS.some((s) => s.name === name);
}

/** A library skin by name, or null. */
export function librarySkin(name: string): LibrarySkin | null {
  return LIBRARY_SKINS.find((s) => s.name === name) ?? null;
}

/** Every skin name (named first). */
export function skinNames(): string[] {
  return [...NAMED_SKIN_NAMES, ...LIBRARY_SKINS.map((s) => s.name)];
}
