/**
 * The Kubernetes manifests as a cluster would receive them: each overlay
 * rendered (no cluster needed), validated against the Kubernetes v1.33 API
 * schemas and held to our deployment policies.
 */
import { join } from 'node:path';
import { loadCatalogConfig } from '@skills/catalog-service';
import { loadCollectionsConfig } from '@skills/collections-service';
import { loadGatewayConfig } from '@skills/gateway';
import { renderKustomization, containersOf, type Manifest } from '../support/kustomize';
import { policyViolations } from '../support/manifest-policy';
import { kubernetesSchemaErrors } from '../support/schemas';

const K8S = join(__dirname, '..', '..', 'k8s');
const OVERLAYS = ['dev', 'prod'] as const;
const SERVICES = ['gateway', 'catalog-service', 'collections-service'];

function render(overlay: string): Manifest[] {
  return renderKustomization(join(K8S, 'overlays', overlay));
}

function find(objects: Manifest[], kind: string, name: string): Manifest {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is not rendered`);
  return found;
}

/** Stand-ins for what the referenced Secrets hold in a cluster. */
const SECRET_VALUES: Record<string, string> = {
  'skills-pg-app/uri': 'postgresql://app:pw@skills-pg-rw.skills-data.svc:5432/app',
  'skills-pg-gateway/uri': 'postgresql://skills_gateway:pw@skills-pg-rw.skills-data.svc:5432/app',
  'skills-pg-catalog/uri': 'postgresql://skills_catalog:pw@skills-pg-rw.skills-data.svc:5432/app',
  'skills-pg-collections/uri': 'postgresql://skills_collections:pw@skills-pg-rw.skills-data.svc:5432/app',
  'skills-secrets/items-reader-token': 'r'.repeat(40),
  'skills-secrets/admin-token': 'a'.repeat(40),
  'skills-elasticsearch/url': 'https://elastic:pw@skills-es-es-http.skills-data.svc:9200',
  'skills-kafka-catalog-service/password': 'k'.repeat(32),
  'skills-kafka-collections-service/password': 'c'.repeat(32),
};

type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
};

/** The environment a container of `deployment` starts with. */
function containerEnv(objects: Manifest[], deployment: Manifest): Record<string, string> {
  const [container] = containersOf(deployment) as Array<{
    envFrom?: Array<{ configMapRef: { name: string } }>;
    env?: EnvVar[];
  }>;
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? [])
    Object.assign(env, find(objects, 'ConfigMap', source.configMapRef.name).data);
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    if (variable.value !== undefined) env[variable.name] = variable.value;
    else if (ref && SECRET_VALUES[`${ref.name}/${ref.key}`])
      env[variable.name] = SECRET_VALUES[`${ref.name}/${ref.key}`];
    else if (!ref?.optional) throw new Error(`${variable.name}: no stand-in for ${JSON.stringify(variable.valueFrom)}`);
  }
  return env;
}

type IngressRule = {
  host: string;
  http: { paths: Array<{ path: string; pathType: string; backend: { service: { name: string } } }> };
};

function ingressRules(objects: Manifest[]): IngressRule[] {
  return objects.filter((o) => o.kind === 'Ingress').flatMap((o) => (o.spec as { rules: IngressRule[] }).rules);
}

/** Whether a Prefix path sends `path` to its backend (Kubernetes matches whole path elements). */
function ingressRoutes(prefix: string, path: string): boolean {
  const p = prefix.replace(/\/$/, '');
  return p === '' || path === p || path.startsWith(`${p}/`);
}

describe.each(OVERLAYS)('overlay %s', (overlay) => {
  const objects = render(overlay);

  it('renders only objects that are valid for the Kubernetes API', () => {
    expect(objects.length).toBeGreaterThan(10);
    expect(objects.flatMap(kubernetesSchemaErrors)).toEqual([]);
  });

  it('meets every deployment policy', () => {
    expect(policyViolations(objects)).toEqual([]);
  });

  it('puts every namespaced object in the overlay namespace', () => {
    const namespace = find(objects, 'Namespace', overlay === 'prod' ? 'skills' : 'skills-dev').metadata.name;
    const stray = objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace);
    expect(stray.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
  });

  it('runs each service from the same pinned image, picking it by argument', () => {
    for (const name of SERVICES) {
      const [container] = containersOf(find(objects, 'Deployment', name));
      expect(container.image).toBe('ghcr.io/skills-catalog/skills-catalog:1.0.0');
      expect(container.args).toEqual([name]);
    }
    expect(containersOf(find(objects, 'Job', 'skills-migrate'))[0].args).toEqual(['migrate']);
  });

  it('gives each service an environment its own config accepts', () => {
    // HOST=0.0.0.0 comes from the image (deploy/Dockerfile): off loopback, PUBLIC_URL is required
    const gateway = loadGatewayConfig({
      HOST: '0.0.0.0',
      ...containerEnv(objects, find(objects, 'Deployment', 'gateway')),
    });
    expect(gateway).toMatchObject({
      port: 8080,
      catalogUrl: 'http://catalog-service:8081',
      collectionsUrl: 'http://collections-service:8082',
    });
    // the Ingress host: cookies, allowed origins and links follow it
    const [host] = ingressRules(objects).map((r) => r.host);
    expect(new URL(gateway.publicUrl ?? '').host).toBe(host);
    // behind the ingress controller: the failure budget must count clients, not the controller's address
    expect(gateway.trustProxy).toBe(1);
    const catalog = loadCatalogConfig(containerEnv(objects, find(objects, 'Deployment', 'catalog-service')));
    expect(catalog).toMatchObject({ port: 8081, searchEngine: 'elasticsearch', eventLog: 'kafka' });
    expect(
      loadCollectionsConfig(containerEnv(objects, find(objects, 'Deployment', 'collections-service'))),
    ).toMatchObject({ port: 8082 });
  });

  it('exposes only the gateway through an Ingress', () => {
    const backends = objects
      .filter((o) => o.kind === 'Ingress')
      .flatMap(
        (o) =>
          (o.spec as { rules: Array<{ http: { paths: Array<{ backend: { service: { name: string } } }> } }> }).rules,
      )
      .flatMap((r) => r.http.paths.map((p) => p.backend.service.name));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
    const types = objects
      .filter((o) => o.kind === 'Service')
      .map((o) => (o.spec as { type?: string }).type ?? 'ClusterIP');
    expect(new Set(types)).toEqual(new Set(['ClusterIP']));
  });

  it('routes the public paths only: never /admin/v1 (operators use port-forward)', () => {
    const paths = ingressRules(objects).flatMap((r) => r.http.paths.map((p) => p.path));
    expect(paths.filter((p) => ingressRoutes(p, '/admin/v1/skills'))).toEqual([]);
    for (const path of ['/api/v1/skills', '/console/', '/docs', '/healthz', '/readyz', '/api/v1/auth/oidc/callback']) {
      expect({ path, routed: paths.some((p) => ingressRoutes(p, path)) }).toEqual({ path, routed: true });
    }
  });

  it("keeps the gateway's metrics and live readiness check on a port no Service routes", () => {
    const deployment = find(objects, 'Deployment', 'gateway');
    const [container] = containersOf(deployment) as Array<{
      ports: Array<{ name: string; containerPort: number }>;
      readinessProbe: { httpGet: { path: string; port: string } };
    }>;
    const config = loadGatewayConfig(containerEnv(objects, deployment));
    const portOf = (name: string) => container.ports.find((p) => p.name === name)?.containerPort;
    expect(portOf('http')).toBe(config.port);
    expect(portOf('monitor')).toBe(config.metricsPort);
    expect(config.metricsPort).not.toBe(config.port);
    // the probe asks the live check on the monitoring port; Prometheus scrapes it there
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'monitor' });
    expect(
      (deployment.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata
        .annotations['prometheus.io/port'],
    ).toBe(String(config.metricsPort));
    // every Service in front of the gateway targets its public port only
    const targets = objects
      .filter(
        (o) =>
          o.kind === 'Service' &&
          (o.spec as { selector?: Record<string, string> }).selector?.['app.kubernetes.io/name'] === 'gateway',
      )
      .flatMap((o) => (o.spec as { ports: Array<{ targetPort: string | number }> }).ports.map((p) => p.targetPort));
    expect(targets).toEqual(['http']);
  });

  it('autoscales the gateway and catalog-service, and guards every service with a PodDisruptionBudget', () => {
    const hpaTargets = objects
      .filter((o) => o.kind === 'HorizontalPodAutoscaler')
      .map((o) => (o.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name);
    expect(hpaTargets.sort()).toEqual(['catalog-service', 'gateway']);
    const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget').map((o) => o.metadata.name);
    expect(pdbs.sort()).toEqual([...SERVICES].sort());
  });

  it('lets only the gateway reach the services and only the services reach the datastores', () => {
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
    const deny = find(policies, 'NetworkPolicy', 'default-deny').spec as { podSelector: object; policyTypes: string[] };
    expect(deny).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    const peersOf = (name: string) =>
      (
        find(policies, 'NetworkPolicy', name).spec as {
          ingress: Array<{
            from: Array<{ podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown }>;
          }>;
        }
      ).ingress
        .flatMap((rule) => rule.from)
        .filter((peer) => peer.podSelector && !peer.namespaceSelector)
        .map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/name']);
    expect(peersOf('catalog-service')).toEqual(['gateway']);
    // a reindex reads the system of record from collections-service
    expect(peersOf('collections-service').sort()).toEqual(['catalog-service', 'gateway']);
    const datastorePorts = new Set([5432, 9200, 9092, 9093]);
    const reachDatastores = policies
      .filter((p) =>
        (p.spec as { egress?: Array<{ ports?: Array<{ port: number }> }> }).egress?.some((rule) =>
          rule.ports?.some((port) => datastorePorts.has(port.port)),
        ),
      )
      .map((p) => p.metadata.name);
    expect(reachDatastores.sort()).toEqual(['catalog-service', 'collections-service', 'gateway', 'skills-migrate']);
  });

  it("gives each service's Kafka client TLS against Strimzi's CA and its own SCRAM user, on the TLS listener only", () => {
    for (const name of ['catalog-service', 'collections-service']) {
      const env = containerEnv(objects, find(objects, 'Deployment', name));
      const config = name === 'catalog-service' ? loadCatalogConfig(env) : loadCollectionsConfig(env);
      expect(config.kafka).toMatchObject({
        brokers: ['skills-kafka-kafka-bootstrap.skills-data.svc:9093'],
        security: {
          tls: { caFile: '/etc/skills/kafka-ca/ca.crt' },
          sasl: { mechanism: 'scram-sha-512', username: name },
        },
      });
    }
    const kafkaPorts = objects
      .filter((o) => o.kind === 'NetworkPolicy')
      .flatMap(
        (p) =>
          (
            p.spec as {
              egress?: Array<{
                to?: Array<{ podSelector?: { matchLabels?: Record<string, string> } }>;
                ports?: Array<{ port: number }>;
              }>;
            }
          ).egress ?? [],
      )
      .filter((rule) =>
        rule.to?.some((peer) => peer.podSelector?.matchLabels?.['strimzi.io/cluster'] === 'skills-kafka'),
      )
      .flatMap((rule) => rule.ports?.map((p) => p.port) ?? []);
    expect(new Set(kafkaPorts)).toEqual(new Set([9093]));
  });

  it('logs each service in to Postgres as its own role; the migration Job as the owner, granting the three', () => {
    const roleOf = (env: Record<string, string>) => new URL(env.DATABASE_URL as string).username;
    expect(
      Object.fromEntries(
        SERVICES.map((name) => [name, roleOf(containerEnv(objects, find(objects, 'Deployment', name)))]),
      ),
    ).toEqual({
      gateway: 'skills_gateway',
      'catalog-service': 'skills_catalog',
      'collections-service': 'skills_collections',
    });
    const job = find(objects, 'Job', 'skills-migrate');
    const [container] = containersOf(job) as Array<{ env: EnvVar[] }>;
    const env = Object.fromEntries(container.env.filter((e) => e.value !== undefined).map((e) => [e.name, e.value]));
    expect(env).toEqual({
      GATEWAY_DB_ROLE: 'skills_gateway',
      COLLECTIONS_DB_ROLE: 'skills_collections',
      CATALOG_DB_ROLE: 'skills_catalog',
    });
    expect(container.env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe('skills-pg-app');
  });

  it('commits no secret: credentials are Secret references', () => {
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const gateway = containersOf(find(objects, 'Deployment', 'gateway'))[0] as {
      env: Array<{ name: string; valueFrom?: { secretKeyRef?: { name: string } } }>;
    };
    const refs = Object.fromEntries(
      gateway.env.filter((e) => e.valueFrom?.secretKeyRef).map((e) => [e.name, e.valueFrom?.secretKeyRef?.name]),
    );
    expect(refs).toEqual({
      DATABASE_URL: 'skills-pg-gateway',
      ADMIN_TOKEN: 'skills-secrets',
      REDIS_URL: 'skills-redis-gateway',
    });
  });

  it('gives each service its own Redis user: REDIS_URL from a Secret of its own (deploy/redis/users.acl)', () => {
    for (const name of ['gateway', 'catalog-service', 'collections-service']) {
      const [container] = containersOf(find(objects, 'Deployment', name)) as Array<{
        env: Array<{ name: string; valueFrom?: { secretKeyRef?: { name: string } } }>;
      }>;
      expect(container?.env.find((e) => e.name === 'REDIS_URL')?.valueFrom?.secretKeyRef?.name).toBe(
        `skills-redis-${name}`,
      );
    }
  });

  it('mounts the private principal key in the gateway alone, the public keys in the services, whole (a rotation reaches them)', () => {
    type Pod = { volumes?: Array<{ name: string; secret?: { secretName: string; defaultMode?: number } }> };
    type Mount = { name: string; mountPath: string; readOnly?: boolean; subPath?: string };
    const secretsOf = (name: string) => {
      const deployment = find(objects, 'Deployment', name);
      const pod = (deployment.spec as { template: { spec: Pod } }).template.spec;
      const mounts = (containersOf(deployment)[0] as { volumeMounts: Mount[] }).volumeMounts;
      return (pod.volumes ?? [])
        .filter((v) => v.secret?.secretName.startsWith('skills-principal-'))
        .map((v) => ({
          secret: v.secret?.secretName,
          mode: v.secret?.defaultMode,
          mount: mounts.find((m) => m.name === v.name),
        }));
    };
    expect(secretsOf('gateway')).toEqual([
      {
        secret: 'skills-principal-signing',
        mode: 0o440,
        mount: { name: 'principal-signing', mountPath: '/etc/skills/principal-signing', readOnly: true },
      },
    ]);
    for (const name of ['catalog-service', 'collections-service']) {
      expect(secretsOf(name)).toEqual([
        {
          secret: 'skills-principal-public',
          mode: 0o440,
          mount: { name: 'principal-public', mountPath: '/etc/skills/principal-public', readOnly: true },
        },
      ]);
    }
    const env = (name: string) => containerEnv(objects, find(objects, 'Deployment', name));
    expect(env('gateway').PRINCIPAL_SIGNING_KEY_FILE).toBe('/etc/skills/principal-signing/principal-signing-key.pem');
    expect(env('catalog-service')).not.toHaveProperty('PRINCIPAL_SIGNING_KEY_FILE');
    expect(env('collections-service').PRINCIPAL_PUBLIC_KEYS_FILE).toBe(
      '/etc/skills/principal-public/principal-public-keys.pem',
    );
    expect(env('catalog-service').ITEMS_READER_TOKEN).toBe(env('collections-service').ITEMS_READER_TOKEN);
  });
});

describe('the data stores (deploy/k8s/data-stores)', () => {
  const stores = renderKustomization(join(K8S, 'data-stores'));
  type Peer = {
    namespaceSelector?: {
      matchLabels?: Record<string, string>;
      matchExpressions?: Array<{ key: string; values: string[] }>;
    };
    podSelector?: { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; values: string[] }> };
  };
  type Policy = {
    podSelector: { matchLabels: Record<string, string> };
    ingress: Array<{ from: Peer[]; ports?: Array<{ port: number }> }>;
  };
  /** `label=value` of a store's pods → the app pods (by name) each port admits from the application namespaces. */
  function admitted(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const policy of stores.filter((o) => o.kind === 'NetworkPolicy')) {
      const spec = policy.spec as Policy;
      const [label, value] = Object.entries(spec.podSelector.matchLabels)[0] as [string, string];
      for (const rule of spec.ingress) {
        for (const peer of rule.from.filter((p) =>
          p.namespaceSelector?.matchExpressions?.[0]?.values.includes('skills'),
        )) {
          for (const port of rule.ports ?? []) {
            const key = `${label}=${value}:${port.port}`;
            out.set(
              key,
              new Set([...(out.get(key) ?? []), ...(peer.podSelector?.matchExpressions?.[0]?.values ?? [])]),
            );
          }
        }
      }
    }
    return out;
  }
  /** The same, as the application's egress policies send: which of our pods reach which store port. */
  function sent(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const policy of render('prod').filter((o) => o.kind === 'NetworkPolicy')) {
      const spec = policy.spec as {
        podSelector: { matchLabels?: Record<string, string> };
        egress?: Array<{ to?: Peer[]; ports?: Array<{ port: number }> }>;
      };
      const from = spec.podSelector.matchLabels?.['app.kubernetes.io/name'];
      for (const rule of spec.egress ?? []) {
        for (const peer of rule.to ?? []) {
          if (!from || peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] !== 'skills-data') continue;
          const [label, value] = Object.entries(peer.podSelector?.matchLabels ?? {})[0] as [string, string];
          for (const port of rule.ports ?? []) {
            const key = `${label}=${value}:${port.port}`;
            out.set(key, new Set([...(out.get(key) ?? []), from]));
          }
        }
      }
    }
    return out;
  }

  it('are valid policies of namespace skills-data, each isolating its store for ingress', () => {
    expect(stores.flatMap(kubernetesSchemaErrors)).toEqual([]);
    expect(new Set(stores.map((o) => `${o.kind}/${o.metadata.namespace}`))).toEqual(
      new Set(['NetworkPolicy/skills-data']),
    );
    for (const policy of stores) expect((policy.spec as { policyTypes: string[] }).policyTypes).toEqual(['Ingress']);
  });

  it('admit from our namespaces exactly the pods our egress policies send to each store port, no more', () => {
    const toPlain = (m: Map<string, Set<string>>) =>
      Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]).sort());
    expect(toPlain(admitted())).toEqual(toPlain(sent()));
    expect(toPlain(admitted())).toMatchObject({
      'elasticsearch.k8s.elastic.co/cluster-name=skills-es:9200': ['catalog-service'],
      'strimzi.io/cluster=skills-kafka:9093': ['catalog-service', 'collections-service'],
    });
  });
});

describe('prod overlay', () => {
  it('runs more replicas than dev and terminates TLS at the Ingress, telling browsers so (HSTS)', () => {
    const prod = render('prod');
    const dev = render('dev');
    expect(loadGatewayConfig(containerEnv(prod, find(prod, 'Deployment', 'gateway'))).hstsMaxAgeSeconds).toBe(
      31_536_000,
    );
    expect(loadGatewayConfig(containerEnv(dev, find(dev, 'Deployment', 'gateway'))).hstsMaxAgeSeconds).toBe(0);
    const min = (objects: Manifest[]) =>
      (find(objects, 'HorizontalPodAutoscaler', 'gateway').spec as { minReplicas: number }).minReplicas;
    expect(min(prod)).toBeGreaterThan(min(dev));
    expect((find(prod, 'Ingress', 'gateway').spec as { tls?: unknown[] }).tls).toHaveLength(1);
  });

  it('sets PUBLIC_URL on the gateway to the https address of its Ingress host', () => {
    const prod = render('prod');
    const env = containerEnv(prod, find(prod, 'Deployment', 'gateway'));
    expect(env.PUBLIC_URL).toBe('https://skills.example.com');
  });
});
