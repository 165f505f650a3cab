/**
 * embed.js — the ViewStream loader. `<script src="{player_url}/embed.js" data-src="…"></script>` puts a player
 * where the script is (or into data-target). Precedence: data-* attributes, then the configuration document, then
 * built-in defaults. The streaming engine (hls.js or the DASH engine) is loaded only when the browser needs it.
 */
import { CSS } from './styles';
import { readAttrs, resolveOptions, parseOptionsJson, type ConfigDoc } from './options';
import { VSPlayer } from './player';
import { resetViewer } from './beacon';

const VERSION = '1.3.0';
type Registry = { version: string; players: VSPlayer[]; create: (host: HTMLElement, attrs: Record<string, string>) => Promise<VSPlayer | null>; resetViewer: () => void };
const w = window as unknown as { VSEmbed?: Registry };

function where(script: HTMLScriptElement | null): { base: string; api: string } {
  const src = script?.src ? new URL(script.src, location.href) : new URL(location.href);
  const m = /^(.*\/embed\/[^/]+)\/[^/]*$/.exec(src.pathname);
  return { base: m ? `${src.origin}${m[1]}` : `${src.origin}/embed/${VERSION}`, api: src.origin };
}

async function configDoc(api: string, a: Record<string, string>): Promise<ConfigDoc> {
  const inline = (parseOptionsJson(a.options) as { configDoc?: ConfigDoc }).configDoc;
  if (inline) return inline;
  if (!a.tenant) return {};
  const url = a.config ? `${api}/player/config/${a.tenant}/${a.config}.json` : `${api}/player/config/${a.tenant}.json`;
  try { const r = await fetch(url); return r.ok ? ((await r.json()) as { config: ConfigDoc }).config : {}; } catch { return {}; }
}

async function create(host: HTMLElement, a: Record<string, string>, loc: { base: string; api: string }): Promise<VSPlayer | null> {
  const doc = await configDoc(loc.api, a);
  if (doc.version_pin && doc.version_pin !== VERSION && !a.pinned) {
    // The configuration pins another player version: hand over to that loader with the same attributes.
    const sc = document.createElement('script');
    sc.src = `${loc.api}/embed/${encodeURIComponent(doc.version_pin)}/embed.js`;
    for (const [k, v] of Object.entries({ ...a, pinned: '1' })) sc.setAttribute(`data-${k}`, v);
    if (!a.target) { const id = `vs-pin-${Math.random().toString(36).slice(2)}`; host.id ||= id; sc.setAttribute('data-target', `#${host.id}`); }
    document.head.append(sc);
    return null;
  }
  const o = resolveOptions(a, doc, loc.base);
  const p = new VSPlayer(host, o, loc.api);
  w.VSEmbed!.players.push(p);
  await p.init();
  return p;
}

function boot(): void {
  if (!document.getElementById('vs-embed-css')) {
    const st = document.createElement('style'); st.id = 'vs-embed-css'; st.textContent = CSS; document.head.append(st);
  }
  const script = document.currentScript as HTMLScriptElement | null;
  const loc = where(script);
  w.VSEmbed ??= { version: VERSION, players: [], create: (host, attrs) => create(host, attrs, loc), resetViewer };
  if (!script) return;
  const a = readAttrs(script);
  if (!a.src && !a.options && !a.playback) return;
  let host: HTMLElement | null = a.target ? document.querySelector<HTMLElement>(a.target) : null;
  if (!host) { host = document.createElement('div'); script.after(host); }
  void create(host, a, loc);
}

boot();
