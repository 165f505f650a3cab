import { parseCli } from './args';
import { tuneAllocator } from '../kernel/runtime/allocator';

/**
 * Runs before any other module of the program is loaded (main.ts imports it first): `serve` re-executes itself with
 * its allocator options (kernel/runtime/allocator.ts). A command line the parser refuses is left to main to report.
 */
function preamble(): void {
  let command: string | undefined;
  try { command = parseCli(process.argv.slice(2)).words[0]; } catch { return; }
  tuneAllocator(command);
}

preamble();
