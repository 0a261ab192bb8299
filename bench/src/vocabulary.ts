/**
 * Words the benchmark catalog is made of: 24 categories, each with its own
 * subjects, plus roles, qualifiers and sentences shared by all. Sized so a
 * subject word matches a fraction of a percent of the catalog and a role word
 * a few percent, which is roughly how real catalog text spreads.
 */
export interface BenchCategory {
  slug: string;
  subjects: string[];
}

const c = (slug: string, subjects: string): BenchCategory => ({ slug, subjects: subjects.split(',') });

export const CATEGORIES: BenchCategory[] = [
  c(
    'data-engineering',
    'Airflow DAG,dbt Model,Spark Job,Parquet Schema,Kafka Topic,Snowflake Warehouse,BigQuery Dataset,CDC Stream,Delta Table,Dagster Asset',
  ),
  c(
    'devops',
    'Terraform Module,Helm Chart,Dockerfile,Kubernetes Manifest,Ansible Playbook,GitLab Pipeline,Kustomize Overlay,Argo Application,Pulumi Stack,Nginx Config',
  ),
  c(
    'security',
    'Secret Scanner,OAuth Flow,JWT Token,TLS Certificate,Firewall Rule,IAM Policy,CVE Report,SBOM Manifest,Vault Path,SAML Assertion',
  ),
  c(
    'databases',
    'Postgres Query,MySQL Index,Redis Cache,MongoDB Collection,SQLite File,Cassandra Table,Migration Script,Connection Pool,Query Plan,Replica Set',
  ),
  c(
    'frontend',
    'React Component,Vue Store,Svelte Page,CSS Module,Tailwind Theme,Webpack Bundle,Vite Plugin,Storybook Story,Accessibility Audit,Form Validation',
  ),
  c(
    'backend',
    'Express Route,GraphQL Schema,gRPC Service,REST Endpoint,OpenAPI Spec,Webhook Handler,Queue Worker,Cron Job,Rate Limiter,Session Store',
  ),
  c(
    'testing',
    'Unit Test,Snapshot Test,Contract Test,Load Test,Fuzz Harness,Mutation Report,Coverage Report,Fixture Set,Mock Server,Flaky Test',
  ),
  c(
    'documentation',
    'README,Changelog,API Reference,Tutorial,Runbook,Architecture Decision,Style Guide,Docstring,Release Note,Glossary',
  ),
  c(
    'machine-learning',
    'PyTorch Model,TensorFlow Graph,Feature Store,Training Run,Embedding Index,Notebook,Hyperparameter Sweep,Inference Endpoint,Dataset Card,Prompt Template',
  ),
  c(
    'observability',
    'Prometheus Alert,Grafana Dashboard,OpenTelemetry Trace,Log Pipeline,SLO Budget,Incident Timeline,Metric Label,Jaeger Span,Loki Query,Uptime Check',
  ),
  c(
    'cloud',
    'AWS Lambda,S3 Bucket,Azure Function,GCP Project,CloudFormation Stack,EC2 Fleet,Cloud Run Service,DynamoDB Table,CDN Distribution,VPC Network',
  ),
  c(
    'mobile',
    'Android Activity,iOS View,Flutter Widget,React Native Screen,App Store Listing,Push Notification,Deep Link,Crash Report,Gradle Build,Swift Package',
  ),
  c(
    'design',
    'Figma Frame,Design Token,Icon Set,Color Palette,Typography Scale,Wireframe,Mockup,Brand Asset,Illustration,Motion Spec',
  ),
  c(
    'productivity',
    'Meeting Note,Calendar Invite,Task Board,Email Draft,Standup Summary,Weekly Report,Slide Deck,Spreadsheet,Checklist,Reminder',
  ),
  c(
    'writing',
    'Blog Post,Newsletter,Press Release,Cover Letter,Essay,Headline,Product Description,Social Post,Case Study,White Paper',
  ),
  c(
    'finance',
    'Invoice,Expense Report,Budget Forecast,Ledger Entry,Tax Form,Payroll Run,Stripe Payment,Bank Statement,Cash Flow,Pricing Table',
  ),
  c(
    'legal',
    'Contract Clause,Privacy Policy,License File,Terms of Service,NDA,GDPR Request,Compliance Checklist,Audit Trail,Trademark Filing,Consent Form',
  ),
  c(
    'education',
    'Lesson Plan,Quiz,Flashcard Deck,Course Outline,Rubric,Syllabus,Exam Paper,Reading List,Lab Exercise,Lecture Transcript',
  ),
  c(
    'sales',
    'CRM Record,Lead List,Sales Pitch,Proposal,Quote,Pipeline Forecast,Cold Email,Demo Script,Renewal Notice,Territory Map',
  ),
  c(
    'support',
    'Support Ticket,Help Article,Chat Transcript,Escalation Path,Macro Reply,Satisfaction Survey,Knowledge Base,Status Page,Refund Request,Bug Report',
  ),
  c(
    'hr',
    'Job Posting,Interview Guide,Onboarding Plan,Performance Review,Offer Letter,Org Chart,Leave Request,Training Module,Exit Survey,Benefit Summary',
  ),
  c(
    'media',
    'Podcast Episode,Video Script,Subtitle File,Thumbnail,Audio Mix,Playlist,Image Gallery,Transcript,Storyboard,Press Kit',
  ),
  c(
    'research',
    'Literature Review,Survey Result,Experiment Log,Citation List,Research Proposal,Interview Summary,Data Appendix,Hypothesis,Peer Review,Poster',
  ),
  c(
    'automation',
    'Zapier Zap,Shell Script,Makefile,GitHub Workflow,Slack Bot,Browser Macro,Scheduled Task,IFTTT Applet,Webhook Relay,RPA Robot',
  ),
];

/** Roles ending a name; the plugin ones make the item a plugin. */
export const SKILL_ROLES = [
  'Linter',
  'Generator',
  'Validator',
  'Formatter',
  'Analyzer',
  'Reviewer',
  'Optimizer',
  'Refactorer',
  'Explainer',
  'Summarizer',
  'Migrator',
  'Auditor',
  'Planner',
  'Tester',
  'Translator',
  'Checker',
];
export const PLUGIN_ROLES = [
  'Connector',
  'Integration',
  'Bridge',
  'Exporter',
  'Importer',
  'Sync',
  'Adapter',
  'Watcher',
];

export const QUALIFIERS = [
  'Quick',
  'Strict',
  'Smart',
  'Incremental',
  'Parallel',
  'Secure',
  'Lightweight',
  'Offline',
  'Team',
  'Enterprise',
  'Minimal',
  'Visual',
  'Interactive',
  'Batch',
  'Realtime',
  'Portable',
  'Guided',
  'Automatic',
  'Friendly',
  'Precise',
];

export const VERBS = [
  'checks',
  'generates',
  'rewrites',
  'explains',
  'summarises',
  'validates',
  'migrates',
  'cleans up',
  'documents',
  'reviews',
  'optimises',
  'tracks',
  'audits',
  'converts',
  'organises',
  'monitors',
];

export const SENTENCES = [
  'Runs locally or as a step in any CI system.',
  'Explains every finding with a link to the relevant documentation.',
  'Safe to run on production data: it never writes without confirmation.',
  'Works with large repositories and keeps memory use flat.',
  'Reports problems with their exact location and a suggested fix.',
  'Designed for teams that ship many times a day.',
  'Keeps an audit log so reviewers can see what changed and why.',
  'Supports English, French, German and Spanish out of the box.',
  'Configurable through a small YAML file checked into the repository.',
  'Integrates with Slack, Teams and email notifications.',
  'Caches results so repeated runs finish in seconds.',
  'Handles malformed input gracefully and never loses work.',
  'Ships sensible defaults that experienced users can override.',
  'Comes with templates for the most common situations.',
  'Respects existing conventions instead of imposing new ones.',
  'Scales from a single laptop to a cluster of workers.',
  'Produces output that is easy to diff and review.',
  'Tested against thousands of real-world examples.',
  'Keeps secrets out of logs and reports.',
  'Lets you preview every change before applying it.',
  'Great for onboarding new colleagues quickly.',
  'Measures its own impact with simple before and after metrics.',
  'Plays well with monorepos and polyglot codebases.',
  'Needs no account and sends nothing over the network.',
];

export const TAG_POOL = [
  'fast',
  'ci',
  'cli',
  'ai',
  'open-source',
  'beginner',
  'advanced',
  'team',
  'compliance',
  'performance',
  'quality',
  'reporting',
  'local',
  'cloud-native',
  'accessibility',
  'privacy',
];
