import { isDatabaseUnavailable } from '../../src/db/errors';

/** Sequelize wraps a pg error as SequelizeDatabaseError, with pg's error as `parent`. */
const wrapped = (message: string, code?: string) =>
  Object.assign(new Error(message), { name: 'SequelizeDatabaseError', parent: { message, code } });

describe('isDatabaseUnavailable (503, try again, rather than 500)', () => {
  it.each([
    ['Connection terminated unexpectedly', undefined],
    ['read ECONNRESET', 'ECONNRESET'],
    ['write EPIPE', 'EPIPE'],
    ['Client was closed and is not queryable', undefined],
    ['Client has encountered a connection error and is not queryable', undefined],
    ['terminating connection due to administrator command', '57P01'],
  ])('knows a lost database from its wrapped error: %s', (message, code) => {
    expect(isDatabaseUnavailable(wrapped(message, code))).toBe(true);
  });

  it('knows the pool giving up on a connection', () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('timeout'), { name: 'SequelizeConnectionAcquireTimeoutError' })),
    ).toBe(true);
  });

  it('keeps a bug a bug: an error the server answered, or one from our own code', () => {
    expect(isDatabaseUnavailable(wrapped('column "nope" does not exist', '42703'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('Cannot read properties of undefined'))).toBe(false);
  });
});
