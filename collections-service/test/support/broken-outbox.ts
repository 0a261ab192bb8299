import type { CollectionsStore, Repositories } from '../../src/domain/ports';

/** The real store, except that writing to the outbox fails: a change and its event must then both roll back. */
export function storeWithBrokenOutbox(store: CollectionsStore): CollectionsStore {
  const broken = (repos: Repositories): Repositories => ({
    ...repos,
    outbox: {
      append: async () => {
        throw new Error('outbox unavailable');
      },
    },
  });
  return {
    repos: broken(store.repos),
    transaction: (work) => store.transaction((repos) => work(broken(repos))),
    wroteInBulk: (rows) => store.wroteInBulk(rows),
    ping: () => store.ping(),
  };
}
