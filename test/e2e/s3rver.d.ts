/** The slice of s3rver (npm, no bundled types) the S3 tests use. */
declare module 's3rver' {
  /** A local S3-compatible server. */
  export default class S3rver {
    constructor(o: { port: number; address: string; silent: boolean; directory: string; configureBuckets: { name: string; configs: unknown[] }[] });
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
  }
}
