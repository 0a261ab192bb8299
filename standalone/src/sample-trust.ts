/**
 * Records the sample's trust the way an operator's pipeline would: it issues
 * a scanner credential per demo scanner, posts each verdict with it, verifies
 * publishers through the admin API, then revokes the credentials (a demo
 * scanner token must not outlive the seeding that needed it).
 */
import { readFile } from 'node:fs/promises';
import { SkillsScannerClient, type Judgement, type SkillsAdminClient } from '@skills/client';

interface SampleTrust {
  scanners: string[];
  verifiedPublishers: string[];
  verdicts: Array<{ slug: string; version: string; scanner: string; verdict: Judgement; summary: string }>;
}

/** Verdicts in flight at once: enough to hide the round trips, few enough not to crowd a first start. */
const PARALLEL = 8;

export async function recordSampleTrust(
  admin: SkillsAdminClient,
  gatewayUrl: string,
  trustFile: string,
): Promise<{ verdicts: number; verifiedPublishers: number }> {
  const trust = JSON.parse(await readFile(trustFile, 'utf8')) as SampleTrust;
  const scanners = new Map<string, { id: string; client: SkillsScannerClient }>();
  for (const name of trust.scanners) {
    const { scanner, token } = await admin.createScanner(name);
    scanners.set(name, {
      id: scanner.id,
      client: new SkillsScannerClient({ baseUrl: gatewayUrl, scannerToken: token }),
    });
  }
  try {
    const queue = [...trust.verdicts];
    const worker = async () => {
      for (let v = queue.shift(); v; v = queue.shift()) {
        const scanner = scanners.get(v.scanner);
        if (!scanner) throw new Error(`sample-trust.json: verdict by unknown scanner ${v.scanner}`);
        await scanner.client.recordVerdict(v.slug, v.version, { verdict: v.verdict, summary: v.summary });
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    for (const name of trust.verifiedPublishers) {
      await admin.setPublisher(name, { verified: true, note: 'sample catalog' });
    }
  } finally {
    for (const { id } of scanners.values()) await admin.revokeScanner(id);
  }
  return { verdicts: trust.verdicts.length, verifiedPublishers: trust.verifiedPublishers.length };
}
