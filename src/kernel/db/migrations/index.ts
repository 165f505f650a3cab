import type { Migration } from '../migration';
import { m0001 } from './0001_identity';
import { m0002 } from './0002_jobs_outbox';

/** Every schema migration, in version order. Add new files here (one line each). */
export const MIGRATIONS: Migration[] = [
  m0001,
  m0002,
];
