/**
 * For the public site (sites issue): a programme's article as the site may show it — only once an editor published it
 * (the newest published artifact of the programme), else null. Drafts and rejected articles are never shown.
 */
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import type { ArticleBody } from '../../engines/article/types';
import { ArtifactStore } from './store';

/** A published article of a programme. */
export interface PublishedArticle { id: string; body: ArticleBody; published_at: string; language: string | null }

/** The programme's newest published article, or null. */
export function publishedArticleOf(ctx: AppContext, tenantId: string, programmeId: string): PublishedArticle | null {
  const a = new ArtifactStore(ctx.db).latestPublishedOf(tenantId, 'programme', programmeId);
  return a ? { id: a.id, body: JSON.parse(a.body) as ArticleBody, published_at: iso(a.decided_at ?? a.updated_at), language: a.language } : null;
}
