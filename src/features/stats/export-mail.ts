/** What the ready mail needs of a job's answer. */
export interface ReadyJob { report: string; format: string; from: string; to: string; rows: number | null; file_name: string | null; download_url: string | null; download_expires_at: string | null }

/** The mail sent when a prepared export asked with `email` is ready: the signed link (15 minutes) and where to get a fresh one. */
export function exportReadyMail(j: ReadyJob, jobUrl: string): { subject: string; text: string } {
  return {
    subject: `ViewStream export ready: ${j.report} (${j.from.slice(0, 10)} to ${j.to.slice(0, 10)})`,
    text: [
      `Your ${j.report} export (${j.format}, ${j.rows ?? 0} rows) is ready: ${j.file_name ?? ''}`,
      '',
      `Download (signed, valid until ${j.download_expires_at ?? ''}; sign in to the studio first):`,
      j.download_url ?? '',
      '',
      `After that time, read the export again for a fresh link: ${jobUrl}`,
      'The file is kept for 7 days.',
    ].join('\n'),
  };
}
