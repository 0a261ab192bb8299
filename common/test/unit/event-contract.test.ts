/**
 * The event contract a consumer holds every event to: what passes is exactly
 * what the system of record can produce, and what passes carries the
 * contract's fields only.
 */
import { randomUUID } from 'node:crypto';
import { ITEM_LIMITS, MAX_ITEM_VERSION, checkSkillChangeEvent, type SkillChangeEvent } from '../../src';

function event(): SkillChangeEvent {
  const id = randomUUID();
  return {
    eventId: '4711',
    type: 'skill.upserted',
    itemId: id,
    version: 3,
    occurredAt: '2026-11-20T10:00:00.000Z',
    item: {
      id,
      slug: 'pdf-tools',
      name: 'PDF tools',
      description: 'Splits and merges PDF files.',
      type: 'skill',
      category: 'documents',
      tags: ['pdf', 'docs'],
      status: 'active',
      visibility: 'public',
      updatedAt: '2026-11-20T10:00:00.000Z',
      version: 3,
      details: {
        publisher: 'Acme',
        version: '1.4.0',
        license: 'MIT',
        repositoryUrl: 'https://github.com/acme/pdf',
        homepageUrl: null,
        downloads: 1200,
      },
      trust: {
        latestVersion: '1.4.0',
        verdict: 'malicious',
        publisherVerified: true,
        blockedReason: 'Steals browser credentials.',
      },
    },
  };
}

/** any: the test reaches into any field of an event it breaks on purpose, with values of any type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Loose = Record<string, any>;

/** The event with `change` applied to a copy (it may add, replace or delete anything). */
function changed(change: (e: Loose) => void): unknown {
  const copy = structuredClone(event()) as Loose;
  change(copy);
  return copy;
}

const reasonOf = (value: unknown) => {
  const check = checkSkillChangeEvent(value);
  return check.ok ? 'accepted' : check.reason;
};

describe('checkSkillChangeEvent', () => {
  it('accepts what the system of record writes: with and without details, public and private, deleted', () => {
    const full = event();
    expect(checkSkillChangeEvent(full)).toEqual({ ok: true, event: full });
    expect(reasonOf(changed((e) => delete e.item.details))).toBe('accepted');
    expect(reasonOf(changed((e) => delete e.item.trust))).toBe('accepted');
    expect(
      reasonOf(
        changed(
          (e) =>
            (e.item.trust = {
              latestVersion: null,
              verdict: 'unscanned',
              publisherVerified: false,
              blockedReason: null,
            }),
        ),
      ),
    ).toBe('accepted');
    expect(
      reasonOf(
        changed((e) =>
          Object.assign(e.item, { slug: null, category: null, visibility: 'private', name: 'x'.repeat(120) }),
        ),
      ),
    ).toBe('accepted');
    expect(
      reasonOf(
        changed((e) => Object.assign(e, { type: 'skill.deleted' }) && Object.assign(e.item, { status: 'deleted' })),
      ),
    ).toBe('accepted');
  });

  it('passes on the contract fields only: unknown ones never reach the read model', () => {
    const raw = JSON.parse(
      JSON.stringify(event())
        .replace('"eventId"', '"isAdmin":true,"__proto__":{"polluted":1},"eventId"')
        .replace('"slug"', '"boost":1000,"slug"'),
    ) as unknown;
    const check = checkSkillChangeEvent(raw);
    if (!check.ok) throw new Error(check.reason);
    expect(Object.keys(check.event)).toEqual(['eventId', 'type', 'itemId', 'version', 'occurredAt', 'item']);
    expect(Object.keys(check.event.item)).not.toContain('boost');
    expect(Object.getPrototypeOf(check.event)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const withDetails = changed((e) => (e.item.details.script = '<script>'));
    const kept = checkSkillChangeEvent(withDetails);
    expect(kept.ok && Object.keys(kept.event.item.details ?? {})).toEqual([
      'publisher',
      'version',
      'license',
      'repositoryUrl',
      'homepageUrl',
      'downloads',
    ]);
    // the verdict is what keeps a blocked item out of search: it must reach the read model whole
    const trusted = checkSkillChangeEvent(changed((e) => (e.item.trust.boost = 1)));
    expect(trusted.ok && trusted.event.item.trust).toEqual(event().item.trust);
  });

  const max = (n: number) => 'x'.repeat(n);
  const refused: Array<[string, unknown, RegExp]> = [
    ['not an object', 'skill', /event must be an object/],
    ['null', null, /event must be an object/],
    ['an array', [event()], /event must be an object/],
    ['an unknown event type', changed((e) => (e.type = 'skill.promoted')), /type must be one of/],
    ['an unknown item type', changed((e) => (e.item.type = 'agent')), /item\.type must be one of/],
    ['an unknown status', changed((e) => (e.item.status = 'featured')), /item\.status must be one of/],
    ['an unknown visibility', changed((e) => (e.item.visibility = 'internal')), /item\.visibility must be one of/],
    ['a javascript: link', changed((e) => (e.item.details.repositoryUrl = 'javascript:alert(1)')), /http or https URL/],
    [
      'a link with a leading space',
      changed((e) => (e.item.details.homepageUrl = ' JavaScript:alert(1)')),
      /http or https URL/,
    ],
    [
      'a data: link',
      changed((e) => (e.item.details.homepageUrl = 'data:text/html,<script>alert(1)</script>')),
      /http or https URL/,
    ],
    ['a relative link', changed((e) => (e.item.details.homepageUrl = 'example.com/x')), /must be a URL/],
    [
      'a link over 2,000 characters',
      changed((e) => (e.item.details.repositoryUrl = `https://e.com/${max(ITEM_LIMITS.url)}`)),
      /repositoryUrl must be 1 to 2000/,
    ],
    [
      'a name over 200 characters',
      changed((e) => (e.item.name = max(ITEM_LIMITS.name + 1))),
      /item\.name must be 1 to 200/,
    ],
    ['an empty name', changed((e) => (e.item.name = '')), /item\.name must be 1 to 200/],
    [
      'a description over 5,000 characters',
      changed((e) => (e.item.description = max(ITEM_LIMITS.description + 1))),
      /item\.description/,
    ],
    [
      'a category over 100 characters',
      changed((e) => (e.item.category = max(ITEM_LIMITS.category + 1))),
      /item\.category/,
    ],
    ['21 tags', changed((e) => (e.item.tags = Array.from({ length: 21 }, (_, i) => `t${i}`))), /at most 20 tags/],
    ['a tag over 50 characters', changed((e) => (e.item.tags = [max(ITEM_LIMITS.tag + 1)])), /item\.tags\[0\]/],
    ['a tag that is no string', changed((e) => (e.item.tags = [{ $where: '1' }])), /item\.tags\[0\] must be a string/],
    [
      'a publisher over 200 characters',
      changed((e) => (e.item.details.publisher = max(ITEM_LIMITS.publisher + 1))),
      /publisher/,
    ],
    [
      'a release over 64 characters',
      changed((e) => (e.item.details.version = max(ITEM_LIMITS.release + 1))),
      /details\.version/,
    ],
    ['an unknown verdict', changed((e) => (e.item.trust.verdict = 'trusted')), /item\.trust\.verdict must be one of/],
    [
      'a verified flag that is no boolean',
      changed((e) => (e.item.trust.publisherVerified = 'yes')),
      /publisherVerified must be a boolean/,
    ],
    [
      'a blocked reason over 1,000 characters',
      changed((e) => (e.item.trust.blockedReason = max(ITEM_LIMITS.blockedReason + 1))),
      /blockedReason/,
    ],
    [
      'a latest version over 64 characters',
      changed((e) => (e.item.trust.latestVersion = max(ITEM_LIMITS.release + 1))),
      /latestVersion/,
    ],
    [
      'a licence over 200 characters',
      changed((e) => (e.item.details.license = max(ITEM_LIMITS.license + 1))),
      /license/,
    ],
    ['a slug the admin API refuses', changed((e) => (e.item.slug = 'Not A Slug')), /item\.slug/],
    [
      'a version past the item table',
      changed((e) => (e.version = e.item.version = MAX_ITEM_VERSION + 1)),
      /version must be an integer from 0 to 2147483647/,
    ],
    ['a negative version', changed((e) => (e.version = e.item.version = -1)), /version must be an integer/],
    ['a fractional version', changed((e) => (e.version = e.item.version = 1.5)), /version must be an integer/],
    ['a version as text', changed((e) => (e.version = e.item.version = '3')), /version must be an integer/],
    ['negative downloads', changed((e) => (e.item.details.downloads = -5)), /downloads/],
    [
      'an item id that is no UUID',
      changed((e) => (e.itemId = e.item.id = '../../etc')),
      /itemId is not in the expected form/,
    ],
    ['an event id with spaces', changed((e) => (e.eventId = 'a b')), /eventId/],
    ['an item of another id', changed((e) => (e.item.id = randomUUID())), /must match itemId/],
    ['an item of another version', changed((e) => (e.item.version = 4)), /must match itemId and version/],
    [
      'a date that is none',
      changed((e) => (e.item.updatedAt = '2026-13-45T99:00:00Z')),
      /item\.updatedAt must be an ISO-8601/,
    ],
    [
      'a date past the end of its month',
      changed((e) => (e.item.updatedAt = '2026-02-30T10:00:00.000Z')),
      /item\.updatedAt is not a real date-time/,
    ],
    ['a date in another form', changed((e) => (e.occurredAt = '2026-11-20 10:00')), /occurredAt must be an ISO-8601/],
    ['no item', changed((e) => delete e.item), /item must be an object/],
  ];

  it.each(refused)('refuses %s, naming why', (_what, value, reason) => {
    expect(reasonOf(value)).toMatch(/^breaks the event contract: /);
    expect(reasonOf(value)).toMatch(reason);
  });

  it('accepts each bound itself', () => {
    const atBounds = changed((e) => {
      Object.assign(e.item, {
        name: max(200),
        description: max(5000),
        category: max(100),
        tags: Array.from({ length: 20 }, () => max(50)),
      });
      Object.assign(e.item.details, {
        publisher: max(200),
        version: max(64),
        license: max(200),
        repositoryUrl: `http://e.com/${max(1986)}`,
      });
      e.version = e.item.version = MAX_ITEM_VERSION;
    });
    expect(reasonOf(atBounds)).toBe('accepted');
  });
});
