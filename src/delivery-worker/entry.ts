#!/usr/bin/env bun
import { runDeliveryWorker } from './worker';

/** Entry of a delivery worker process started from source (`bun src/delivery-worker/entry.ts`). */
process.umask(0o077);
runDeliveryWorker().catch((e) => { process.stderr.write(`delivery worker failed: ${String((e as Error)?.stack ?? e)}\n`); process.exit(1); });
