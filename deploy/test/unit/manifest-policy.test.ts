/**
 * The checks themselves: each one must fail when the setting it guards is
 * removed from a rendered manifest, or the green run of k8s-manifests.test.ts
 * would prove nothing.
 */
import { join } from 'node:path';
import { containersOf, renderKustomization, type Manifest } from '../support/kustomize';
import { isPinnedImage, policyViolations } from '../support/manifest-policy';
import { kubernetesSchemaErrors } from '../support/schemas';

const PROD = join(__dirname, '..', '..', 'k8s', 'overlays', 'prod');

type Obj = Record<string, unknown>;

/** A fresh render with one change made to Deployment/gateway's container. */
function withGateway(change: (container: Obj, pod: Obj, deployment: Manifest) => void): Manifest[] {
  const objects = renderKustomization(PROD);
  const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'gateway') as Manifest;
  const pod = (deployment.spec as { template: { spec: Obj } }).template.spec;
  change(containersOf(deployment)[0], pod, deployment);
  return objects;
}

function securityOf(container: Obj): Obj {
  return container.securityContext as Obj;
}

describe('deployment policies', () => {
  it('pass on the rendered prod overlay as committed', () => {
    expect(policyViolations(renderKustomization(PROD))).toEqual([]);
  });

  it.each<[string, (c: Obj, pod: Obj) => void, string]>([
    ['readiness probe removed', (c) => delete c.readinessProbe, 'container gateway has no readinessProbe on /readyz'],
    ['liveness probe removed', (c) => delete c.livenessProbe, 'container gateway has no livenessProbe on /healthz'],
    [
      'memory limit removed',
      (c) => delete ((c.resources as Obj).limits as Obj).memory,
      'container gateway has no resources.limits.memory',
    ],
    [
      'cpu request removed',
      (c) => delete ((c.resources as Obj).requests as Obj).cpu,
      'container gateway has no resources.requests.cpu',
    ],
    [
      'runAsNonRoot removed',
      (_c, pod) => delete (pod.securityContext as Obj).runAsNonRoot,
      'container gateway may run as root',
    ],
    [
      'read-only root file system removed',
      (c) => delete securityOf(c).readOnlyRootFilesystem,
      'container gateway has a writable root file system',
    ],
    [
      'privilege escalation allowed',
      (c) => (securityOf(c).allowPrivilegeEscalation = true),
      'container gateway allows privilege escalation',
    ],
    [
      'capabilities no longer dropped',
      (c) => delete securityOf(c).capabilities,
      'container gateway does not drop all capabilities',
    ],
    ['image on latest', (c) => (c.image = 'ghcr.io/skills-catalog/skills-catalog:latest'), 'is not pinned'],
    ['image without tag', (c) => (c.image = 'ghcr.io/skills-catalog/skills-catalog'), 'is not pinned'],
    ['preStop removed', (c) => delete c.lifecycle, 'has no preStop pause'],
    [
      'grace period shorter than the drain',
      (_c, pod) => (pod.terminationGracePeriodSeconds = 15),
      'terminationGracePeriodSeconds 15 is shorter',
    ],
    [
      'secret inlined',
      (c) => (c.env as Obj[]).push({ name: 'ADMIN_TOKEN', value: 'x'.repeat(40) }),
      'sets ADMIN_TOKEN inline',
    ],
  ])('fail when the %s', (_label, change, expected) => {
    const violations = policyViolations(withGateway(change));
    expect(violations.join('\n')).toContain(expected);
  });

  it('fail when a Secret with a value is committed', () => {
    const objects = renderKustomization(PROD);
    objects.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'skills-secrets' },
      stringData: { 'admin-token': 'x'.repeat(40) },
    });
    expect(policyViolations(objects)).toContain('Secret/skills-secrets commits secret values');
  });

  it('accept digests and version tags as pinned, reject floating tags', () => {
    expect(isPinnedImage(`registry.example.com:5000/app@sha256:${'a'.repeat(64)}`)).toBe(true);
    expect(isPinnedImage('registry.example.com:5000/app:1.2.3')).toBe(true);
    expect(isPinnedImage('registry.example.com:5000/app')).toBe(false);
    expect(isPinnedImage('app:latest')).toBe(false);
  });
});

describe('Kubernetes schema validation', () => {
  it('rejects a Deployment whose fields have the wrong type or are missing', () => {
    const [deployment] = withGateway((c) => ((c.ports as Obj[])[0].containerPort = 'http')).filter(
      (o) => o.kind === 'Deployment' && o.metadata.name === 'gateway',
    );
    expect(kubernetesSchemaErrors(deployment).join()).toContain('containerPort must be integer');
    const noSelector = { ...deployment, spec: { ...(deployment.spec as Obj), selector: undefined } } as Manifest;
    expect(kubernetesSchemaErrors(JSON.parse(JSON.stringify(noSelector)) as Manifest).join()).toContain('selector');
  });
});
