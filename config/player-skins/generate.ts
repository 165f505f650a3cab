#!/usr/bin/env bun
/**
 * Writes config/player-skins/library.json: the 100 library skins of the player, each a theme-token document
 * (the same CSS custom properties the seven named skins set). 10 palettes x 10 shapes, so every skin differs
 * from every other in colour or in shape. Run: bun config/player-skins/generate.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A palette: accent, bar background, text, track colour. */
const PALETTES: [string, string, string, string, string][] = [
  ['ocean', '#0ea5e9', 'rgba(8,47,73,0.85)', '#e0f2fe', '#075985'],
  ['forest', '#22c55e', 'rgba(5,46,22,0.85)', '#dcfce7', '#166534'],
  ['sunset', '#f97316', 'rgba(67,20,7,0.85)', '#ffedd5', '#9a3412'],
  ['berry', '#d946ef', 'rgba(59,7,100,0.85)', '#fae8ff', '#86198f'],
  ['crimson', '#ef4444', 'rgba(69,10,10,0.85)', '#fee2e2', '#991b1b'],
  ['gold', '#eab308', 'rgba(28,25,23,0.88)', '#fef9c3', '#854d0e'],
  ['slate', '#94a3b8', 'rgba(15,23,42,0.88)', '#f1f5f9', '#334155'],
  ['mint', '#14b8a6', 'rgba(240,253,250,0.92)', '#134e4a', '#99f6e4'],
  ['paper', '#1d4ed8', 'rgba(255,255,255,0.94)', '#111827', '#cbd5e1'],
  ['candy', '#ec4899', 'rgba(253,242,248,0.94)', '#831843', '#fbcfe8'],
];

/** A shape: corner radius, bar height, bar margin (floating or flush), font, track height, button radius. */
const SHAPES: [string, Record<string, string>][] = [
  ['flat', { radius: '0px', 'bar-height': '44px', 'bar-margin': '0px', font: 'system-ui, sans-serif', 'track-height': '4px', 'button-radius': '0px' }],
  ['pill', { radius: '999px', 'bar-height': '40px', 'bar-margin': '12px', font: 'system-ui, sans-serif', 'track-height': '6px', 'button-radius': '999px' }],
  ['rounded', { radius: '12px', 'bar-height': '48px', 'bar-margin': '8px', font: 'system-ui, sans-serif', 'track-height': '5px', 'button-radius': '8px' }],
  ['chunky', { radius: '6px', 'bar-height': '60px', 'bar-margin': '0px', font: 'Verdana, sans-serif', 'track-height': '10px', 'button-radius': '6px' }],
  ['slim', { radius: '2px', 'bar-height': '32px', 'bar-margin': '0px', font: 'Helvetica, Arial, sans-serif', 'track-height': '2px', 'button-radius': '2px' }],
  ['serif', { radius: '4px', 'bar-height': '46px', 'bar-margin': '6px', font: 'Georgia, serif', 'track-height': '4px', 'button-radius': '4px' }],
  ['mono', { radius: '0px', 'bar-height': '42px', 'bar-margin': '4px', font: 'ui-monospace, monospace', 'track-height': '3px', 'button-radius': '0px' }],
  ['bubble', { radius: '24px', 'bar-height': '52px', 'bar-margin': '16px', font: 'system-ui, sans-serif', 'track-height': '8px', 'button-radius': '50%' }],
  ['outline', { radius: '8px', 'bar-height': '44px', 'bar-margin': '10px', font: 'system-ui, sans-serif', 'track-height': '4px', 'button-radius': '8px', border: '2px solid var(--vs-accent)' }],
  ['shadow', { radius: '14px', 'bar-height': '50px', 'bar-margin': '14px', font: 'Trebuchet MS, sans-serif', 'track-height': '6px', 'button-radius': '10px', shadow: '0 6px 24px rgba(0,0,0,0.6)' }],
];

const skins = PALETTES.flatMap(([p, accent, bar, fg, track]) => SHAPES.map(([s, shape]) => ({
  name: `${p}-${s}`,
  label: `${p[0].toUpperCase()}${p.slice(1)} ${s}`,
  tokens: { accent, 'bar-bg': bar, fg, track, border: 'none', shadow: 'none', ...shape },
})));
writeFileSync(join(import.meta.dir, 'library.json'), JSON.stringify({ version: 1, count: skins.length, skins }, null, 1) + '\n');
console.log(`wrote ${skins.length} skins`);
