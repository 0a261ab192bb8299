import { ConfigError } from '@skills/common';
import { loadCollectionsConfig } from '../../src/config';

const base = { DATABASE_URL: 'postgres://u@db:5432/x', PRINCIPAL_PUBLIC_KEYS_FILE: '/run/secrets/keys.pem' };

describe('loadCollectionsConfig: webhooks', () => {
  it('reads the private-target switch, the retry schedule and the give-up time', () => {
    const config = loadCollectionsConfig({
      ...base,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '10, 20,40',
      WEBHOOK_GIVE_UP_AFTER_MS: '500',
    });
    expect(config.webhooks).toEqual({ allowPrivateTargets: true, retryScheduleMs: [10, 20, 40], giveUpAfterMs: 500 });
  });

  it('keeps private targets refused and the 24-hour schedule by default', () => {
    expect(loadCollectionsConfig(base).webhooks).toEqual({
      allowPrivateTargets: false,
      retryScheduleMs: [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000],
      giveUpAfterMs: 86_400_000,
    });
  });

  it('names a schedule that is not a list of milliseconds', () => {
    expect(() => loadCollectionsConfig({ ...base, WEBHOOK_RETRY_SCHEDULE: '1m,5m' })).toThrow(ConfigError);
    expect(() => loadCollectionsConfig({ ...base, WEBHOOK_RETRY_SCHEDULE: '1m,5m' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadCollectionsConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS/,
    );
  });
});
