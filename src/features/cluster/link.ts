import type { EncoderClass, JobMsg, ResultMsg, TranscodeJobMsg } from './protocol';

/** The control node's link to the job cluster: publishes jobs; results and progress are written as they arrive. */
export interface ClusterLink {
  /** Publishes a transcode durably (de-duplicated by job id and generation); resolves once the stream holds it. */
  publishTranscode(msg: TranscodeJobMsg, cls: EncoderClass): Promise<void>;
  /** Publishes any job to its subject durably (de-duplicated by job id and generation); answers the stream sequence. */
  publish(subject: string, msg: JobMsg): Promise<number>;
  /**
   * Stops a job: its message leaves the stream (`seq`, when known: a job no worker took yet never runs) and the
   * worker holding it is told on `vs.cancel.<job>` (it kills its ffmpeg, clears scratch and output, acknowledges).
   */
  cancel(jobId: string, gen: number, seq: number | null): Promise<void>;
  /** The next result of a job that has no `cluster_jobs` record (request-scoped work such as a poster); rejects on `signal`. */
  awaitResult(jobId: string, signal: AbortSignal): Promise<ResultMsg>;
}
