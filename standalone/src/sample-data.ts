/**
 * The bundled sample a first start loads (scripts/generate-sample-catalog.ts
 * writes both files): the catalog as the admin import takes it, and the
 * trust a first start records through the scanner and admin APIs.
 */
import { join } from 'node:path';

export interface SampleData {
  /** NDJSON of items with their releases */
  catalogFile: string;
  /** verdicts per release and verified publishers (SampleTrust) */
  trustFile: string;
}

const DATA_DIR = join(__dirname, '..', 'data');

export const BUNDLED_SAMPLE: SampleData = {
  catalogFile: join(DATA_DIR, 'sample-catalog.ndjson'),
  trustFile: join(DATA_DIR, 'sample-trust.json'),
};
