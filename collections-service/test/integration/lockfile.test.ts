/**
 * The lockfile of a team collection (docs/governance.md "Lockfile"): the
 * document itself, deterministic to the byte, tagged with the SHA-256 of
 * its bytes, valid against docs/lockfile.schema.json, and invisible from
 * another workspace.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { collectionsOf, createTeam, pinOf, putPolicy, teamCollection, type Team } from '../support/governance';
import { published, scan } from '../support/releases';

const schema = JSON.parse(readFileSync(join(__dirname, '../../../docs/lockfile.schema.json'), 'utf8')) as object;

describe('GET …/collections/:collectionId/lockfile', () => {
  let h: Harness;
  let t: Team;
  let id: string;
  const url = () => `${collectionsOf(t)}/${id}/lockfile`;
  const download = () =>
    h
      .call(t.viewer, 'get', url())
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  beforeAll(async () => {
    h = await startHarness();
    t = await createTeam(h, 'Lock team');
    await putSkill(h, 'zeta', { license: 'MIT' });
    await putSkill(h, 'alpha', { license: 'GPL-3.0', type: 'plugin' });
    await putSkill(h, 'unreleased', { license: 'MIT' });
    await published(h, 'zeta', '1.0.0');
    await published(h, 'alpha', '0.3.0');
    id = await teamCollection(h, t, 'zeta', 'unreleased', 'alpha');
    await putPolicy(h, t, { allowedLicenses: ['MIT'] });
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it('exports the document sorted by slug with the policy and the violations, as an attachment tagged with its SHA-256', async () => {
    const res = await download();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment/);
    const bytes = res.body as Buffer;
    expect(res.headers.etag).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({
      lockfileVersion: 2,
      workspace: { id: t.ws, name: 'Lock team' },
      collection: { id, name: 'Pinned' },
      policy: {
        minimumVerdict: 'suspicious',
        verifiedPublishersOnly: false,
        allowedPublishers: null,
        allowedLicenses: ['MIT'],
        allowedTypes: null,
        deniedSlugs: [],
      },
      entries: [
        {
          slug: 'alpha',
          type: 'plugin',
          version: '0.3.0',
          digest: pinOf('0.3.0').digest,
          source: { repository: 'https://github.com/acme/pdf-skill', ref: 'v0.3.0' },
          verdict: 'unscanned',
          installable: true,
          complies: false,
          violations: ['allowedLicenses'],
        },
        {
          slug: 'unreleased',
          type: 'skill',
          version: null,
          digest: null,
          source: null,
          verdict: 'unscanned',
          installable: false,
          complies: true,
          violations: [],
        },
        {
          slug: 'zeta',
          type: 'skill',
          version: '1.0.0',
          digest: pinOf('1.0.0').digest,
          source: { repository: 'https://github.com/acme/pdf-skill', ref: 'v1.0.0' },
          verdict: 'unscanned',
          installable: true,
          complies: true,
          violations: [],
        },
      ],
    });
  });

  it('never hands out a malicious release as installable: the entry stays, with its release and verdict, marked installable false', async () => {
    await putSkill(h, 'omega', { license: 'MIT' });
    await published(h, 'omega', '1.0.0', '1.1.0');
    const held = await teamCollection(h, t, 'omega');
    expect(
      (await h.call(t.member, 'patch', `${collectionsOf(t)}/${held}`).send({ skillSlug: 'omega', version: '1.0.0' }))
        .status,
    ).toBe(200);
    expect((await scan(h, 'omega', '1.0.0', 'acme-scan', 'malicious')).status).toBe(201);
    const res = await h.call(t.viewer, 'get', `${collectionsOf(t)}/${held}/lockfile`).buffer(true);
    expect(res.status).toBe(200);
    const document = JSON.parse(res.text);
    expect(document.entries).toEqual([
      {
        slug: 'omega',
        type: 'skill',
        version: '1.0.0',
        digest: pinOf('1.0.0').digest,
        source: { repository: 'https://github.com/acme/pdf-skill', ref: 'v1.0.0' },
        verdict: 'malicious',
        installable: false,
        complies: false,
        violations: ['minimumVerdict'],
      },
    ]);
    const validate = new Ajv2020({ strict: true, allErrors: true });
    addFormats(validate);
    expect(validate.validate(schema, document)).toBe(true);
    // the schema holds the rule too: a malicious entry marked installable is not a valid lockfile
    expect(validate.validate(schema, { ...document, entries: [{ ...document.entries[0], installable: true }] })).toBe(
      false,
    );
  });

  it('validates against docs/lockfile.schema.json', async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const document = JSON.parse(((await download()).body as Buffer).toString('utf8'));
    expect([validate(document), ajv.errorsText(validate.errors)]).toEqual([true, 'No errors']);
    // the schema is not a formality: a digest the caller could have forged shape-wise is refused
    expect(validate({ ...document, entries: [{ ...document.entries[0], digest: 'md5:00' }] })).toBe(false);
  });

  it('is byte-identical across exports of an unchanged collection, answers 304 to its ETag, and changes with the collection', async () => {
    const first = await download();
    const second = await download();
    expect(Buffer.compare(first.body as Buffer, second.body as Buffer)).toBe(0);
    expect(second.headers.etag).toBe(first.headers.etag);
    const cached = await h.call(t.viewer, 'get', url()).set('If-None-Match', first.headers.etag as string);
    expect(cached.status).toBe(304);
    expect(cached.text ?? '').toBe('');
    await published(h, 'zeta', '1.1.0');
    await h.call(t.member, 'patch', `${collectionsOf(t)}/${id}`).send({ skillSlug: 'zeta', version: '1.1.0' });
    const changed = await download();
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect((await h.call(t.viewer, 'get', url()).set('If-None-Match', first.headers.etag as string)).status).toBe(200);
  });

  it('answers 404 for a collection of another workspace, even to an owner there, and 403 to a non-member', async () => {
    const other = await createTeam(h, 'Other');
    const res = await h.call(other.owner, 'get', `/api/v1/workspaces/${other.ws}/collections/${id}/lockfile`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Collection not found' });
    expect((await h.call(other.owner, 'get', url())).status).toBe(403);
  });
});
