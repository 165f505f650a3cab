import { expect, test } from 'bun:test';
import { workerCapabilities } from '../../src/cli/worker';
import { capToken, consumerOf, SUBJECTS } from '../../src/features/cluster/protocol';
import { workerSubjects } from '../../src/features/cluster/worker-loop';
import { articleSubject } from '../../src/features/cluster/remote-article';
import type { AsrEngine } from '../../src/engines/asr/types';

// Issue 49: per-job capability. A job goes only to a worker that has its capability: each capability is a subject
// with its own durable consumer, and a worker pulls only the subjects its capabilities allow.
const engine = (langs: string[]): AsrEngine => ({ name: 'x', compute: 'cpu', supports: (l) => langs.includes(l.split('-')[0]!), transcribe: async () => [] });
const cpu = { encoder: 'libx264' as const, concurrency: 1, detected: true, nice: 10 };
const gpu = { encoder: 'h264_nvenc' as const, concurrency: 1, detected: true, nice: 10 };

test('subjects and consumer names per kind and capability', () => {
  expect(SUBJECTS.job('subtitle', 'lang:en')).toBe('vs.jobs.subtitle.lang-en');
  expect(SUBJECTS.job('clip', 'any')).toBe('vs.jobs.clip.any');
  expect(articleSubject('extractive')).toBe('vs.jobs.article.any');
  expect(articleSubject('llm')).toBe('vs.jobs.article.llm');
  expect(capToken('lang:he')).toBe('lang-he');
  expect(consumerOf('vs.jobs.subtitle.lang-en')).toBe('subtitle-lang-en');
  // The transcode consumers keep the names workers of the first cluster release created.
  expect(consumerOf('any')).toBe('transcode-any');
  expect(consumerOf(SUBJECTS.transcode('gpu'))).toBe('transcode-gpu');
});

test('a worker takes only the subjects its capabilities allow, GPU transcodes first', () => {
  expect(workerSubjects([])).toEqual(['vs.jobs.transcode.any', 'vs.jobs.clip.any', 'vs.jobs.image.any', 'vs.jobs.article.any']);
  expect(workerSubjects(['gpu', 'lang:en'])).toEqual(['vs.jobs.transcode.gpu', 'vs.jobs.transcode.any', 'vs.jobs.clip.any', 'vs.jobs.image.any', 'vs.jobs.subtitle.lang-en', 'vs.jobs.article.any']);
  expect(workerSubjects(['lang:he'])).not.toContain('vs.jobs.subtitle.lang-en');
  // Chat-model drafts only to workers with their own chat endpoint (`llm`); extractive drafts to every worker.
  expect(workerSubjects(['lang:en'])).not.toContain('vs.jobs.article.llm');
  expect(workerSubjects(['llm'])).toContain('vs.jobs.article.llm');
});

test('capabilities: given, or detected from the encoder and the speech engines', () => {
  expect(workerCapabilities('gpu, lang:EN,bogus,lang:', cpu, [], [])).toEqual(['gpu', 'lang:en']);
  expect(workerCapabilities(undefined, cpu, [engine(['en'])], [])).toEqual(['lang:en']);
  expect(workerCapabilities(undefined, gpu, [engine(['en', 'he'])], [])).toEqual(['gpu', 'lang:en', 'lang:he']);
  expect(workerCapabilities(undefined, cpu, [engine(['pt'])], ['pt-BR'])).toEqual(['lang:pt']);
  expect(workerCapabilities(undefined, cpu, [], [])).toEqual([]);
  expect(workerCapabilities(undefined, cpu, [], [], true)).toEqual(['llm']);
  expect(workerCapabilities('llm,gpu', cpu, [], [])).toEqual(['llm', 'gpu']);
});
