/**
 * Words the sample-catalog generator combines: per category, the things a
 * skill or plugin works on (with a phrase describing them), and a few
 * closing sentences. Hand-written so the sample reads like a real catalog.
 */
export interface Subject {
  /** short display name, e.g. "Airflow DAG" */
  name: string;
  /** noun phrase used in descriptions, e.g. "Airflow DAGs" */
  what: string;
  tag: string;
}

export interface Category {
  slug: string;
  tags: string[];
  subjects: Subject[];
  /** second sentences appended to some descriptions */
  closers: string[];
}

const s = (name: string, what: string, tag: string): Subject => ({ name, what, tag });

export const categories: Category[] = [
  {
    slug: 'data-engineering',
    tags: ['data', 'pipelines'],
    subjects: [
      s('Airflow DAG', 'Airflow DAGs', 'airflow'),
      s('dbt Model', 'dbt models', 'dbt'),
      s('Spark Job', 'Spark jobs', 'spark'),
      s('Parquet Schema', 'Parquet schemas', 'parquet'),
      s('Kafka Topic', 'Kafka topics', 'kafka'),
      s('CSV Ingest', 'CSV ingestion pipelines', 'csv'),
      s('Snowflake Warehouse', 'Snowflake warehouses', 'snowflake'),
      s('BigQuery Dataset', 'BigQuery datasets', 'bigquery'),
      s('Data Contract', 'data contracts between producers and consumers', 'contracts'),
      s('CDC Stream', 'change-data-capture streams', 'cdc'),
      s('Delta Lake Table', 'Delta Lake tables', 'delta-lake'),
      s('Dagster Asset', 'Dagster software-defined assets', 'dagster'),
    ],
    closers: [
      'Works on incremental loads as well as full refreshes.',
      'Keeps lineage metadata intact so downstream owners see what changed.',
      'Designed for teams that run hundreds of pipelines a day.',
    ],
  },
  {
    slug: 'devops',
    tags: ['devops', 'automation'],
    subjects: [
      s('Terraform Module', 'Terraform modules', 'terraform'),
      s('Helm Chart', 'Helm charts', 'helm'),
      s('Dockerfile', 'Dockerfiles', 'docker'),
      s('GitHub Actions Workflow', 'GitHub Actions workflows', 'github-actions'),
      s('Kubernetes Manifest', 'Kubernetes manifests', 'kubernetes'),
      s('Ansible Playbook', 'Ansible playbooks', 'ansible'),
      s('GitLab CI Pipeline', 'GitLab CI pipelines', 'gitlab-ci'),
      s('Kustomize Overlay', 'Kustomize overlays', 'kustomize'),
      s('Argo CD Application', 'Argo CD applications', 'argocd'),
      s('Release Train', 'release trains and changelogs', 'releases'),
      s('Pulumi Stack', 'Pulumi stacks', 'pulumi'),
      s('Nginx Config', 'Nginx configurations', 'nginx'),
    ],
    closers: [
      'Runs locally or as a step in any CI system.',
      'Explains every finding with a link to the relevant documentation.',
      'Safe to run on production repositories: it never pushes changes by itself.',
    ],
  },
  {
    slug: 'security',
    tags: ['security'],
    subjects: [
      s('Secret Scanner', 'leaked credentials in source and history', 'secrets'),
      s('Dependency Audit', 'third-party dependencies with known vulnerabilities', 'sca'),
      s('OAuth Flow', 'OAuth 2.0 and OpenID Connect flows', 'oauth'),
      s('TLS Certificate', 'TLS certificates', 'tls'),
      s('IAM Policy', 'cloud IAM policies', 'iam'),
      s('Container Image', 'container images', 'containers'),
      s('CSP Header', 'Content-Security-Policy headers', 'csp'),
      s('SBOM', 'software bills of materials', 'sbom'),
      s('JWT', 'JSON Web Tokens', 'jwt'),
      s('SQL Injection', 'SQL injection risks in query code', 'sqli'),
      s('Threat Model', 'threat models', 'threat-modeling'),
      s('Password Policy', 'password and MFA policies', 'auth'),
    ],
    closers: [
      'Findings are ranked by severity and exploitability.',
      'Maps each issue to the matching OWASP or CWE entry.',
      'Produces a report auditors can read without extra tooling.',
    ],
  },
  {
    slug: 'testing',
    tags: ['testing', 'quality'],
    subjects: [
      s('Jest Suite', 'Jest test suites', 'jest'),
      s('Playwright Test', 'Playwright end-to-end tests', 'playwright'),
      s('Pytest Fixture', 'pytest fixtures', 'pytest'),
      s('Contract Test', 'consumer-driven contract tests', 'pact'),
      s('Load Test', 'load tests', 'load-testing'),
      s('Mutation Test', 'mutation testing runs', 'mutation'),
      s('Snapshot', 'snapshot tests', 'snapshots'),
      s('Flaky Test', 'flaky tests', 'flakiness'),
      s('Test Data', 'test data sets', 'fixtures'),
      s('Property Test', 'property-based tests', 'property-based'),
      s('Cypress Spec', 'Cypress specs', 'cypress'),
      s('Coverage Report', 'coverage reports', 'coverage'),
    ],
    closers: [
      'Understands monorepos and runs only the affected suites.',
      'Output plugs straight into pull-request comments.',
      'Keeps tests deterministic by pinning clocks and random seeds.',
    ],
  },
  {
    slug: 'documentation',
    tags: ['docs', 'writing'],
    subjects: [
      s('README', 'README files', 'readme'),
      s('OpenAPI Spec', 'OpenAPI specifications', 'openapi'),
      s('Changelog', 'changelogs', 'changelog'),
      s('ADR', 'architecture decision records', 'adr'),
      s('Runbook', 'operational runbooks', 'runbooks'),
      s('Docstring', 'docstrings and TSDoc comments', 'docstrings'),
      s('Markdown Link', 'links in Markdown documentation', 'markdown'),
      s('API Reference', 'API reference pages', 'api-docs'),
      s('Tutorial', 'step-by-step tutorials', 'tutorials'),
      s('Glossary', 'project glossaries', 'glossary'),
      s('Release Note', 'release notes', 'release-notes'),
      s('Diagram', 'architecture diagrams as code', 'diagrams'),
    ],
    closers: [
      'Follows the Google developer documentation style guide by default.',
      'Supports English and French content.',
      'Keeps generated sections separate from hand-written ones.',
    ],
  },
  {
    slug: 'frontend',
    tags: ['frontend', 'web'],
    subjects: [
      s('React Component', 'React components', 'react'),
      s('CSS Module', 'CSS modules', 'css'),
      s('Accessibility', 'accessibility issues in web pages', 'a11y'),
      s('Bundle', 'JavaScript bundles', 'bundling'),
      s('Vue Component', 'Vue single-file components', 'vue'),
      s('Design Token', 'design tokens', 'design-system'),
      s('Storybook Story', 'Storybook stories', 'storybook'),
      s('Web Vitals', 'Core Web Vitals', 'performance'),
      s('Form Validation', 'form validation rules', 'forms'),
      s('i18n String', 'translation strings', 'i18n'),
      s('Tailwind Class', 'Tailwind class lists', 'tailwind'),
      s('SVG Icon', 'SVG icon sets', 'svg'),
    ],
    closers: [
      'Works with Vite, webpack and Next.js projects.',
      'Suggestions come with before-and-after previews.',
      'Respects the browser support matrix declared in browserslist.',
    ],
  },
  {
    slug: 'ml-ops',
    tags: ['machine-learning', 'mlops'],
    subjects: [
      s('Model Registry', 'model registry entries', 'model-registry'),
      s('Feature Store', 'feature store definitions', 'feature-store'),
      s('Training Run', 'training runs', 'training'),
      s('Drift Monitor', 'data and prediction drift', 'drift'),
      s('Notebook', 'Jupyter notebooks', 'jupyter'),
      s('MLflow Experiment', 'MLflow experiments', 'mlflow'),
      s('Inference Endpoint', 'model inference endpoints', 'inference'),
      s('Label Set', 'labelled data sets', 'labelling'),
      s('Hyperparameter Sweep', 'hyperparameter sweeps', 'tuning'),
      s('ONNX Model', 'ONNX model exports', 'onnx'),
      s('Embedding Index', 'vector embedding indexes', 'embeddings'),
      s('Model Card', 'model cards', 'governance'),
    ],
    closers: [
      'Tracks every artefact so results can be reproduced months later.',
      'Integrates with MLflow, Weights & Biases and plain S3 buckets.',
      'Flags regressions against the last promoted model.',
    ],
  },
  {
    slug: 'productivity',
    tags: ['productivity'],
    subjects: [
      s('Pull Request', 'pull requests', 'code-review'),
      s('Commit Message', 'commit messages', 'git'),
      s('Meeting Note', 'meeting notes', 'meetings'),
      s('Issue Triage', 'incoming issues', 'triage'),
      s('Standup Summary', 'daily standup updates', 'standups'),
      s('Code Snippet', 'reusable code snippets', 'snippets'),
      s('Calendar', 'calendar events', 'calendar'),
      s('Slack Digest', 'Slack channel activity', 'slack'),
      s('Jira Ticket', 'Jira tickets', 'jira'),
      s('Email Draft', 'email drafts', 'email'),
      s('Todo List', 'todo lists', 'tasks'),
      s('Branch Cleanup', 'stale git branches', 'git-hygiene'),
    ],
    closers: [
      'Saves a few minutes on every task and hours every week.',
      'Learns the team vocabulary from past examples.',
      'Never sends anything without a confirmation step.',
    ],
  },
  {
    slug: 'databases',
    tags: ['databases', 'sql'],
    subjects: [
      s('Postgres Query', 'PostgreSQL queries', 'postgres'),
      s('Schema Migration', 'schema migrations', 'migrations'),
      s('Index', 'database indexes', 'indexing'),
      s('MySQL Replica', 'MySQL replicas', 'mysql'),
      s('Redis Keyspace', 'Redis keyspaces', 'redis'),
      s('MongoDB Collection', 'MongoDB collections', 'mongodb'),
      s('Backup', 'database backups', 'backups'),
      s('Connection Pool', 'connection pool settings', 'pooling'),
      s('SQL Style', 'SQL code style', 'sql-style'),
      s('ERD', 'entity-relationship diagrams', 'erd'),
      s('Vacuum', 'autovacuum and table bloat', 'maintenance'),
      s('Seed Data', 'development seed data', 'seeding'),
    ],
    closers: [
      'Reads EXPLAIN plans and points at the costly node.',
      'Never runs destructive statements without a dry run first.',
      'Tested against PostgreSQL 14 to 17.',
    ],
  },
  {
    slug: 'observability',
    tags: ['observability', 'monitoring'],
    subjects: [
      s('Prometheus Rule', 'Prometheus alerting rules', 'prometheus'),
      s('Grafana Dashboard', 'Grafana dashboards', 'grafana'),
      s('OpenTelemetry Trace', 'OpenTelemetry traces', 'opentelemetry'),
      s('Log Pipeline', 'structured log pipelines', 'logging'),
      s('SLO', 'service level objectives', 'slo'),
      s('Incident Timeline', 'incident timelines', 'incidents'),
      s('Alert Route', 'alert routing trees', 'alerting'),
      s('Metric Cardinality', 'high-cardinality metrics', 'cardinality'),
      s('Loki Query', 'Loki LogQL queries', 'loki'),
      s('Uptime Check', 'synthetic uptime checks', 'synthetics'),
      s('Error Budget', 'error budgets', 'error-budget'),
      s('Profiling Session', 'continuous profiling sessions', 'profiling'),
    ],
    closers: [
      'Cuts alert noise without hiding real outages.',
      'Links every signal back to the deploy that introduced it.',
      'Speaks PromQL, LogQL and OTLP natively.',
    ],
  },
];

export interface Action {
  /** name suffix: "Airflow DAG Linter" */
  suffix: string;
  type: 'skill' | 'plugin';
  /** first sentence, given the subject phrase */
  describe(what: string): string;
}

export const actions: Action[] = [
  {
    suffix: 'Linter',
    type: 'skill',
    describe: (w) => `Checks ${w} against common conventions and flags problems before review.`,
  },
  {
    suffix: 'Generator',
    type: 'skill',
    describe: (w) => `Generates well-structured ${w} from a short description of what you need.`,
  },
  { suffix: 'Reviewer', type: 'skill', describe: (w) => `Reviews ${w} and explains the riskiest changes first.` },
  { suffix: 'Optimizer', type: 'skill', describe: (w) => `Finds slow or wasteful ${w} and proposes concrete fixes.` },
  {
    suffix: 'Migrator',
    type: 'skill',
    describe: (w) => `Upgrades ${w} to current versions and rewrites deprecated patterns.`,
  },
  {
    suffix: 'Explainer',
    type: 'skill',
    describe: (w) => `Explains ${w} in plain language for newcomers to the codebase.`,
  },
  {
    suffix: 'Validator',
    type: 'skill',
    describe: (w) => `Validates ${w} and reports every error with its exact location.`,
  },
  {
    suffix: 'Refactorer',
    type: 'skill',
    describe: (w) => `Refactors ${w} into smaller, well-named pieces without changing behaviour.`,
  },
  {
    suffix: 'Connector',
    type: 'plugin',
    describe: (w) => `Connects your workspace to ${w} with read and write access.`,
  },
  { suffix: 'Dashboard', type: 'plugin', describe: (w) => `Adds a live dashboard that shows the state of your ${w}.` },
  { suffix: 'Sync', type: 'plugin', describe: (w) => `Keeps ${w} in sync across environments and reports any drift.` },
  {
    suffix: 'Watcher',
    type: 'plugin',
    describe: (w) => `Watches ${w} and notifies the owning team when something changes.`,
  },
];

/** Who publishes in each category (organisations and people, as a registry lists them); `default` for any other. */
export const publishers: Record<string, readonly string[]> = {
  'data-engineering': ['Lakehouse Labs', 'Pipewright', 'Northwind Data', 'Ana Ferreira'],
  devops: ['Shipyard Tools', 'Infra Collective', 'Kestrel Ops', 'Jonas Berg'],
  security: ['Sentinel Works', 'Keystone Security', 'Redline Audit', 'Priya Natarajan'],
  testing: ['Assertive', 'Greenbar Labs', 'Flakeless', 'Tomás Ruiz'],
  documentation: ['Inkwell', 'Docsmith', 'Clear Pages', 'Hannah Okafor'],
  frontend: ['Pixel Foundry', 'Component Garden', 'Viewport Labs', 'Léa Martin'],
  'ml-ops': ['Gradient Works', 'Model Harbor', 'Tensor Guild', 'Wei Zhang'],
  productivity: ['Flowstate', 'Tidy Desk', 'Quick Wins', 'Sam Carter'],
  databases: ['Schema Forge', 'Indexed', 'Rowboat Data', 'Marta Kowalska'],
  observability: ['Signal Path', 'Tracewell', 'Metric House', 'Diego Alvarez'],
  default: ['Skills Community'],
};
