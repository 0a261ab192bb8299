/**
 * The changes feed read by one client through the gateway, as a mirror
 * starting from nothing would: from the start, 500 changes an answer, until
 * caught up (docs/api.md "Changes feed").
 */
export interface FeedResult {
  changes: number;
  requests: number;
  seconds: number;
  itemsPerSec: number;
}

export async function readChangesFeed(
  gateway: string,
  apiKey: string,
  progress: (text: string, done: boolean) => void,
): Promise<FeedResult> {
  const started = performance.now();
  let changes = 0;
  let requests = 0;
  let since: string | undefined;
  for (;;) {
    const url = `${gateway}/api/v1/skills/changes?limit=500${since ? `&since=${since}` : ''}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
    if (!res.ok) throw new Error(`changes feed: ${res.status} ${(await res.text()).slice(0, 300)}`);
    const { data } = (await res.json()) as { data: { changes: unknown[]; nextCursor: string; hasMore: boolean } };
    requests++;
    changes += data.changes.length;
    since = data.nextCursor;
    progress(`changes feed: ${changes.toLocaleString('en')} changes in ${requests} answers`, false);
    if (!data.hasMore) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const result = { changes, requests, seconds, itemsPerSec: changes / seconds };
  progress(
    `changes feed: ${changes.toLocaleString('en')} changes in ${seconds.toFixed(1)} s (${result.itemsPerSec.toFixed(0)} items/s, ${requests} answers)`,
    true,
  );
  return result;
}
