/**
 * Allocator tuning for `viewstream serve`, applied by replacing the process image once at start (same pid, before
 * anything is opened): Bun's native allocator, mimalloc, reads its options from the environment only when the process
 * starts, so they cannot be set from inside.
 *
 * `MIMALLOC_PURGE_DELAY=-1`: freed memory stays with the process for reuse instead of being handed back to the kernel
 * 100 ms later (mimalloc's default `purge_delay`) by its background thread. Measured on the delivery front at ~900
 * segment answers a second (2 MB each, two cores): the service's process took 40 ms of CPU a second with the default
 * and 31 ms without the purge, 15 and 12 ms a second idle; the purge thread itself was 3-7 ms a second, and the
 * pages it returned were faulted in again at once. The cost is that the process keeps its high-water mark of native
 * memory (buffers, not the JavaScript heap) instead of shrinking after a peak: 169 MB resident eight seconds after that
 * load against 155 MB.
 *
 * Called by the CLI's preamble (cli/preamble.ts) with the command word, before the rest of the program is loaded.
 * Left alone when `MIMALLOC_PURGE_DELAY` is already set (any value: the operator's choice, also how the re-executed
 * process knows it is done) or when the runtime has no `process.execve`.
 */
export function tuneAllocator(command: string | undefined): void {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve !== 'function') return;
  const plan = allocatorReexec(command, process.argv, process.env, process.execPath, process.execArgv);
  if (plan) execve.call(process, plan.file, plan.args, plan.env);
}

/** Pure: the re-execution `tuneAllocator` makes for this command line and environment (null: none). */
export function allocatorReexec(command: string | undefined, argv: readonly string[], env: NodeJS.ProcessEnv, execPath: string, execArgv: readonly string[]): { file: string; args: string[]; env: NodeJS.ProcessEnv } | null {
  if (env.MIMALLOC_PURGE_DELAY !== undefined) return null;
  // Only the long-running server (its delivery workers inherit the setting); one-shot commands are not worth an exec.
  if (command !== 'serve') return null;
  // A compiled binary runs its embedded entry point (argv[1] is /$bunfs/...); from source the script and the
  // runtime's own flags (--cpu-prof, --preload) are passed again.
  const compiled = (argv[1] ?? '').includes('$bunfs');
  const args = compiled ? [execPath, ...argv.slice(2)] : [execPath, ...execArgv, ...argv.slice(1)];
  return { file: execPath, args, env: { ...env, MIMALLOC_PURGE_DELAY: '-1' } };
}
