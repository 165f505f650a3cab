/** The few S3 XML documents the ingest endpoint writes and reads (reading with saxes, the XML parser we ship). */
import { SaxesParser } from 'saxes';

const esc = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const doc = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

/** An S3 error document. */
export function s3Error(code: string, message: string, resource: string): string {
  return doc(`<Error><Code>${esc(code)}</Code><Message>${esc(message)}</Message><Resource>${esc(resource)}</Resource></Error>`);
}

/** The answer of CreateMultipartUpload. */
export function initiateResult(bucket: string, key: string, uploadId: string): string {
  return doc(`<InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${esc(bucket)}</Bucket><Key>${esc(key)}</Key><UploadId>${esc(uploadId)}</UploadId></InitiateMultipartUploadResult>`);
}

/** The answer of CompleteMultipartUpload. */
export function completeResult(bucket: string, key: string, etag: string): string {
  return doc(`<CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${esc(bucket)}</Bucket><Key>${esc(key)}</Key><ETag>${esc(etag)}</ETag></CompleteMultipartUploadResult>`);
}

/** The answer of ListObjectsV2 (one page; `truncated` with the next continuation token). */
export function listResult(bucket: string, prefix: string, items: { key: string; size: number; mtime: number; etag: string }[], next: string | null): string {
  const contents = items.map((i) => `<Contents><Key>${esc(i.key)}</Key><LastModified>${new Date(i.mtime).toISOString()}</LastModified><ETag>${esc(i.etag)}</ETag><Size>${i.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`).join('');
  return doc(`<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${esc(bucket)}</Name><Prefix>${esc(prefix)}</Prefix><KeyCount>${items.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>${next ? 'true' : 'false'}</IsTruncated>${next ? `<NextContinuationToken>${esc(next)}</NextContinuationToken>` : ''}${contents}</ListBucketResult>`);
}

/** The parts a CompleteMultipartUpload body names, in document order; throws on malformed XML. */
export function completeParts(xml: string): { partNumber: number; etag: string }[] {
  const parts: { partNumber: number; etag: string }[] = [];
  const p = new SaxesParser();
  let path: string[] = [];
  let cur: { partNumber?: number; etag?: string } | null = null;
  let text = '';
  p.on('opentag', (t) => { path.push(t.name); text = ''; if (t.name === 'Part') cur = {}; });
  p.on('text', (t) => { text += t; });
  p.on('closetag', (t) => {
    if (cur && t.name === 'PartNumber') cur.partNumber = Number(text.trim());
    if (cur && t.name === 'ETag') cur.etag = text.trim().replace(/^"|"$/g, '');
    if (t.name === 'Part' && cur) {
      if (!Number.isInteger(cur.partNumber) || !cur.etag) throw new Error('a Part without PartNumber or ETag');
      parts.push({ partNumber: cur.partNumber!, etag: cur.etag });
      cur = null;
    }
    path = path.slice(0, -1);
    text = '';
  });
  p.write(xml).close();
  return parts;
}
