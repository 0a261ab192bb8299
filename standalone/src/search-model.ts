/**
 * `npm start` puts catalog-service's search model in place before anything
 * starts, so a first run shows its download as a progress line rather than
 * as log lines. When the model cannot be had (an offline machine), the run
 * goes on with search by words alone, said once here: catalog-service is
 * started with the model off rather than failing to find it a second time.
 */
import { loadEmbeddingConfig, prepareModel } from '@skills/catalog-service';
import type { ProgressOutput } from '@skills/catalog-service';

export async function withSearchModel(
  catalogEnv: Readonly<Record<string, string>>,
  out: ProgressOutput,
): Promise<Readonly<Record<string, string>>> {
  const settings = loadEmbeddingConfig(catalogEnv);
  try {
    await prepareModel(settings, out);
    return catalogEnv;
  } catch (err) {
    out.write(
      `search model not fetched (${err instanceof Error ? err.message : String(err)}): search by words alone\n`,
    );
    return { ...catalogEnv, EMBEDDING_MODEL: 'off' };
  }
}
