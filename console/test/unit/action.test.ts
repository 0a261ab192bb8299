/**
 * A write on a page (action.ts, the state `useAction` holds): the button
 * busy while the request is out, the API's own words on a refusal, the
 * success text, a second submit while busy, a page left mid-write.
 */
import { ApiError } from '@skills/client';
import {
  ActionRunner,
  IDLE,
  reduceAction,
  type ActionEvent,
  type ActionOptions,
  type ActionState,
} from '../../src/action';
import { refusalOf } from '../../src/messages';

/** A runner folded as React folds useAction's reducer: `shown()` is what the page shows. */
function page(options?: ActionOptions) {
  let shown: ActionState = IDLE;
  const events: ActionEvent['type'][] = [];
  const sut = new ActionRunner((event) => {
    events.push(event.type);
    shown = reduceAction(shown, event);
  }, options);
  return { sut, shown: () => shown, events };
}

/** A request the test answers when it chooses; `sent` counts how many times it was made. */
function request<T = string | void>() {
  const answers: Array<{ resolve(value: T): void; reject(err: unknown): void }> = [];
  const send = () => new Promise<T>((resolve, reject) => answers.push({ resolve, reject }));
  return { send, answers, sent: () => answers.length };
}

const refused = (status: number, message: string, retryAfter?: number) =>
  new ApiError(status, message, 'req-1', retryAfter);

describe('a page action', () => {
  it('is busy while the request is out, then shows its success text, the last error gone', async () => {
    const { sut, shown } = page();
    await sut.run(() => Promise.reject(refused(400, '"name" is required')));
    expect(shown()).toEqual({ busy: false, error: '"name" is required' });

    const save = request();
    const done = sut.run(save.send);
    expect(shown()).toEqual({ busy: true });
    save.answers[0]?.resolve('Saved.');
    await expect(done).resolves.toBe(true);
    expect(shown()).toEqual({ busy: false, status: 'Saved.' });
  });

  it("shows the API's own message when the write is refused, and lets the person try again", async () => {
    const { sut, shown } = page();
    await expect(
      sut.run(() => Promise.reject(refused(409, 'A collection with this name already exists'))),
    ).resolves.toBe(false);
    expect(shown()).toEqual({ busy: false, error: 'A collection with this name already exists' });
    // whatever else fails is said in words too, never thrown at the page
    await expect(sut.run(() => Promise.reject('offline'))).resolves.toBe(false);
    expect(shown()).toEqual({ busy: false, error: 'offline' });
    await expect(sut.run(() => Promise.resolve('Created.'))).resolves.toBe(true);
    expect(shown().status).toBe('Created.');
  });

  it('drops a second submit made while the first is out: one collection, not two', async () => {
    const { sut, shown } = page();
    const create = request();
    const first = sut.run(create.send);
    await expect(sut.run(create.send)).resolves.toBe(false);
    expect(create.sent()).toBe(1);
    expect(shown().busy).toBe(true);
    create.answers[0]?.resolve();
    await first;
    // once it settled, the form submits again
    const again = sut.run(create.send);
    expect(create.sent()).toBe(2);
    create.answers[1]?.resolve('Created.');
    await expect(again).resolves.toBe(true);
  });

  it('with `queue`, makes a click on another row wait its turn: both writes happen, in order, the last one speaks', async () => {
    const { sut, shown } = page({ queue: true });
    const remove = request();
    const first = sut.run(() => remove.send().then(() => 'Removed “a”.'));
    // with none running, the write leaves within the click: what the page held then is what is sent
    expect(remove.sent()).toBe(1);
    const second = sut.run(() => remove.send().then(() => 'Removed “b”.'));
    await Promise.resolve();
    expect(remove.sent()).toBe(1);
    remove.answers[0]?.resolve();
    await expect(first).resolves.toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(remove.sent()).toBe(2);
    expect(shown().busy).toBe(true);
    remove.answers[1]?.resolve();
    await expect(second).resolves.toBe(true);
    expect(shown()).toEqual({ busy: false, status: 'Removed “b”.' });
  });

  it('changes nothing on screen once the page is left mid-write, starts nothing new, and works again when shown again', async () => {
    const { sut, events } = page();
    const detach = sut.attach();
    const leave = request();
    const running = sut.run(leave.send);
    detach();
    leave.answers[0]?.reject(refused(500, 'Internal error'));
    await expect(running).resolves.toBe(false);
    expect(events).toEqual(['start']);
    const later = request();
    await expect(sut.run(later.send)).resolves.toBe(false);
    expect(later.sent()).toBe(0);
    // React mounts a component twice in development: attached again, it acts again
    sut.attach();
    const shownAgain = sut.run(() => Promise.resolve('Saved.'));
    await expect(shownAgain).resolves.toBe(true);
    expect(events).toEqual(['start', 'start', 'done']);
  });

  it("shows the page's own check without a request, and the next run clears it; clearing keeps a write in flight busy", () => {
    const checked = reduceAction(IDLE, { type: 'refused', error: 'Choose at least one scope.' });
    expect(checked).toEqual({ busy: false, error: 'Choose at least one scope.' });
    expect(reduceAction(checked, { type: 'start' })).toEqual({ busy: true });
    const sending = reduceAction(reduceAction(IDLE, { type: 'start' }), {
      type: 'refused',
      error: 'This link has no token.',
    });
    expect(sending).toEqual({ busy: true, error: 'This link has no token.' });
    expect(reduceAction(sending, { type: 'clear' })).toEqual({ busy: true });
    expect(reduceAction({ busy: false, status: 'Saved.' }, { type: 'clear' })).toEqual({ busy: false });
  });
});

describe('what a refusal says', () => {
  it('adds the wait of a 429 to the API message, rounded up, and says anything else as it is', async () => {
    expect(refusalOf(refused(429, 'Too many reports today.', 90))).toBe(
      'Too many reports today. Try again in 2 minutes.',
    );
    expect(refusalOf(refused(429, 'Too many reports today.', 3 * 3600))).toBe(
      'Too many reports today. Try again in 3 hours.',
    );
    expect(refusalOf(refused(429, 'Slow down.'))).toBe('Slow down.');
    expect(refusalOf(refused(400, '"text" must be at most 2000 characters', 90))).toBe(
      '"text" must be at most 2000 characters',
    );
    const { sut, shown } = page({ describe: refusalOf });
    await sut.run(() => Promise.reject(refused(429, 'Too many reports today.', 30)));
    expect(shown().error).toBe('Too many reports today. Try again in 1 minute.');
  });
});
