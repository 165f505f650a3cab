#!/usr/bin/env bun
/**
 * Article engine benchmark (issue 45): the built-in extractive engine drafting synthetic programmes of 10 minutes,
 * 1 hour and 3 hours (one cue every 3 s, sentences drawn from six topics in runs, so segmentation has real work), in
 * the same run as a baseline that only reads the transcript the way any engine must (sentence units and their
 * content words, lexical.ts). Prints per length: median draft ms, baseline ms and the ratio, chapters found.
 * The LLM engine's time is the model's; it is not measured here.
 * Usage: bun scripts/bench/articles.ts [--rounds 7]
 */
import { parseArgs } from 'node:util';
import { extractArticle } from '../../src/engines/article/extractive';
import { unitsOf } from '../../src/engines/article/lexical';
import type { ArticleCue } from '../../src/engines/article/types';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } });
const rounds = Number(values.rounds);
const TOPICS = [
  ['government', 'budget', 'minister', 'parliament', 'vote', 'tax', 'coalition'], ['storm', 'rain', 'wind', 'coast', 'flooding', 'forecast', 'weather'],
  ['football', 'goal', 'match', 'team', 'coach', 'player', 'league'], ['hospital', 'doctors', 'patients', 'health', 'nurses', 'clinic', 'treatment'],
  ['school', 'teachers', 'students', 'exams', 'education', 'classes', 'university'], ['market', 'shares', 'prices', 'inflation', 'bank', 'interest', 'economy'],
];
const FILLER = ['the', 'said', 'that', 'today', 'after', 'new', 'with', 'their', 'will', 'and', 'was'];

/** A deterministic transcript: topic runs of 40-120 cues, each cue 6-12 words. */
function transcript(minutes: number): ArticleCue[] {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const cues: ArticleCue[] = [];
  const n = Math.round((minutes * 60) / 3);
  let topic = 0, left = 0;
  for (let i = 0; i < n; i++) {
    if (left-- <= 0) { topic = Math.floor(rnd() * TOPICS.length); left = 40 + Math.floor(rnd() * 80); }
    const words = Array.from({ length: 6 + Math.floor(rnd() * 7) }, () => (rnd() < 0.45 ? TOPICS[topic]![Math.floor(rnd() * 7)] : FILLER[Math.floor(rnd() * FILLER.length)]));
    cues.push({ id: i + 1, startMs: i * 3000, endMs: i * 3000 + 2500, text: `${words.join(' ')}${rnd() < 0.5 ? '.' : ''}` });
  }
  return cues;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('length  cues   draft_ms  baseline_ms  ratio  chapters');
for (const minutes of [10, 60, 180]) {
  const cues = transcript(minutes);
  const input = { title: 'Bench', description: null, language: 'en', durationMs: minutes * 60_000, cues };
  const draft: number[] = [], base: number[] = [];
  let chapters = 0;
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    unitsOf(cues);
    base.push(performance.now() - t0);
    t0 = performance.now();
    chapters = extractArticle(input).chapters.length;
    draft.push(performance.now() - t0);
  }
  const d = median(draft), b = median(base);
  console.log(`${String(minutes).padStart(4)} min ${String(cues.length).padStart(5)} ${d.toFixed(1).padStart(10)} ${b.toFixed(1).padStart(12)} ${(d / b).toFixed(1).padStart(6)} ${String(chapters).padStart(9)}`);
}
