/**
 * The test renderer of deploy/test/support/kustomize.ts: its merge rules, and
 * its output against the real kustomize where kubectl is installed (that
 * comparison is reported as skipped on a machine without kubectl).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  parseYamlDocuments,
  renderKustomization,
  strategicMerge,
  type Json,
  type Manifest,
} from '../support/kustomize';

const K8S = join(__dirname, '..', '..', 'k8s');

function kubectlAvailable(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Objects in a stable order, so two renders compare regardless of ordering. */
function sorted(objects: Manifest[]): Manifest[] {
  const key = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  return [...objects].sort((a, b) => key(a).localeCompare(key(b)));
}

describe('strategicMerge', () => {
  it('merges maps, deletes keys set to null, merges named lists by name and replaces other lists', () => {
    const base: Json = {
      a: { keep: 1, drop: 2 },
      containers: [
        { name: 'x', image: 'i', args: ['1'] },
        { name: 'y', image: 'j' },
      ],
      rules: [{ host: 'a' }],
    };
    const patch: Json = {
      a: { drop: null, add: 3 },
      containers: [
        { name: 'x', args: ['2'] },
        { name: 'z', image: 'k' },
      ],
      rules: [{ host: 'b' }],
    };
    expect(strategicMerge(base, patch)).toEqual({
      a: { keep: 1, add: 3 },
      containers: [
        { name: 'x', image: 'i', args: ['2'] },
        { name: 'y', image: 'j' },
        { name: 'z', image: 'k' },
      ],
      rules: [{ host: 'b' }],
    });
  });
});

describe('renderKustomization', () => {
  it('refuses kustomize fields it does not implement', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: []\ncommonLabels:\n  a: b\n');
    expect(() => renderKustomization(dir)).toThrow('fields not supported by the test renderer: commonLabels');
  });

  it('fails when a patch names an object that is not rendered', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
    mkdirSync(join(dir, 'o'));
    writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
    writeFileSync(join(dir, 'p.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  x: "1"\n');
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [cm.yaml]\npatches:\n  - path: p.yaml\n');
    expect(() => renderKustomization(dir)).toThrow('no ConfigMap b to patch');
  });

  const withKubectl = kubectlAvailable() ? it : it.skip;
  withKubectl.each(['dev', 'prod'])('renders overlay %s exactly as kubectl kustomize does', (overlay) => {
    const dir = join(K8S, 'overlays', overlay);
    const real = parseYamlDocuments(
      execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 }),
      'kubectl kustomize',
    );
    expect(sorted(renderKustomization(dir))).toEqual(sorted(real));
    // the admin API is never routed from outside, and the gateway knows its public address
    const paths = real
      .filter((o) => o.kind === 'Ingress')
      .flatMap((o) =>
        (o.spec as { rules: Array<{ http: { paths: Array<{ path: string }> } }> }).rules.flatMap((r) =>
          r.http.paths.map((p) => p.path),
        ),
      );
    expect(paths.filter((p) => p === '/' || '/admin/v1/'.startsWith(`${p.replace(/\/$/, '')}/`))).toEqual([]);
    const config = real.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'skills-config') as
      { data: Record<string, string> } | undefined;
    expect(config?.data.PUBLIC_URL).toBe(
      overlay === 'prod' ? 'https://skills.example.com' : 'http://skills.dev.example.com',
    );
  });
});
