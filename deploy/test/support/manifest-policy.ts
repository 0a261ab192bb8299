/**
 * Deployment policies of the Skills Catalog, checked on rendered manifests.
 * Each rule returns readable violations ("Deployment/gateway: container
 * gateway has no readinessProbe") so a failing test says what to fix.
 */
import { containersOf, podSpecOf, type Manifest } from './kustomize';

type Obj = Record<string, unknown>;

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);

function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, key) => (o && typeof o === 'object' ? (o as Obj)[key] : undefined), obj);
}

/** A tag that names one build: not `latest`, not missing; or a digest. */
export function isPinnedImage(image: string): boolean {
  if (/@sha256:[a-f0-9]{64}$/.test(image)) return true;
  const tag = /:([^/:]+)$/.exec(image)?.[1];
  return tag !== undefined && tag !== 'latest' && !/^(stable|main|master|edge|dev)$/.test(tag);
}

function preStopSeconds(container: Obj): number {
  const sleep = at(container, 'lifecycle.preStop.sleep.seconds');
  if (typeof sleep === 'number') return sleep;
  const command = at(container, 'lifecycle.preStop.exec.command');
  if (Array.isArray(command) && command[0] === 'sleep') return Number(command[1]);
  return 0;
}

function containerViolations(where: string, container: Obj, pod: Obj, isService: boolean): string[] {
  const name = `${where}: container ${String(container.name)}`;
  const out: string[] = [];
  if (!isPinnedImage(String(container.image)))
    out.push(`${name} image ${String(container.image)} is not pinned to a version tag or digest`);
  for (const kind of ['requests', 'limits']) {
    for (const resource of ['cpu', 'memory']) {
      if (at(container, `resources.${kind}.${resource}`) === undefined)
        out.push(`${name} has no resources.${kind}.${resource}`);
    }
  }
  const runAsNonRoot = at(container, 'securityContext.runAsNonRoot') ?? at(pod, 'securityContext.runAsNonRoot');
  if (runAsNonRoot !== true) out.push(`${name} may run as root (runAsNonRoot is not true)`);
  const runAsUser = at(container, 'securityContext.runAsUser') ?? at(pod, 'securityContext.runAsUser');
  if (runAsUser === 0) out.push(`${name} runs as uid 0`);
  if (at(container, 'securityContext.readOnlyRootFilesystem') !== true)
    out.push(`${name} has a writable root file system`);
  if (at(container, 'securityContext.allowPrivilegeEscalation') !== false)
    out.push(`${name} allows privilege escalation`);
  if (at(container, 'securityContext.privileged') === true) out.push(`${name} is privileged`);
  const drop = at(container, 'securityContext.capabilities.drop');
  if (!Array.isArray(drop) || !drop.includes('ALL')) out.push(`${name} does not drop all capabilities`);
  if (at(container, 'securityContext.capabilities.add') !== undefined) out.push(`${name} adds capabilities`);
  if (isService) {
    if (at(container, 'readinessProbe.httpGet.path') !== '/readyz')
      out.push(`${name} has no readinessProbe on /readyz`);
    if (at(container, 'livenessProbe.httpGet.path') !== '/healthz')
      out.push(`${name} has no livenessProbe on /healthz`);
    const stop = preStopSeconds(container);
    if (stop <= 0) out.push(`${name} has no preStop pause for endpoint removal`);
    const grace = Number(pod.terminationGracePeriodSeconds ?? 30);
    // The pause plus the service's own drain (under 20 s) must fit the grace period.
    if (grace < stop + 20)
      out.push(`${where}: terminationGracePeriodSeconds ${grace} is shorter than preStop ${stop}s + 20s of drain`);
  }
  return out;
}

/** Violations of the workload rules (probes, limits, security, images). */
export function workloadViolations(objects: Manifest[]): string[] {
  const out: string[] = [];
  for (const object of objects.filter((o) => WORKLOADS.has(o.kind))) {
    const where = `${object.kind}/${object.metadata.name}`;
    const pod = podSpecOf(object) ?? {};
    const containers = containersOf(object);
    if (containers.length === 0) out.push(`${where} has no containers`);
    if (pod.hostNetwork === true || pod.hostPID === true || pod.hostIPC === true)
      out.push(`${where} shares a host namespace`);
    if (pod.automountServiceAccountToken !== false)
      out.push(`${where} mounts a service account token it does not need`);
    for (const container of containers)
      out.push(...containerViolations(where, container, pod, object.kind === 'Deployment'));
  }
  return out;
}

/** Names of variables that hold credentials (URLs may embed a password). */
export const SENSITIVE_ENV = /SECRET|TOKEN|PASSWORD|DATABASE_URL|ELASTICSEARCH_URL|REDIS_URL/;

/**
 * No secret value is committed: Secrets are created in the cluster, never
 * carry data here; credentials reach containers only by reference.
 */
export function secretViolations(objects: Manifest[]): string[] {
  const out: string[] = [];
  for (const object of objects) {
    const where = `${object.kind}/${object.metadata.name}`;
    if (
      object.kind === 'Secret' &&
      (Object.keys((object.data as Obj) ?? {}).length > 0 || Object.keys((object.stringData as Obj) ?? {}).length > 0)
    ) {
      out.push(`${where} commits secret values`);
    }
    if (object.kind === 'ConfigMap') {
      for (const key of Object.keys((object.data as Obj) ?? {}).filter((k) => SENSITIVE_ENV.test(k)))
        out.push(`${where} holds ${key}; use a Secret`);
    }
    for (const container of containersOf(object)) {
      const env = (container.env as Array<{ name: string; value?: unknown }>) ?? [];
      for (const variable of env.filter((e) => SENSITIVE_ENV.test(e.name) && e.value !== undefined)) {
        out.push(`${where}: container ${String(container.name)} sets ${variable.name} inline; use a secretKeyRef`);
      }
    }
  }
  return out;
}

/** Every violation of every rule. */
export function policyViolations(objects: Manifest[]): string[] {
  return [...workloadViolations(objects), ...secretViolations(objects)];
}
