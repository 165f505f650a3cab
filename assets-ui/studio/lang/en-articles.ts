/** English strings of the AI articles inbox and review page (merged into EN; every key must also be in he-articles.ts). */
export const EN_ARTICLES = {
  nav_articles: 'Articles', ar_inbox: 'AI articles', ar_filter_status: 'Status', ar_all: 'All', ar_st_draft: 'Draft', ar_st_published: 'Published', ar_st_rejected: 'Rejected',
  ar_headline: 'Headline', ar_programme: 'Programme', ar_engine: 'Engine', ar_created: 'Drafted', ar_open: 'Review',
  ar_none: 'No articles here yet. Ask for a draft of an ended programme that has subtitles (POST /v1/programmes/{id}/article).',
  ar_more: 'Older articles', ar_eng_extractive: 'extractive (no model)', ar_eng_llm: 'language model',
  ar_review: 'Review · {title}', ar_back: 'Back to the articles', ar_video: 'Programme video', ar_transcript: 'Transcript', ar_draft: 'Draft',
  ar_standfirst: 'Standfirst', ar_summary: 'Summary', ar_chapters: 'Chapters', ar_chapter_n: 'Chapter {n}', ar_ch_title: 'Title', ar_ch_description: 'Description',
  ar_quotes: 'Quotes', ar_quote_role: 'Speaker', ar_role_presenter: 'presenter', ar_role_guest: 'guest', ar_role_report: 'report', ar_remove_quote: 'Remove this quote',
  ar_play_at: 'Play from {t}', ar_entities: 'Names in the transcript', ar_tags: 'Tags', ar_save: 'Save changes', ar_saved: 'Saved as corrections.', ar_nothing: 'Nothing changed.',
  ar_corrections: 'Corrections', ar_no_corrections: 'No corrections yet.', ar_corr_line: '{field} · {who} · {at}',
  ar_approve: 'Approve and publish', ar_confirm_approve: 'Publish this article? The site shows it and the artifact.published webhook is sent.',
  ar_reject: 'Reject', ar_reject_reason: 'Why is it rejected?', ar_reject_send: 'Reject the draft', ar_reason_needed: 'Write a reason.',
  ar_read_only: 'This article is {status}: it can no longer be changed.', ar_rejected_why: 'Rejected: {reason}',
  ar_warnings: 'Repairs made to the model\'s answer', ar_verbatim: 'Quotes are the transcript\'s own words; only the speaker can change.',
  ar_no_transcript: 'The transcript this draft was written from is no longer there.', ar_cue: 'Cue {n}',
  ar_cannot_publish: 'Publishing needs the publisher role.',
};
