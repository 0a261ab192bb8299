/**
 * Demo data of the embedded run, created through the public and admin APIs
 * (the same paths an operator uses, so seeding also proves the stack works):
 * the sample catalog with its releases and verdicts, a `pro` account, a workspace it owns, a personal
 * collection with a few skills. Each start also issues a fresh API key
 * (keys are stored as hashes: an old one cannot be shown again) and a
 * one-time console sign-in link (the demo account has no password), and
 * revokes the demo keys of earlier starts: a key printed in some earlier
 * terminal must not stay valid forever.
 */
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from '@skills/common';
import { ApiError, SkillsAdminClient, SkillsClient } from '@skills/client';
import type { SampleData } from './sample-data';
import { recordSampleTrust } from './sample-trust';

/** The ids the banner prints; kept in DATA_DIR/demo.json between starts. */
export interface DemoState {
  accountId: string;
  workspaceId: string;
  collectionId: string;
}

export interface DemoCredentials extends DemoState {
  apiKey: string;
  keyId: string;
  /** a one-time console sign-in link for the demo account (it has no password) */
  signInLink: string;
  /** true when this start created the demo data */
  seeded: boolean;
  /** items imported from the sample catalog, when this start loaded it */
  imported?: number;
}

export interface SeedOptions {
  gatewayUrl: string;
  adminToken: string;
  dataDir: string;
  sample: SampleData;
  logger: Logger;
}

const DEMO_EMAIL = 'demo@skills.example';
/** slugs of the sample catalog the demo collection starts with */
export const DEMO_SKILLS = ['dockerfile-linter', 'postgres-query-connector', 'readme-refactorer'];

const stateFile = (dataDir: string) => join(dataDir, 'demo.json');

async function readState(dataDir: string): Promise<DemoState | undefined> {
  try {
    return JSON.parse(await readFile(stateFile(dataDir), 'utf8')) as DemoState;
  } catch {
    return undefined;
  }
}

async function writeState(dataDir: string, state: DemoState): Promise<void> {
  await writeFile(stateFile(dataDir), `${JSON.stringify(state, null, 2)}\n`);
}

/** The name of every demo key: earlier starts' keys are found (and revoked) by it. */
const DEMO_KEY_NAME = 'demo';

/**
 * Revokes the demo account's earlier demo keys, all but `keepId`. Keys the
 * user made for the account themselves (another name) are left alone.
 */
async function revokeEarlierDemoKeys(admin: SkillsAdminClient, accountId: string, keepId: string): Promise<number> {
  const { apiKeys } = await admin.getAccount(accountId);
  const earlier = apiKeys.filter(
    (k) =>
      k.id !== keepId && k.revokedAt === null && (k.name === DEMO_KEY_NAME || k.name?.startsWith(`${DEMO_KEY_NAME} `)),
  );
  for (const key of earlier) await admin.revokeApiKey(key.id);
  return earlier.length;
}

/** The demo account still exists (the database may have been replaced under a kept DATA_DIR). */
async function stillThere(admin: SkillsAdminClient, state: DemoState): Promise<boolean> {
  try {
    await admin.getAccount(state.accountId);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

/** First start of a database: not a single item (public or private) in the system of record. */
async function catalogIsEmpty(admin: SkillsAdminClient): Promise<boolean> {
  const { items } = await admin.listItemsPage({ limit: 1 });
  return items.length === 0;
}

async function importSampleCatalog(admin: SkillsAdminClient, file: string): Promise<number> {
  return admin.importSkills(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>);
}

async function createDemoAccount(admin: SkillsAdminClient): Promise<string> {
  const create = (email: string) => admin.createAccount({ email, name: 'Demo User', plan: 'pro' });
  try {
    return (await create(DEMO_EMAIL)).id;
  } catch (err) {
    // DATA_DIR was wiped but the database kept (DATABASE_URL): the address is taken.
    if (!(err instanceof ApiError && err.status === 409)) throw err;
    return (await create(`demo+${Date.now()}@skills.example`)).id;
  }
}

async function createDemoData(
  admin: SkillsAdminClient,
  gatewayUrl: string,
  apiKey: string,
  accountId: string,
): Promise<Omit<DemoState, 'accountId'>> {
  const user = new SkillsClient({ baseUrl: gatewayUrl, apiKey });
  const workspace = await admin.createWorkspace({ name: 'Demo Team', ownerAccountId: accountId });
  await user.createWorkspaceCollection(workspace.id, {
    name: 'Team onboarding',
    description: 'Skills every new team member installs first',
  });
  const collectionId = await createDemoCollection(user);
  const skill = await admin.createPrivateSkill(accountId, {
    name: 'My deploy checklist',
    description: 'The steps I follow before every production deploy',
  });
  await user.updateMyCollection(collectionId, { privateSkillId: skill.id });
  return { workspaceId: workspace.id, collectionId };
}

/** The personal demo collection with a few public skills of the sample catalog. */
async function createDemoCollection(user: SkillsClient): Promise<string> {
  const collection = await user.createMyCollection({ name: 'My favourites', description: 'Skills I use every week' });
  for (const slug of DEMO_SKILLS) {
    try {
      await user.updateMyCollection(collection.id, { skillSlug: slug });
    } catch (err) {
      // A database with its own catalog (not the sample) may not have these slugs.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  return collection.id;
}

/** The demo collection of an earlier start, or a new one if the user deleted it (the last example of docs/getting-started.md does). */
async function ensureDemoCollection(user: SkillsClient, collectionId: string): Promise<string> {
  try {
    await user.getMyCollection(collectionId);
    return collectionId;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    return createDemoCollection(user);
  }
}

/**
 * Creates the demo data unless an earlier start's is still there (DATA_DIR/
 * demo.json names an account that exists), importing the sample catalog only
 * into an empty catalog; then issues this start's demo API key.
 */
export async function seedDemo(options: SeedOptions): Promise<DemoCredentials> {
  const admin = new SkillsAdminClient({ baseUrl: options.gatewayUrl, adminToken: options.adminToken });
  const known = await readState(options.dataDir);
  const issueKey = (accountId: string) =>
    admin.issueApiKey(accountId, { name: `${DEMO_KEY_NAME} ${new Date().toISOString()}` });
  const signInLink = async (accountId: string) => (await admin.createLink(accountId, 'sign-in')).url;

  if (known && (await stillThere(admin, known))) {
    const key = await issueKey(known.accountId);
    const revoked = await revokeEarlierDemoKeys(admin, known.accountId, key.id);
    options.logger.info({ revoked }, 'earlier demo keys revoked');
    const collectionId = await ensureDemoCollection(
      new SkillsClient({ baseUrl: options.gatewayUrl, apiKey: key.key }),
      known.collectionId,
    );
    const state: DemoState = { ...known, collectionId };
    if (collectionId !== known.collectionId) await writeState(options.dataDir, state);
    return { ...state, apiKey: key.key, keyId: key.id, signInLink: await signInLink(known.accountId), seeded: false };
  }
  let imported: number | undefined;
  if (await catalogIsEmpty(admin)) {
    imported = await importSampleCatalog(admin, options.sample.catalogFile);
    options.logger.info({ imported }, 'sample catalog imported');
    const trust = await recordSampleTrust(admin, options.gatewayUrl, options.sample.trustFile);
    options.logger.info(trust, 'sample verdicts recorded and publishers verified');
  }
  const accountId = await createDemoAccount(admin);
  options.logger.info('demo account created');
  const key = await issueKey(accountId);
  const demo = await createDemoData(admin, options.gatewayUrl, key.key, accountId);
  const state: DemoState = { accountId, ...demo };
  await writeState(options.dataDir, state);
  return { ...state, apiKey: key.key, keyId: key.id, signInLink: await signInLink(accountId), seeded: true, imported };
}
