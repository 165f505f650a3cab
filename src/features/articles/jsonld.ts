/**
 * Structured data of a published article: a schema.org `NewsArticle` (author and publisher the organisation) whose
 * `video` is the programme's `VideoObject` (name, description, thumbnailUrl, uploadDate, duration, contentUrl /
 * embedUrl) with `hasPart` one `Clip` per chapter (name, startOffset and endOffset in whole seconds, url with
 * `?t=<seconds>` on the programme's page) — Google's key-moments markup (ANCHORS "Articles and structured data").
 */
import type { ArticleBody } from '../../engines/article/types';

/** What the JSON-LD is built from besides the body. */
export interface JsonLdInput {
  body: ArticleBody;
  /** The programme's page (public site, else the hosted watch page). */
  url: string;
  organisation: { name: string; url: string };
  video: { name: string; description: string; thumbnailUrl: string[]; uploadDate: string; durationS: number; contentUrl: string | null; embedUrl: string | null };
  publishedAt: string;
  language: string | null;
}

/** `url` with `t=<seconds>` set (other query parameters kept). */
export function momentUrl(url: string, seconds: number): string {
  const u = new URL(url);
  u.searchParams.set('t', String(Math.max(0, Math.floor(seconds))));
  return u.toString();
}

/** ISO 8601 duration of whole seconds (`PT1H2M3S`). */
export function isoDuration(s: number): string {
  const n = Math.max(0, Math.round(s));
  const h = Math.floor(n / 3600), m = Math.floor((n % 3600) / 60), sec = n % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${sec || (!h && !m) ? `${sec}S` : ''}`;
}

/** The NewsArticle object (see the file comment). */
export function articleJsonLd(i: JsonLdInput): Record<string, unknown> {
  const org = { '@type': 'Organization', name: i.organisation.name, url: i.organisation.url };
  const clips = i.body.chapters.map((c) => {
    const start = Math.floor(c.start_ms / 1000), end = Math.max(start + 1, Math.ceil(c.end_ms / 1000));
    return { '@type': 'Clip', name: c.title, startOffset: start, endOffset: end, url: momentUrl(i.url, start) };
  });
  const video: Record<string, unknown> = {
    '@type': 'VideoObject', name: i.video.name, description: i.video.description || i.body.standfirst || i.body.headline,
    thumbnailUrl: i.video.thumbnailUrl, uploadDate: i.video.uploadDate, duration: isoDuration(i.video.durationS),
    ...(i.video.contentUrl ? { contentUrl: i.video.contentUrl } : {}), ...(i.video.embedUrl ? { embedUrl: i.video.embedUrl } : {}),
    hasPart: clips,
  };
  return {
    '@context': 'https://schema.org', '@type': 'NewsArticle',
    headline: i.body.headline.length > 110 ? `${i.body.headline.slice(0, 109)}…` : i.body.headline,
    description: i.body.standfirst || i.body.summary, articleBody: [i.body.summary, ...i.body.chapters.flatMap((c) => c.paragraphs)].join('\n\n'),
    datePublished: i.publishedAt, dateModified: i.publishedAt, ...(i.language ? { inLanguage: i.language } : {}),
    mainEntityOfPage: { '@type': 'WebPage', '@id': i.url }, url: i.url,
    ...(i.video.thumbnailUrl.length ? { image: i.video.thumbnailUrl } : {}),
    author: org, publisher: org,
    ...(i.body.tags.length ? { keywords: i.body.tags.join(', ') } : {}),
    ...(i.body.entities.length ? { mentions: i.body.entities.map((name) => ({ '@type': 'Thing', name })) } : {}),
    video,
  };
}
