/**
 * docs/deploy.md stays the operator's reference: every variable the compose
 * file or the manifests set, and every command of the image, is documented.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readComposeRaw } from '../support/compose';
import { containersOf, renderKustomization } from '../support/kustomize';

const ROOT = join(__dirname, '..', '..', '..');
const docs = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');
/** Variables of the datastore images, documented by their own projects. */
const THIRD_PARTY = /^(POSTGRES_|KAFKA_|CLUSTER_ID$|ES_JAVA_OPTS$|discovery\.|xpack\.)/;

describe('docs/deploy.md', () => {
  it('documents every variable that docker-compose.yml sets for our processes', () => {
    const compose = readComposeRaw(join(ROOT, 'docker-compose.yml'));
    const names = Object.values(compose.services).flatMap((s) => Object.keys(s.environment ?? {}));
    const missing = [...new Set(names)].filter((n) => !THIRD_PARTY.test(n) && !docs.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });

  it('documents every variable that the Kubernetes manifests set', () => {
    const objects = renderKustomization(join(ROOT, 'deploy', 'k8s', 'overlays', 'prod'));
    const fromConfigMaps = objects
      .filter((o) => o.kind === 'ConfigMap')
      .flatMap((o) => Object.keys((o.data as object) ?? {}));
    const fromContainers = objects
      .flatMap(containersOf)
      .flatMap((c) => ((c.env as Array<{ name: string }>) ?? []).map((e) => e.name));
    const missing = [...new Set([...fromConfigMaps, ...fromContainers])].filter((n) => !docs.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });

  it('documents every command of the image', () => {
    const entrypoint = readFileSync(join(ROOT, 'deploy', 'docker', 'entrypoint.sh'), 'utf8');
    const commands = [...entrypoint.matchAll(/^ {2}([a-z-]+)\)$/gm)].map((m) => m[1]);
    expect(commands.length).toBeGreaterThanOrEqual(6);
    expect(commands.filter((c) => !docs.includes(`\`${c}`))).toEqual([]);
  });
});
